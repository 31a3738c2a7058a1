"""Saying what happens at the table, as plain text.

A :class:`Narrator` writes one hand's events as one seat sees them (another
player's down cards stay ``??`` until shown), the table at each street, and at the
end who won which half of each pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TextIO

from stud8.core import Game, Hand
from stud8.core.cards import RANK_CHARS, Card
from stud8.core.evaluate import describe_up_cards
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    RakeTaken,
    StreetStarted,
    UncalledBetReturned,
)
from stud8.core.views import SeatView, visible_event

STREET_NAMES = {
    3: "Third street",
    4: "Fourth street",
    5: "Fifth street",
    6: "Sixth street",
    7: "Seventh street (the river)",
}


class Style:
    """ANSI colour, or nothing at all."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def card(self, card: Card) -> str:
        return self._wrap("31", str(card)) if card.suit in "hd" else str(card)

    def good(self, text: str) -> str:
        return self._wrap("32", text)

    def bad(self, text: str) -> str:
        return self._wrap("33", text)


def visible_width(text: str) -> int:
    """The length of ``text`` on screen, ANSI codes left out."""
    visible = len(text)
    i = text.find("\x1b[")
    while i >= 0:
        j = text.find("m", i)
        visible -= j - i + 1
        i = text.find("\x1b[", j)
    return visible


def cards_text(seat_view: SeatView, style: Style | None = None) -> str:
    """``[As 2d] 3c 7h [Kd]``: down cards in brackets, ``??`` for one you may not see.

    >>> from stud8.core.cards import parse_cards
    >>> up = parse_cards("3c")
    >>> cards_text(SeatView(1, 10, 0, 1, False, False, up, parse_cards("As 2d")))
    '[As 2d] 3c'
    >>> cards_text(SeatView(2, 10, 0, 1, False, False, up, (None, None)))
    '[?? ??] 3c'
    """
    s = style or Style(False)

    def show(cards: Sequence[Card | None]) -> str:
        return " ".join("??" if c is None else s.card(c) for c in cards)

    down = seat_view.down_cards
    parts = []
    if down[:2]:
        parts.append(f"[{show(down[:2])}]")
    if seat_view.up_cards:
        parts.append(show(seat_view.up_cards))
    if down[2:]:
        parts.append(f"[{show(down[2:])}]")
    return " ".join(parts)


def razz_showing(up: Sequence[Card]) -> str:
    """Up cards as a Razz player says them: ``"7-4-A low"``, or the pair they make.

    >>> from stud8.core.cards import parse_cards
    >>> razz_showing(parse_cards("4d Ac 7s")), razz_showing(parse_cards("Kd 9c Ks"))
    ('7-4-A low', 'pair of kings')
    """
    if len({c.rank for c in up}) < len(up):
        return describe_up_cards(up).lower()
    ranks = sorted((c.low_rank for c in up), reverse=True)
    return "-".join("A" if r == 1 else RANK_CHARS[r - 2] for r in ranks) + " low"


class Narrator:
    """Writes a hand to ``out`` as ``viewer`` sees it.

    ``names`` maps each seat to the name shown (kept up to date by the table); the
    viewer is "You".
    """

    def __init__(self, out: TextIO, style: Style, viewer: int, names: Mapping[int, str]) -> None:
        self.out = out
        self.style = style
        self.viewer = viewer
        self.names = names
        self.hand: Hand | None = None
        self._seen = 0

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def who(self, seat: int) -> str:
        """``You`` or ``Bot 3 (seat 4)``."""
        return "You" if seat == self.viewer else f"{self.names[seat]} (seat {seat})"

    def conj(self, seat: int, verb: str) -> str:
        """The verb for this seat: ``call`` for you, ``calls`` for another."""
        if seat == self.viewer:
            return verb
        return {"have": "has", "are": "is"}.get(verb, verb + "s")

    def does(self, seat: int, verb: str, rest: str = "") -> str:
        """``Bot 3 (seat 4) shows ...`` / ``You show ...``."""
        return f"{self.who(seat)} {self.conj(seat, verb)}{rest}"

    # ----------------------------------------------------------------- hands
    def start(self, hand: Hand) -> None:
        """Follow a new hand."""
        self.hand = hand
        self._seen = 0

    def show_table(self) -> None:
        """Every seat's cards as the viewer sees them, the stacks and the pot."""
        hand = self.hand
        assert hand is not None
        view = hand.view(self.viewer)
        for sv in view.seats:
            name = "You" if sv.seat == self.viewer else self.names[sv.seat]
            cards = cards_text(sv, self.style)
            note = ""
            if sv.folded:
                note = "  folded"
            elif sv.all_in:
                note = "  all-in"
            elif sv.seat == hand.to_act:
                note = "  to act"
            pad = 26 + len(cards) - visible_width(cards)
            line = f"  Seat {sv.seat}  {name:<7} {cards:<{pad}} stack {sv.stack:>5}{note}"
            self.say(self.style.dim(line) if sv.folded else line)
        if view.community_card is not None:
            self.say(f"  Community card: {self.style.card(view.community_card)}")
        self.say(f"  Pot {view.pot}")

    def show_new_events(self) -> None:
        """Say what happened in the hand since the last call."""
        hand = self.hand
        assert hand is not None
        events = hand.events[self._seen :]
        self._seen = len(hand.events)
        pending_table = False
        awards_said = False
        antes: list[AntePosted] = []
        for raw in events:
            e = visible_event(raw, self.viewer)
            if isinstance(e, (CardDealt, CommunityCardDealt)):
                continue  # the table shows them once the street is dealt
            if pending_table:
                self.show_table()
                pending_table = False
            if isinstance(e, AntePosted):
                antes.append(e)
                continue
            if antes:
                self._say_antes(antes)
                antes = []
            if isinstance(e, StreetStarted):
                self.say(self.style.bold(f"--- {STREET_NAMES[e.street]} ---"))
                pending_table = True
            elif isinstance(e, PotAwarded):
                if not awards_said:  # the awards come all together: say them once
                    awards_said = True
                    self._say_result()
            else:
                line = self.describe(e)
                if line:
                    self.say(line)
        if pending_table:
            self.show_table()

    def _say_antes(self, antes: list[AntePosted]) -> None:
        if len({a.amount for a in antes}) == 1:
            self.say(f"Everyone antes {antes[0].amount}.")
        else:
            self.say("Antes: " + ", ".join(f"{self.who(a.seat)} {a.amount}" for a in antes))
        for a in antes:
            if a.all_in:
                self.say(self.does(a.seat, "are", " all-in for the ante."))

    def describe(self, e: Event) -> str:
        """One event as a line of text ('' for an event not worth a line)."""
        hand = self.hand
        assert hand is not None
        game = hand.rules.game
        if isinstance(e, ActionOpened):
            up = hand.up_cards(e.seat)
            if e.street == 3:  # the lowest card brings in; in Razz the highest (RULES.md 8)
                card = "high" if game is Game.RAZZ else "low"
                return self.does(e.seat, "have", f" the {card} card ({up[0]}) and must bring in.")
            showing = razz_showing(up) if game is Game.RAZZ else describe_up_cards(up).lower()
            return self.does(e.seat, "act", f" first ({showing} showing).")
        if isinstance(e, (BringInPosted, Completed, BetMade, Raised, Called)):
            if isinstance(e, BringInPosted):
                verb, rest = "bring", f" in {e.amount}"
            elif isinstance(e, Completed):
                verb, rest = "complete", f" to {e.to}"
            elif isinstance(e, BetMade):
                verb, rest = "bet", f" {e.to}"
            elif isinstance(e, Raised):
                verb, rest = "raise", f" to {e.to}"
            else:
                verb, rest = "call", f" {e.adds}"
            if e.all_in:
                rest += f" and {self.conj(e.seat, 'are')} all-in"
            return f"{self.who(e.seat)}: {self.conj(e.seat, verb)}{rest}"
        if isinstance(e, Checked):
            return f"{self.who(e.seat)}: {self.conj(e.seat, 'check')}"
        if isinstance(e, Folded):
            return f"{self.who(e.seat)}: {self.conj(e.seat, 'fold')}"
        if isinstance(e, UncalledBetReturned):
            return f"{e.amount} uncalled returned to {self.who(e.seat)}."
        if isinstance(e, HandShown):
            sv = hand.view(self.viewer).seat(e.seat)
            if game is Game.STUD_HIGH:
                value = str(e.high)
            elif game is Game.RAZZ:
                value = str(e.low)  # the razz low is the hand that plays
            else:
                value = f"{e.high}; {e.low if e.low is not None else 'no low'}"
            return self.does(e.seat, "show", f" {cards_text(sv, self.style)}: {value}")
        if isinstance(e, HandMucked):
            return self.does(e.seat, "muck", ".")
        if isinstance(e, RakeTaken):
            return f"Rake: {e.amount}"
        if isinstance(e, HandEnded):
            return self._stacks_line(dict(e.stacks))
        return ""

    def _say_result(self) -> None:
        """Who won which half of each pot, and how much (side pots first)."""
        hand = self.hand
        assert hand is not None and hand.result is not None
        result = hand.result
        pots = sorted(result.pots, key=lambda r: r.index, reverse=True)
        for pr in pots:
            if len(pots) == 1:
                name = "the pot"
            else:
                name = "the main pot" if pr.index == 0 else f"side pot {pr.index}"
            if not result.showdown or len(pr.eligible) == 1:
                for seat, chips in pr.high:
                    self.say(self.does(seat, "win", f" {name} ({chips})"))
                continue
            game = hand.rules.game
            if game is not Game.STUD_HI_LO:  # one hand takes the pot: the best high, or low
                best = "low" if game is Game.RAZZ else "high"
                self.say(f"The best {best} hand takes {name} ({pr.amount}).")
                self._say_wins(pr.high, pr.low_value if game is Game.RAZZ else pr.high_value)
                continue
            if not pr.low:
                self.say(
                    f"No qualifying low: the best high hand takes all of {name} ({pr.amount})."
                )
                self._say_wins(pr.high, pr.high_value)
                continue
            self.say(f"High half of {name}: {sum(c for _, c in pr.high)}")
            self._say_wins(pr.high, pr.high_value)
            self.say(f"Low half of {name}: {sum(c for _, c in pr.low)}")
            self._say_wins(pr.low, pr.low_value)

    def _say_wins(self, shares: Sequence[tuple[int, int]], value: object) -> None:
        tie = " (tie)" if len(shares) > 1 else ""
        for seat, chips in shares:
            self.say("  " + self.does(seat, "win", f" {chips} with {value}{tie}"))

    def _stacks_line(self, stacks: dict[int, int]) -> str:
        hand = self.hand
        parts = [
            f"{'You' if seat == self.viewer else self.names[seat]} {chips}"
            for seat, chips in sorted(stacks.items())
        ]
        line = "Stacks: " + ", ".join(parts)
        if hand is not None and hand.result is not None and self.viewer in hand.result.stacks:
            won = hand.result.winnings[self.viewer]
            if won > 0:
                line += "\n" + self.style.good(f"You won {won} this hand.")
            elif won < 0:
                line += f"\nYou lost {-won} this hand."
        return line
