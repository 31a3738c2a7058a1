"""Voluntary shows in the replayer: another site's winner of an uncontested pot who
shows his cards (a real PokerStars Home Game hand, read from the file as the replayer
reads it). The shown cards are public: the replay lists them for every viewer, while
the dealt cards stay hidden until the show (the hero's file masks the other's)."""

from __future__ import annotations

from sharedhh import FPDB_REGRESSION, NEEDED
from stud8.server.http.replay_files import read_replays

pytestmark = NEEDED
HH = FPDB_REGRESSION
HOME = HH / "pokerstars_stud8_8-Game-2max-STT-play-100-201306.homeGame.shootout.stud8-level.txt"
SHOWN = "99632607069"


def one_hand(number: str) -> bytes:
    """The hand numbered ``number`` of the file, alone (a file of one hand)."""
    text = HOME.read_bytes().decode("utf-8").replace("\r\n", "\n")
    (hand,) = (h for h in text.split("\n\n\n") if f"Hand #{number}:" in h)
    return hand.strip().encode() + b"\n"


def test_a_voluntary_show_is_in_the_replay_and_its_cards_hidden_until_then() -> None:
    replays = read_replays(one_hand(SHOWN), "home.txt")
    (replay,) = replays.hands
    assert replays.format == "pokerstars" and not replays.problems
    players = {p.seat: p.player for p in replay.players}
    assert players[replay.viewer or 0] == "Hero"
    assert [(s.seat, s.cards) for s in replay.shows] == [(1, ["Ad", "Ah", "3d", "2d", "5s"])]
    # Player0's down cards are hidden in the events (Hero's file): shown only by the show
    downs = [e for e in replay.events if e["k"] == "deal" and e["seat"] == 1 and not e["face_up"]]
    assert len(downs) == 2 and all(e["card"] is None for e in downs)
    assert not any(e["k"] == "show" for e in replay.events)  # nobody showed down


def test_a_hand_without_a_voluntary_show_lists_none() -> None:
    replays = read_replays(one_hand("99632613652"), "home.txt")
    (replay,) = replays.hands
    assert replay.shows == []
