"""A mixed table (stud8.server.table.rotation): the games turn every N hands, each
hand is dealt with its game's rules (the bring-in, who acts, the showdown), the
change is told before it happens, a table back after a restart goes on where it
was, and each hand's history names its game as PokerStars' mixed games do and
reads back, verified, for each game."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.tableharness import Harness, play_passively, run, seat_players
from stud8.cli import main
from stud8.core.cards import Card
from stud8.core.events import BringInPosted, CardDealt, PotAwarded
from stud8.core.rules import Game
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.pokerstars.write import to_pokerstars, write_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.verify import verify_pokerstars
from stud8.server.table.events import HandStarted, MixedGame
from stud8.server.table.rotation import GameRotation, Rotation
from stud8.server.table.spec import TableSpec
from trackercheck import fpdb_check, totals_are_ours, trackable

HI_LO, STUD, RAZZ = Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ
TRIPLE = (HI_LO, STUD, RAZZ)
SUITS = "cdhs"  # clubs lowest (RULES.md 2)


def bring_in_seat(record: HandRecord) -> int:
    """Who RULES.md says brings in: the lowest door card, the ace high (Stud Hi/Lo,
    Stud); in Razz the highest, the ace low (RULES.md 8); a tie goes by suit."""
    doors: dict[int, Card] = {}
    for e in record.events:
        if type(e) is CardDealt and e.face_up and e.card is not None and e.seat not in doors:
            doors[e.seat] = e.card

    def value(card: Card) -> tuple[int, int]:
        rank = 1 if record.rules.game is RAZZ and card.rank == 14 else card.rank
        return rank, SUITS.index(card.suit)

    pick = max if record.rules.game is RAZZ else min
    return pick(doors, key=lambda seat: value(doors[seat]))


async def play_hands(h: Harness, count: int) -> None:
    for _ in range(count):
        await h.advance(5)
        assert h.table.hand is not None
        await play_passively(h)


def test_a_rotation_every_two_hands_plays_hi_lo_stud_razz_two_hands_each() -> None:
    """Hi/Lo, Hi/Lo, Stud, Stud, Razz, Razz, Hi/Lo...: each hand dealt with its game's
    rules, so the bring-in is the lowest door card but in Razz the highest (RULES.md 2
    and 8), and only Stud Hi/Lo's pots are split high and low (RULES.md 5 and 8: Stud
    and Razz award each pot whole)."""

    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        await play_hands(h, 8)
        records = h.records
        played = [r.rules.game for r in records]
        assert played == [HI_LO, HI_LO, STUD, STUD, RAZZ, RAZZ, HI_LO, HI_LO]
        for record in records:
            assert record.mixed == "Triple Stud"
            [bring_in] = [e for e in record.events if type(e) is BringInPosted]
            assert bring_in.seat == bring_in_seat(record), record.rules.game
            halves = {e.half for e in record.events if type(e) is PotAwarded}
            if record.rules.game is not HI_LO:
                assert halves == {"whole"}, record.rules.game
            assert record.rules.ante == 1 and record.rules.small_bet == 4  # the same stakes

    run(body, rotation=Rotation(TRIPLE, hands=2))


def test_the_change_is_told_before_it_happens_and_when_it_does() -> None:
    """At the start of the last hand of a game: "The game changes to ... after this
    hand"; at the start of the first hand of the next: "Now playing: ...". Each
    hand's mixed_game event follows its hand_start and says its game."""

    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await play_hands(h, 5)
        told: list[tuple[str, MixedGame]] = []
        hand_id = ""
        for n in seen:
            if isinstance(n.event, HandStarted):
                hand_id = n.event.hand_id
            elif isinstance(n.event, MixedGame):
                assert isinstance(seen[seen.index(n) - 1].event, HandStarted)
                told.append((hand_id, n.event))
        assert [(e.game, e.next_game, e.hands_left) for _, e in told] == [
            (HI_LO, STUD, 1),
            (HI_LO, STUD, 0),
            (STUD, RAZZ, 1),
            (STUD, RAZZ, 0),
            (RAZZ, HI_LO, 1),
        ]
        assert [e.notice for _, e in told] == [
            "Now playing: Stud Hi/Lo",
            "The game changes to Seven Card Stud after this hand",
            "Now playing: Seven Card Stud",
            "The game changes to Razz after this hand",
            "Now playing: Razz",
        ]
        # the hand the change was told in was still Hi/Lo; the next one Stud
        records = {r.hand_id: r for r in h.records}
        assert records[told[1][0]].rules.game is HI_LO
        assert records[told[2][0]].rules.game is STUD
        # the snapshot and the lobby's status carry the game now and the next
        snapshot = h.table.snapshot()
        assert snapshot.mixed == told[-1][1]
        assert h.table.status().game == "razz"

    run(body, rotation=Rotation(TRIPLE, hands=2))


def test_a_table_back_after_a_restart_goes_on_with_its_rotation() -> None:
    """A table that dealt 3 hands before (Hi/Lo, Hi/Lo, Stud) deals its 4th as the
    last of Stud, tells the change to Razz, and then deals Razz."""

    async def body(h: Harness) -> None:
        seen = h.watch()
        snapshot = h.table.snapshot()  # before any hand here: the last game dealt
        assert snapshot.mixed is not None and snapshot.mixed.game is STUD
        assert h.table.status().game == "stud_high"
        await seat_players(h, 2)
        await play_hands(h, 3)
        assert [r.rules.game for r in h.records] == [STUD, RAZZ, RAZZ]
        notices = [n.event.notice for n in seen if isinstance(n.event, MixedGame)]
        assert notices == [
            "The game changes to Razz after this hand",
            "Now playing: Razz",
            "The game changes to Stud Hi/Lo after this hand",
        ]

    run(body, rotation=Rotation(TRIPLE, hands=2), hands_dealt=3)


def test_a_table_of_one_game_tells_nothing_of_games() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await play_hands(h, 2)
        assert not any(isinstance(n.event, MixedGame) for n in seen)
        assert h.table.snapshot().mixed is None
        assert all(r.mixed == "" and r.rules.game is HI_LO for r in h.records)

    run(body)


def test_every_orbit_is_as_many_hands_as_the_table_has_seats() -> None:
    """Stud has no button: an orbit is one hand on each seat, as PokerStars' mixed
    stud changes every 8 hands at 8-max (6 at 6-max)."""
    spec = TableSpec(rotation="stud_hi_lo+razz", seats=6)
    rotation = spec.config("t1").rotation
    assert rotation is not None and rotation.hands == 6
    assert [rotation.game_of(n) for n in (0, 5, 6, 11, 12)] == [HI_LO, HI_LO, RAZZ, RAZZ, HI_LO]
    eight = TableSpec(rotation="stud_hi_lo+stud_high+razz").config("t1").rotation
    assert eight is not None and eight.hands == 8
    # the table's game is where it starts
    start = TableSpec(rotation="stud_hi_lo+stud_high+razz", game="razz", rotation_hands=1)
    started = start.config("t1").rotation
    assert started is not None and [started.game_of(n) for n in range(4)] == [
        RAZZ,
        HI_LO,
        STUD,
        RAZZ,
    ]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (TableSpec(rotation="stud_hi_lo,razz"), "rotation must be one of off, stud_hi_lo+"),
        (TableSpec(rotation="stud_hi_lo+stud_hi_lo"), "rotation must be one of"),
        (TableSpec(rotation="stud_high+razz"), "game stud_hi_lo is not one of the rotation's"),
        (TableSpec(rotation="stud_high+razz", rotation_hands=0), "rotation_hands must be"),
    ],
)
def test_a_bad_rotation_is_refused_naming_it(spec: TableSpec, words: str) -> None:
    with pytest.raises(ValueError, match="rotation") as refused:
        spec.config("t1")
    assert words in str(refused.value)


def test_the_rotation_s_words_come_with_the_hand_not_before() -> None:
    """GameRotation alone: the rules of the next hand, its event once dealt."""
    rules = TableSpec().rules()
    games = GameRotation(rules, Rotation((HI_LO, RAZZ), hands=1))
    assert games.rules().game is HI_LO and games.info() is not None
    [first] = games.dealt()
    assert (first.game, first.next_game, first.hands_left) == (HI_LO, RAZZ, 0)
    assert first.notice == "Now playing: Stud Hi/Lo. The game changes to Razz after this hand"
    assert games.rules().game is RAZZ


def test_each_game_s_history_names_it_and_reads_back_verified(tmp_path: Path) -> None:
    """PokerStars' header of a mixed game's hand ("Triple Stud (Razz Limit, 4/8)",
    as its HORSE and 8-Game hands: ../shared/hh/), read back as that game of that
    mixed game, reproduced by the engine (``stud8 hh verify``'s check and the
    command itself), for a hand of each game, in a player's view and the operator's."""
    records: list[HandRecord] = []

    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        await play_hands(h, 3)
        records.extend(h.records)

    run(body, rotation=Rotation(TRIPLE, hands=1))
    names = {HI_LO: "7 Card Stud Hi/Lo", STUD: "7 Card Stud", RAZZ: "Razz"}
    assert [r.rules.game for r in records] == list(TRIPLE)
    for record in records:
        for text in (to_pokerstars(record, seat=1), to_pokerstars(record, everything=True)):
            header = text.splitlines()[0]
            game = names[record.rules.game]
            assert header.startswith("PokerStars Hand #")
            assert f":  Triple Stud ({game} Limit, 4/8) - " in header, header
            [hand] = parse_text(text)
            assert isinstance(hand, PokerStarsHand), hand
            assert (hand.game, hand.mixed) == (game, "Triple Stud")
            verdict = verify_pokerstars(hand)  # the rules the text implies
            assert verdict.reproduced, str(verdict)
    path = tmp_path / "mixed.txt"
    assert write_pokerstars(path, records, everything=True) == 3
    assert main(["hh", "verify", str(path)]) == 0


def test_fpdb_imports_each_game_of_a_mixed_table(tmp_path: Path) -> None:
    """fpdb's PokerStars parser (../shared/oracles/fpdb-check) takes a mixed table's
    hands as Triple Stud hands of their games, its totals the text's (ours)."""
    records: list[HandRecord] = []

    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        await play_hands(h, 6)
        records.extend(h.records)

    run(body, rotation=Rotation(TRIPLE, hands=2))
    assert {r.rules.game for r in records} == set(TRIPLE)
    assert all(trackable(r) for r in records)
    path = tmp_path / "mixed.txt"
    write_pokerstars(path, records, everything=True)
    totals_are_ours(path.read_text(encoding="utf-8"), records)
    report = fpdb_check([path])
    assert "6/6 hands accepted" in report, report
