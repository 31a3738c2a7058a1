"""One rule for the lines a site's reader does not know (sites/_text.table_line): an
informational line of a hand the reader otherwise understands is kept as a table
line (in the hand read, in its record, and in the PokerStars text written of it),
never a reason to refuse the hand; a line of the play (a seated player's action,
card, show or win, or a line starting with the site's markers of the play) that
cannot be read is refused, naming its line.

Each site's real sample (../shared/hh, beside the repository) is read with two
lines written here put in after one of its lines: an informational line, and then
instead a line of the play nobody can read. iPoker's XML has no free lines (every
element of a round is a card or an action of the play); Merge's table events are
its SIT_OUT, SIT_IN, LEAVE, JOIN and CHAT events. Everleaf's samples (our own) are in
tests/formats/test_everleaf.py."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sharedhh import NEEDED, OTHER_SITES, params
from stud8.formats.pokerstars import BadLine, PokerStarsHand, ReadError
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.pokerstars.record import WRITER
from stud8.formats.record import HandRecord
from stud8.formats.registry import View
from stud8.formats.site_readers import site_reader
from stud8.formats.sites import decode, site_named, verify_hand
from stud8.formats.sites._text import PLAY_WORDS, table_line


@dataclass(frozen=True)
class Case:
    site: str
    file: str
    after: str  # a pattern: the lines go in after the first line it finds
    informational: str
    unreadable: str


CASES = [
    Case(
        "absolute",
        "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt",
        r"Bring-In",
        "Dealer: this table closes in 5 minutes",
        "PLAYER1 - Raises sideways",
    ),
    Case(
        "bovada",
        "bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt",
        r"Bets \$0\.25",
        "Seat+3 : Table leave user",
        "Seat+4 : Raises a lot",
    ),
    Case(
        "fulltilt",
        "fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt",
        r"brings in for",
        "Player3 has 15 seconds left to act",
        "Player5 raises a lot",
    ),
    Case(
        "kingsclub",
        "kingsclub_stud8_7-StudHL-USD-40-80-202101.txt",
        r"brings in for",
        "Hero has 15 seconds to act",
        "Player0 raises sideways",
    ),
    Case(
        "ongame",
        "ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt",
        r"^Dealing to guggi_cool",
        "Lee Clayton is sitting out",
        "YMAN1 raises",
    ),
    Case(
        "partypoker",
        "partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt",
        r"bring-ins",
        "tubby09 has left the table",
        "Unladylike bets [lots]",
    ),
    Case(
        "winamax",
        "winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt",
        r"brings in",
        'Player0 said, "gl"',
        "Player0 raises abc",
    ),
    Case(
        "winning",
        "winningpoker_stud8_acr_7Stud-HL-USD-0.10-0.20-202310.hand-history-parser.txt",
        r"brings in",
        "KickShorty is disconnected",
        "fuggins bets",
    ),
    Case(
        "winning",
        "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt",
        r"bring in",
        "Player Diamonds4ever sits out",
        "Player ChazDazzle bets",
    ),
]


def _with(case: Case, extra: str) -> tuple[str, int]:
    """The sample's text with ``extra`` put in, and the number of its line."""
    text = decode((OTHER_SITES / case.file).read_bytes()).replace("\r\n", "\n")
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if re.search(case.after, line))
    lines.insert(at + 1, extra)
    return "\n".join(lines), at + 2


@NEEDED
@pytest.mark.parametrize("case", params(CASES, [f"{c.site}-{c.file[:20]}" for c in CASES]))
def test_an_informational_line_is_kept_as_a_table_line(case: Case) -> None:
    text, number = _with(case, case.informational)
    site = site_named(case.site)
    hand = next(h for h in site.read(text, case.file) if isinstance(h, PokerStarsHand))
    assert verify_hand(site, hand).reproduced
    assert [(n.text, n.line) for n in hand.notes if n.text == case.informational] == [
        (case.informational, number)
    ]
    record = next(r for r in site_reader(site).records(text, case.file))
    assert isinstance(record, HandRecord)
    assert case.informational in [t.text for t in record.table_lines]
    # and the PokerStars text of the hand says it, on a street (not after the hand),
    # and reads back with it
    text = WRITER.write(record, View())
    written = text.split("\n")
    at = written.index(case.informational)
    assert "*** SUMMARY ***" in written[at:]
    (again,) = parse_text(text)
    assert isinstance(again, PokerStarsHand)
    assert case.informational in [n.text for n in again.notes]


def test_a_players_chat_in_the_sites_own_form_is_kept_as_pokerstars_says_chat() -> None:
    case = next(c for c in CASES if c.site == "kingsclub")
    text, _ = _with(case, "Hero: good luck")
    (hand,) = [
        h for h in site_named("kingsclub").read(text, case.file) if isinstance(h, PokerStarsHand)
    ]
    assert 'Hero said, "good luck"' in [n.text for n in hand.notes]


@NEEDED
@pytest.mark.parametrize("case", params(CASES, [f"{c.site}-{c.file[:20]}" for c in CASES]))
def test_an_unreadable_line_of_the_play_is_refused_naming_it(case: Case) -> None:
    text, number = _with(case, case.unreadable)
    items = site_named(case.site).read(text, case.file)
    error = next(i for i in items if isinstance(i, ReadError))
    assert error.line == number
    whole = site_named(case.site).read(_with(case, "")[0], case.file)
    hands = [h for h in items if isinstance(h, PokerStarsHand)]
    assert len(hands) == sum(isinstance(h, PokerStarsHand) for h in whole) - 1


@NEEDED
def test_merge_keeps_a_chat_event_and_refuses_an_event_it_does_not_know() -> None:
    name = "merge_stud8_HORSE-Tournament-Freeroll.201107.stud8-games.xml"
    text = (OTHER_SITES / name).read_text()
    site = site_named("merge")
    hands = [h for h in site.read(text, name) if isinstance(h, PokerStarsHand)]
    assert all(verify_hand(site, h).reproduced for h in hands)
    assert [n.text for h in hands for n in h.notes] == ['Player1 said, "stupid low.."']
    records = list(site_reader(site).records(text, name))
    assert any(
        'Player1 said, "stupid low.."' in [t.text for t in r.table_lines]
        for r in records
        if isinstance(r, HandRecord)
    )
    odd = text.replace('type="CHAT"', 'type="DANCE"')
    errors = [i for i in site.read(odd, name) if isinstance(i, ReadError)]
    assert [e.message for e in errors] == ["cannot read the event type 'DANCE'"]


class _Notes:
    """What table_line needs of a hand being built: its seated players and notes."""

    def __init__(self) -> None:
        self.by_name = {"Ann": 1, "Ann Lee": 2, "Bob": 3}
        self.total: int | None = None
        self.rake: int | None = None
        self.notes: list[str] = []

    def seat(
        self, seat: int, name: str, stack: int, line: int, *, sitting_out: bool = False
    ) -> None:
        raise AssertionError("table_line seats nobody")

    def note(self, text: str, line: int) -> None:
        self.notes.append(text)


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz$0123456789[], ", max_size=30)


@given(
    name=st.sampled_from(["Ann", "Ann Lee", "Bob"]),
    verb=st.sampled_from(sorted(PLAY_WORDS)),
    rest=_WORDS,
)
def test_a_seated_players_line_of_the_play_is_never_kept(name: str, verb: str, rest: str) -> None:
    for sep in (" ", ": "):
        b = _Notes()
        with pytest.raises(BadLine):
            table_line(b, f"{name}{sep}{verb.upper() if rest[:1] == 'a' else verb} {rest}", 7)
        assert b.notes == []


@given(words=_WORDS)
def test_a_line_of_nobodys_is_kept_as_it_stands_unless_it_has_the_sites_markers(words: str) -> None:
    line = f"Notice {words}".strip()
    b = _Notes()
    table_line(b, line, 7, play=("*** ", "Seat "))
    assert b.notes == [line]
    with pytest.raises(BadLine):
        table_line(b, f"*** {words}", 8, play=("*** ", "Seat "))
    assert b.notes == [line]  # nothing kept of the refused line


@given(
    words=_WORDS.filter(
        lambda w: w.strip().partition(" ")[0].lower().rstrip(".,:") not in PLAY_WORDS
    )
)
def test_a_players_chat_is_kept_in_pokerstars_words(words: str) -> None:
    b = _Notes()
    table_line(b, f"Bob: {words}", 7)
    assert b.notes == [f'Bob said, "{words.strip()}"']
