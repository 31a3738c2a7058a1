"""The XML readers (Merge, iPoker) in linear time, and Merge's pot- and no-limit
stakes.

A hostile file of a MiB of empty or unclosed ``<game>`` elements took 6 to 7 s of
CPU to read (each game was looked for its end to the end of the file, its line
counted from the start, its header searched in all the text before it); it now
reads in a small part of a second. The bound here is generous (the machine is
shared), and far under what the old reader needed."""

from __future__ import annotations

import gc
import time

import pytest

from sharedhh import NEEDED, OTHER_SITES
from stud8.formats.pokerstars import PokerStarsHand, ReadError
from stud8.formats.sites import decode, site_named
from stud8.formats.sites._build import HI_LO
from stud8.formats.verify import verify_pokerstars

MIB = 1 << 20
GAME = (
    '<game id="1-{k}" starttime="20110908220212" numholecards="7" gametype="43" realmoney="true">'
)
HEADERS = {
    "merge": '<description type="7-Stud H/L8" stakes="Limit $0.25/$0.50"/>\n',
    "ipoker": "<session><general><gametype>7 Card Stud Hi-Lo L €0.05/€0.10</gametype></general>\n",
}


def _hostile(site: str, closed: bool) -> str:
    unit = GAME + ("</game>\n" if closed else "\n")
    count = MIB // len(unit)
    return HEADERS[site] + "".join(unit.format(k=k) for k in range(count))


@pytest.mark.parametrize("site", ["merge", "ipoker"])
@pytest.mark.parametrize("closed", [True, False], ids=["empty", "unclosed"])
def test_a_mib_of_hostile_games_reads_in_well_under_a_second(site: str, closed: bool) -> None:
    text = _hostile(site, closed)
    assert len(text) >= MIB - 200
    # The objects of the test session are kept out of the collector's scans (a full
    # collection of them is no cost of the reader's); its own objects are collected.
    gc.collect()
    gc.freeze()
    try:
        start = time.process_time()
        items = site_named(site).read(text, "hostile.xml")
        spent = time.process_time() - start
    finally:
        gc.unfreeze()
    assert spent < 1.0, f"{spent:.2f} s of CPU"
    assert len(items) == text.count("<game ") > 5000
    assert all(isinstance(i, ReadError) for i in items)
    # each error names its own game's line
    assert [i.line for i in items[:3] if isinstance(i, ReadError)] == [2, 3, 4]


@NEEDED
def test_a_game_reads_its_own_header_not_an_older_one() -> None:
    """Two sessions of one file: each game takes the stakes of the header before it."""
    real = decode((OTHER_SITES / "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt").read_bytes())
    doubled = real.replace("$0.25/$0.50", "$0.50/$1") + "\n" + real
    items = site_named("merge").read(doubled, "two.xml")
    hands = [i for i in items if isinstance(i, PokerStarsHand)]
    assert [(h.small_bet, h.big_bet) for h in hands] == [(50, 100), (25, 50)]


@NEEDED
def test_merge_no_limit_stakes_are_the_ante_the_bring_in_and_the_minimum_bet() -> None:
    """``stakes="No Limit ($0.02/$0.05/$0.25)"``: an ante of 2, a bring-in of 5 and a
    minimum bet of 25 (the real limit hand's bets are all legal no-limit bets)."""
    real = decode((OTHER_SITES / "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt").read_bytes())
    text = real.replace('stakes="Limit $0.25/$0.50"', 'stakes="No Limit ($0.02/$0.05/$0.25)"')
    (hand,) = site_named("merge").read(text, "nl.xml")
    assert isinstance(hand, PokerStarsHand)
    assert (hand.structure, hand.small_bet, hand.big_bet) == ("No Limit", 25, 25)
    assert hand.game == HI_LO and {a.amount for a in hand.antes} == {2}
    assert verify_pokerstars(hand).reproduced
