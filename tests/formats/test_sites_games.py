"""Every site's reader reads the three games of the Stud family (Stud Hi/Lo, Seven
Card Stud, Razz) by the names the site gives them, and skips the others (five-card
stud, deuce-to-seven razz, hold'em) saying which game it was.

The hands: each site's real Stud Hi/Lo sample (``../shared/hh/other-sites/``) with
its game written as the site writes its other games (the names each site's parser in
fpdb knows); the real Seven Card Stud hands of Bovada, Full Tilt and Winning Poker
are verified in test_sites.py and test_fpdb_regression_samples.py."""

from __future__ import annotations

import re

import pytest

from sharedhh import NEEDED, OTHER_SITES
from stud8.formats.pokerstars import PokerStarsHand, Skipped
from stud8.formats.sites import decode, detect, verify_hand
from stud8.formats.sites._text import stud_game

HI_LO, STUD, RAZZ = "7 Card Stud Hi/Lo", "7 Card Stud", "Razz"

# sample: (the site's hi/lo words in it, {the words for another game: the game read})
NAMES: dict[str, tuple[str, dict[str, str | None]]] = {
    "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt": (
        "Seven Card Hi/Lo",
        {"7 Card Stud": STUD, "Razz": RAZZ, "Omaha Hi/Lo": None},
    ),
    "bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt": (
        "7CARD HiLo",
        {"7CARD": STUD, "7CARD_HL": HI_LO, "OMAHA HiLo": None},
    ),
    "fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt": (
        "Limit Stud H/L",
        {
            "Limit Stud Hi": STUD,
            "Limit 7 Card Stud": STUD,
            "Limit Razz": RAZZ,
            "Limit 5 Card Stud": None,
        },
    ),
    "ipoker_stud8_7-StudHL-EUR-0.05-0.10-201405.txt": (
        "7 Card Stud Hi-Lo",
        {"7 Card Stud": STUD, "Omaha Hi-Lo": None},
    ),
    "kingsclub_stud8_7-StudHL-USD-40-80-202101.txt": (
        "Limit Seven Card Stud Hi-Lo",
        {"Limit Seven Card Stud": STUD, "Limit Razz": RAZZ, "Limit 2-7 Razz": None},
    ),
    "ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt": (
        "SEVEN_CARD_STUD_HI_LO",
        {"SEVEN_CARD_STUD": STUD, "RAZZ": RAZZ, "OMAHA_HI_LO": None},
    ),
    "partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt": (
        "7 Card Stud Hi-Lo",
        {"7 Card Stud": STUD, "Omaha Hi-Lo": None},
    ),
    "winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt": (
        "7-Card Stud Hi/Lo",
        {"7-Card Stud": STUD, "7stud": STUD, "7stud8": HI_LO, "Razz": RAZZ, "Omaha8": None},
    ),
    "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt": (
        "Seven Cards Stud HiLow",
        {"Seven Cards Stud": STUD, "Razz": RAZZ, "Omaha HiLow": None},
    ),
    "winningpoker_stud8_acr_7Stud-HL-USD-0.10-0.20-202310.hand-history-parser.txt": (
        "7Stud H/L",
        {"7Stud": STUD, "Razz": RAZZ, "Omaha H/L": None},
    ),
    "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt": (
        'gametype="43"',
        {'gametype="41"': STUD, 'gametype="46"': RAZZ, 'gametype="35"': None},
    ),
}

CASES = [(name, words, game) for name, (_, other) in NAMES.items() for words, game in other.items()]


@NEEDED
@pytest.mark.parametrize(("name", "words", "game"), CASES)
def test_each_site_reads_its_stud_and_razz_hands_and_skips_other_games(
    name: str, words: str, game: str | None
) -> None:
    hi_lo_words = NAMES[name][0]
    text = decode((OTHER_SITES / name).read_bytes())
    assert hi_lo_words in text
    site = detect(text)
    assert site is not None
    (first, *_) = site.read(text, name)
    assert isinstance(first, PokerStarsHand) and first.game == HI_LO
    other = text.replace(hi_lo_words, words)
    (item, *_) = site.read(other, name)
    if game is None:
        assert isinstance(item, Skipped), item
        named = words.split('"')[1] if '"' in words else words  # Merge: the number
        assert "not a Stud-family hand" in item.reason and named in item.reason
    else:
        assert isinstance(item, PokerStarsHand), item
        assert item.game == game
        # the same seats and actions: only the game's name changed
        assert item.actions == first.actions and item.seats == first.seats


def test_the_game_names_of_the_sites() -> None:
    for _, (hi_lo, other) in NAMES.items():
        if "gametype" not in hi_lo:
            assert stud_game(hi_lo) == HI_LO
            for words, game in other.items():
                assert stud_game(words) == game, words


@NEEDED
def test_acr_2026_cash_header_is_read() -> None:
    """ACR/WPN's 2026 cash header: a space before the structure and the ante named
    (``Hand #N - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 - DATE``)."""
    name = "winningpoker_stud8_acr_7Stud-HL-USD-0.10-0.20-202310.hand-history-parser.txt"
    text = decode((OTHER_SITES / name).read_bytes())
    old = "Hand #1903647457 - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - 2023/10/22 02:49:52 UTC"
    assert text.startswith(old)
    for new, game in (
        ("Hand #1903647457 - 7Stud H/L (Fixed Limit) - $0.10/$0.20, Ante $0.02 - ", HI_LO),
        ("Hand #1903647457 - 7Stud (Fixed Limit) - $0.10/$0.20, Ante $0.02 - ", STUD),
    ):
        again = text.replace(old, new + "2026/01/05 02:49:52 UTC")
        site = detect(again)
        assert site is not None and site.name == "winning"
        (hand,) = site.read(again, name)
        assert isinstance(hand, PokerStarsHand), hand
        assert (hand.game, hand.small_bet, hand.big_bet, hand.currency) == (game, 10, 20, "USD")
        if game == HI_LO:
            assert verify_hand(site, hand).reproduced


def _party_tournament(text: str) -> str:
    """The real PartyPoker cash hand as a tournament hand (a cent a chip)."""
    text = text.replace(
        "$10/$20 USD FL 7 Card Stud Hi-Lo - ",
        "FL 7 Card Stud Hi-Lo  $5 USD Buy-in + $0.50 Entry Fee Trny: 123456 Level: 3 "
        "Stakes-Antes(1000/2000 - 100) - ",
    ).replace("(Real Money)", "(Play Money)")

    def chips(m: re.Match[str]) -> str:
        return str(int(m.group(1)) * 100 + int(m.group(2) or 0))

    head, _, body = text.partition("Entry Fee")
    return head + "Entry Fee" + re.sub(r"\$(\d+)(?:\.(\d\d))? USD", chips, body)


@NEEDED
def test_a_partypoker_tournament_hand_is_read() -> None:
    name = "partypoker_stud8_7-StudHL-USD-10-20.201202.wins.lo.pot.txt"
    text = decode((OTHER_SITES / name).read_bytes())
    tour = _party_tournament(text)
    assert "Trny: 123456" in tour and "$" not in tour.split("Entry Fee")[1]
    site = detect(tour)
    assert site is not None and site.name == "partypoker"
    (hand,) = site.read(tour, name)
    assert isinstance(hand, PokerStarsHand), hand
    assert (hand.tournament, hand.level, hand.small_bet, hand.big_bet) == (
        "123456",
        "3",
        1000,
        2000,
    )
    assert hand.currency == "" and hand.buy_in == "$5+$0.50"
    assert verify_hand(site, hand).reproduced
