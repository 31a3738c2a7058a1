"""PokerStars' informational lines: ``Betting is capped`` (a limit round at its cap,
in every game) and ``Pair on board - a double bet is allowed`` (Stud high, an open
pair on 4th street) are read as table lines and written back where they stood; any
other line that is no part of the play is kept the same way (never a reason to
refuse the hand), while a line of the play that cannot be read is still an error."""

from __future__ import annotations

from stud8.core import Deck, Game, Hand, TableRules
from stud8.core.actions import ActionKind
from stud8.formats.pokerstars import PokerStarsHand, ReadError
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.pokerstars.write import to_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.verify import verify_pokerstars


def _capped_hand(game: Game) -> str:
    """A hand whose 3rd street is raised to the cap, then checked down, as text."""
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
    hand = Hand.start(rules=rules, stacks={1: 200, 2: 200, 3: 200}, deck=Deck.seeded(5))
    while not hand.is_over:
        legal = hand.legal_actions()
        kinds = [a.kind for a in legal]
        if hand.street == 3 and (ActionKind.RAISE in kinds or ActionKind.COMPLETE in kinds):
            pick = next(a for a in legal if a.kind in (ActionKind.RAISE, ActionKind.COMPLETE))
        else:
            pick = next(a for a in legal if a.kind is not ActionKind.FOLD)
        sized = pick.kind in (ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BET)
        hand.apply(pick.action(pick.min_to) if sized else pick.action())
    names = {s: f"player {s}" for s in hand.seats}
    return to_pokerstars(HandRecord.from_hand(hand, names=names, table="T"), everything=True)


def _after(text: str, needle: str, line: str, nth: int = 1) -> str:
    """The text with ``line`` inserted after the ``nth`` line containing ``needle``."""
    lines = text.split("\n")
    at = [i for i, t in enumerate(lines) if needle in t][nth - 1]
    return "\n".join([*lines[: at + 1], line, *lines[at + 1 :]])


def _one(text: str) -> PokerStarsHand:
    (hand,) = parse_text(text)
    assert isinstance(hand, PokerStarsHand), str(hand)
    return hand


def test_betting_is_capped_is_read_kept_and_written_back_in_every_game() -> None:
    for game in (Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ):
        text = _capped_hand(game)
        assert text.count(": raises ") == 3  # the completion and two raises: the cap
        capped = _after(text, ": raises ", "Betting is capped", nth=3)
        hand = _one(capped)
        assert verify_pokerstars(hand).reproduced
        assert [n.text for n in hand.notes] == ["Betting is capped"]
        again = to_pokerstars(record_of_pokerstars(hand), everything=True)
        assert again == capped  # written back where it stood


def test_pair_on_board_and_unknown_informational_lines_are_table_lines() -> None:
    text = _capped_hand(Game.STUD_HIGH)
    lines = (
        "Pair on board - a double bet is allowed",
        "The tournament is now on a break of 5 minutes",
        "Dealer: a new deck is in play",
    )
    changed = text
    for extra in lines:
        changed = _after(changed, "*** 4th STREET ***", extra)
    hand = _one(changed)
    assert verify_pokerstars(hand).reproduced
    assert sorted(n.text for n in hand.notes) == sorted(lines)
    assert all(
        extra in to_pokerstars(record_of_pokerstars(hand), everything=True) for extra in lines
    )


def test_a_line_of_the_play_that_cannot_be_read_is_still_an_error() -> None:
    text = _capped_hand(Game.STUD_HI_LO)
    for bad in ("player 1 bets a lot", "*** 9th STREET ***", "Total pot lots | Rake 0"):
        (item,) = parse_text(_after(text, "*** 4th STREET ***", bad))
        assert isinstance(item, ReadError), bad
