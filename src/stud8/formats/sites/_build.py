"""Build a :class:`~stud8.formats.pokerstars.PokerStarsHand` from another site's hand.

Every site's reader walks its own text and tells a :class:`HandBuilder` what
happened in poker terms: who sits where with what, who antes, which card lands in
which of a player's seven slots, who brings in, bets, raises, calls, checks or
folds, what is shown and who collects what. The builder keeps the betting
state, so a reader may give amounts the way its site writes them (what a player
adds, or the total he raises to) and the builder writes them the way the
PokerStars hand says them (``raises X to Y``, all-in flags from the stacks).

What a site does not write, the builder works out (each reader's description
says which): the total pot from the bets, the rake from the total and the
amounts collected, the side pots from the bets (the rake from the main pot
first, as the engine takes it), an uncalled bet. Up cards nobody saw are filled in with
cards seen nowhere, chosen so that the record's bring-in and openers can be
right (the verifier then checks the hand against those); a card is never
invented where the site shows one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from stud8.core.cards import CARDS, Card
from stud8.core.pots import build_pots, take_rake
from stud8.core.rules import Game
from stud8.core.streets import up_key_for
from stud8.formats.pokerstars import (
    BadLine,
    PokerStarsHand,
    PSAction,
    PSAnte,
    PSCollect,
    PSDeal,
    PSNote,
    PSSeat,
    PSShow,
)

__all__ = ["HI_LO", "HandBuilder"]

HI_LO = "7 Card Stud Hi/Lo"
_GAMES = {HI_LO: Game.STUD_HI_LO, "7 Card Stud": Game.STUD_HIGH, "Razz": Game.RAZZ}


def _brings_in_before(game: Game) -> Callable[[Card], int]:
    """The order of third-street up cards for the bring-in, the one who brings in
    first: the lowest card (ace high, suits clubs to spades), in razz the highest
    (ace low), as the engine finds him (RULES.md 3, 8)."""
    if game is Game.RAZZ:
        return lambda c: -(c.low_rank * 4 + c.suit_index)
    return lambda c: c.code


class HandBuilder:
    """One hand of another site, told step by step (see the module's description)."""

    def __init__(self, *, file: str, line: int, hand_id: str) -> None:
        self.file = file
        self.line = line
        self.hand_id = hand_id
        # the header
        self.game = HI_LO  # as PokerStars names it: HI_LO, "7 Card Stud" or "Razz"
        self.small_bet = 0
        self.big_bet = 0
        self.currency = ""
        self.tournament = ""
        self.buy_in = ""
        self.level = ""
        self.mixed = ""
        self.structure = "Limit"
        self.table = ""
        self.max_seats = 8
        self.date = ""
        # the hand
        self.seats: dict[int, PSSeat] = {}
        self.by_name: dict[str, int] = {}
        self.dealt_in: set[int] = set()
        self.slots: dict[int, list[Card | None]] = {}
        self.antes: list[PSAnte] = []
        self.actions: list[PSAction] = []
        self.shows: list[PSShow] = []
        self.mucks: list[int] = []
        self.collected: list[PSCollect] = []
        self.uncalled: list[tuple[int, int]] = []
        self.total: int | None = None
        self.rake: int | None = None
        self.pots: tuple[int, ...] = ()
        self.showdown: bool | None = None
        self.street = 3
        self.hero: int | None = None
        # the betting state
        self.left: dict[int, int] = {}
        self.put_in: dict[int, int] = {}  # over the whole hand, antes apart
        self.street_in: dict[int, int] = {}
        self.current = 0
        self.folded: set[int] = set()
        self.filled_in: list[tuple[int, int]] = []
        # the table's lines that are no part of the play (see note)
        self.notes: list[PSNote] = []
        self.ended = False  # the play is over: the showdown or the summary is read

    # ------------------------------------------------------------- seats
    def seat(
        self, seat: int, name: str, stack: int, line: int, *, sitting_out: bool = False
    ) -> None:
        if seat in self.seats or name in self.by_name:
            raise BadLine(line, f"seat {seat} ({name}) is listed twice")
        if not 0 <= seat <= 10:
            raise BadLine(line, f"no seat {seat} at a Stud table")
        self.seats[seat] = PSSeat(seat, name, stack, sitting_out)
        self.by_name[name] = seat
        self.left[seat] = stack
        self.put_in[seat] = 0

    def seat_of(self, name: str, line: int) -> int:
        seat = self.by_name.get(name)
        if seat is None:
            raise BadLine(line, f"{name!r} is not seated at the table")
        return seat

    def check_seat(self, seat: int, line: int) -> int:
        if seat not in self.seats:
            raise BadLine(line, f"nobody sits in seat {seat}")
        return seat

    # -------------------------------------------------------------- money
    def _pay(self, seat: int, amount: int, line: int) -> bool:
        """Take ``amount`` from the seat's stack; whether it is now all-in."""
        if amount < 0:
            raise BadLine(line, f"a negative amount ({amount})")
        left = self.left[seat] - amount
        if left < 0:
            raise BadLine(
                line,
                f"{self.seats[seat].name} puts in {amount}, more than the {self.left[seat]} left",
            )
        self.left[seat] = left
        return left == 0

    def ante(self, seat: int, amount: int, line: int) -> None:
        all_in = self._pay(seat, amount, line)
        self.antes.append(PSAnte(seat, amount, all_in, line))
        self.dealt_in.add(seat)

    # -------------------------------------------------------------- cards
    def card(self, seat: int, slot: int, card: Card | None, line: int) -> None:
        """The card in the seat's slot (0 to 6: down, down, up x4, down); None: unseen."""
        self.dealt_in.add(seat)
        row = self.slots.setdefault(seat, [None] * 7)
        if card is None:
            return
        old = row[slot]
        if old is not None and old != card:
            raise BadLine(line, f"{self.seats[seat].name} holds {old} there, not {card}")
        row[slot] = card

    def cards(self, seat: int, cards: Iterable[Card | None], line: int, first: int = 0) -> None:
        for k, c in enumerate(cards, start=first):
            if k > 6:
                raise BadLine(line, "more than seven cards")
            self.card(seat, k, c, line)

    def dealt(self, seat: int, street: int, cards: list[Card | None], line: int) -> None:
        """A player's cards as a street's deal line lists them: all his cards so far,
        his up cards so far (from 3rd street's), or the one card of the street."""
        n = len(cards)
        if n == street:
            self.cards(seat, cards, line)
        elif n == street - 2 and street <= 6:
            self.cards(seat, cards, line, first=2)
        elif n == 1:
            self.card(seat, 2 if street == 3 else street - 1, cards[0], line)
        else:
            raise BadLine(line, f"{n} cards dealt to {self.seats[seat].name} on street {street}")

    def new_street(self, street: int, line: int) -> None:
        if street != self.street + 1 or street > 7:
            raise BadLine(line, f"street {street} is out of order (after {self.street})")
        self.street = street
        self.current = 0
        self.street_in = {}

    def read_so_far(self) -> str:
        """How far the hand's play was read (for a hand cut off): ``after its seats``,
        ``after its antes`` or ``on 5th street``."""
        if not self.antes and not self.slots and not self.actions:
            return "after its seats"
        if not self.actions and not self.slots:
            return "after its antes"
        return f"on {self.street}{'rd' if self.street == 3 else 'th'} street"

    # -------------------------------------------------------- table lines
    def note(self, text: str, line: int) -> None:
        """A line of the table that is no part of the play (chat, a player who joins,
        a notice of the room's), kept where it stands as the PokerStars reader keeps
        its own (:class:`~stud8.formats.pokerstars.PSNote`): before the deal, on a
        street before the next action, or at the end."""
        if self.ended:
            section = "summary"
        elif not self.actions and self.street == 3 and not self.slots:
            section = "seats"
        else:
            section = "streets"
        self.notes.append(
            PSNote(text, section, self.street, len(self.antes), len(self.actions), line)
        )

    # ------------------------------------------------------------ actions
    def _act(self, seat: int, verb: str, amount: int | None, to: int | None, line: int) -> None:
        if seat in self.folded:
            raise BadLine(line, f"{self.seats[seat].name} acts after folding")
        all_in = False
        if amount is not None:
            adds = amount if verb in ("calls", "brings in") else 0
            if verb == "bets" or verb == "raises":
                level = to if to is not None else amount
                adds = level - self.street_in.get(seat, 0)
                self.current = level
            all_in = self._pay(seat, adds, line)
            self.street_in[seat] = self.street_in.get(seat, 0) + adds
            self.put_in[seat] += adds
            if verb == "brings in":
                self.current = max(self.current, self.street_in[seat])
        self.actions.append(PSAction(self.street, seat, verb, amount, to, all_in, line))

    def bring_in(self, seat: int, amount: int, line: int) -> None:
        self._act(seat, "brings in", amount, None, line)

    def raise_to(self, seat: int, to: int, line: int) -> None:
        """A bet, completion or raise to ``to`` on this street."""
        if to <= self.current:
            # short all-in "raise": a call of what is left
            self.call(seat, to - self.street_in.get(seat, 0), line)
        elif self.current == 0:
            self._act(seat, "bets", to, None, line)
        else:
            self._act(seat, "raises", to - self.current, to, line)

    def put(self, seat: int, adds: int, line: int) -> None:
        """The player adds ``adds`` to the pot: a call, bet or raise, as it comes out."""
        level = self.street_in.get(seat, 0) + adds
        if level > self.current:
            self.raise_to(seat, level, line)
        else:
            self._act(seat, "calls", adds, None, line)

    def call(self, seat: int, adds: int | None, line: int) -> None:
        if adds is None:
            adds = min(self.current - self.street_in.get(seat, 0), self.left[seat])
        self._act(seat, "calls", adds, None, line)

    def check(self, seat: int, line: int) -> None:
        self._act(seat, "checks", None, None, line)

    def fold(self, seat: int, line: int) -> None:
        self._act(seat, "folds", None, None, line)
        self.folded.add(seat)

    # ----------------------------------------------------------- the end
    def show(self, seat: int, cards: Iterable[Card], line: int) -> None:
        """The seat shows its hand. Cards a site lists out of the dealt order go to
        the slots they were dealt in; the others fill the unseen slots in order."""
        shown = list(cards)
        row = self.slots.setdefault(seat, [None] * 7)
        known = [c for c in row if c is not None]
        if len(shown) == 7 and all(c in shown for c in known):
            rest = iter([c for c in shown if c not in known])
            merged = [c if c is not None else next(rest) for c in row]
        else:
            merged = shown  # the verifier will say what does not fit
        self.shows.append(PSShow(seat, tuple(merged), "", line))

    def reveal(self, seat: int, cards: Iterable[Card], line: int) -> None:
        """The site lists the cards of a player who did not show them (he concedes):
        they go where they were dealt, and win nothing."""
        shown = list(cards)
        row = self.slots.setdefault(seat, [None] * 7)
        known = [c for c in row if c is not None]
        if len(shown) != 7 or not all(c in shown for c in known):
            raise BadLine(line, f"the cards listed for {self.seats[seat].name} are not his")
        rest = iter([c for c in shown if c not in known])
        row[:] = [c if c is not None else next(rest) for c in row]
        self.dealt_in.add(seat)

    def muck(self, seat: int) -> None:
        self.mucks.append(seat)

    def collect(self, seat: int, amount: int, line: int, pot: int = 0) -> None:
        label = "pot" if pot == 0 else f"side pot-{pot}"
        self.collected.append(PSCollect(seat, amount, pot, label, line))

    def return_uncalled(self, seat: int, amount: int) -> None:
        self.uncalled.append((seat, amount))
        self.left[seat] += amount

    def keep_uncalled_in_wins(self) -> int:
        """For a site that writes no uncalled bet but pays it back inside the pot
        it awards: return the bet and take it off the bettor's collections.
        Returns the amount (0 if there is none)."""
        bet = self.uncalled_bet()
        if bet is None:
            return 0
        seat, amount = bet
        self.return_uncalled(seat, amount)
        left = amount
        for k, c in enumerate(self.collected):
            if c.seat == seat and left:
                take = min(left, c.amount)
                self.collected[k] = replace(c, amount=c.amount - take)
                left -= take
        self.collected = [c for c in self.collected if c.amount]
        return amount

    def uncalled_bet(self) -> tuple[int, int] | None:
        """The bet nobody called at the end (seat, amount), worked out from the bets."""
        live = [s for s in self.dealt_in if s not in self.folded]
        if not live:
            return None
        ins = sorted(((self.put_in[s], s) for s in self.dealt_in), reverse=True)
        if len(ins) < 2 or ins[0][0] == ins[1][0] or ins[0][1] not in live:
            return None
        return ins[0][1], ins[0][0] - ins[1][0]

    # ---------------------------------------------------------- the hand
    def build(self) -> PokerStarsHand:
        if len(self.dealt_in) < 2:
            raise BadLine(self.line, "the hand is truncated: fewer than two players dealt in")
        if not self.actions and not self.collected:
            raise BadLine(self.line, "the hand is truncated: no action")
        total = self.total
        if total is None:
            antes = sum(a.amount for a in self.antes)
            total = antes + sum(self.put_in.values()) - sum(x for _, x in self.uncalled)
        rake = self.rake
        if rake is None:
            rake = max(0, total - sum(c.amount for c in self.collected))
        deals = self._deals()
        live = [s for s in self.dealt_in if s not in self.folded]
        if not self.pots:
            self.pots = self._side_pots(frozenset(live), rake)
        showdown = self.showdown if self.showdown is not None else len(live) > 1
        hand = self._hand(deals, total, rake, showdown)
        if all(1 <= s <= 8 for s in self.seats):
            return hand
        # Seats 0 or 9 and 10 (a ten-seat table's numbers): number them 1 to 8 in
        # the same order round the table, which is all the rules look at.
        new = {old: k for k, old in enumerate(sorted(self.seats), start=1)}
        if len(new) > 8:
            raise BadLine(self.line, f"{len(new)} players at a Stud table")
        return replace(
            hand,
            seats=tuple(replace(p, seat=new[p.seat]) for p in hand.seats),
            hero=new[hand.hero] if hand.hero is not None else None,
            antes=tuple(replace(x, seat=new[x.seat]) for x in hand.antes),
            deals=tuple(replace(x, seat=new[x.seat]) for x in hand.deals),
            actions=tuple(replace(x, seat=new[x.seat]) for x in hand.actions),
            uncalled=tuple((new[s], x) for s, x in hand.uncalled),
            shows=tuple(replace(x, seat=new[x.seat]) for x in hand.shows),
            mucks=tuple(new[s] for s in hand.mucks),
            collected=tuple(replace(x, seat=new[x.seat]) for x in hand.collected),
            filled_in=tuple((new[s], street) for s, street in hand.filled_in),
            _names={new[s]: p.name for s, p in self.seats.items()},
        )

    def _hand(
        self, deals: tuple[PSDeal, ...], total: int, rake: int, showdown: bool
    ) -> PokerStarsHand:
        names = {s: p.name for s, p in self.seats.items()}
        return PokerStarsHand(
            hand_id=self.hand_id,
            file=self.file,
            line=self.line,
            game=self.game,
            structure=self.structure,
            mixed=self.mixed,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            currency=self.currency,
            tournament=self.tournament,
            buy_in=self.buy_in,
            level=self.level,
            table=self.table,
            max_seats=self.max_seats,
            date=self.date,
            seats=tuple(self.seats[s] for s in sorted(self.seats)),
            hero=self.hero,
            antes=tuple(self.antes),
            deals=deals,
            community=None,
            actions=tuple(self.actions),
            uncalled=tuple(self.uncalled),
            showdown=showdown,
            shows=tuple(self.shows),
            mucks=tuple(self.mucks),
            collected=tuple(self.collected),
            total_pot=total,
            pots=self.pots,
            rake=rake,
            summary=(),
            filled_in=tuple(sorted(self.filled_in)),
            notes=tuple(self.notes),
            _names=names,
        )

    def _side_pots(self, live: frozenset[int], rake: int) -> tuple[int, ...]:
        """A site that names no side pots: the pots the bets make, after the rake
        (taken from the main pot first, as the engine takes it); () for one pot."""
        into = {s: self.put_in[s] for s in self.dealt_in}
        for a in self.antes:
            into[a.seat] += a.amount
        for s, x in self.uncalled:
            into[s] -= x
        pots = build_pots(into, live)
        if len(pots) < 2:
            return ()
        return tuple(p.amount for p in take_rake(pots, rake))

    def _last_street(self, seat: int) -> int:
        """The last street dealt to the seat: where he folded, or where the hand ended."""
        for a in self.actions:
            if a.seat == seat and a.verb == "folds":
                return min(a.street, self.street)
        return self.street

    def _deals(self) -> tuple[PSDeal, ...]:
        seats = sorted(self.dealt_in)
        rows = {s: list(self.slots.get(s, [None] * 7)) for s in seats}
        shown = {sh.seat: sh.cards for sh in self.shows if len(sh.cards) == 7}
        for s, held in shown.items():  # the up cards a showdown shows were dealt so
            if s in rows:
                rows[s][2:6] = [
                    c if c is not None else held[k] for k, c in enumerate(rows[s][2:6], 2)
                ]
        self._fill_up_cards(seats, rows)
        out: list[PSDeal] = []
        for street in range(3, 8):
            for s in seats:
                if self._last_street(s) < street:
                    continue
                row = rows[s]
                line = self.line
                if street == 3:
                    if all(c is not None for c in row[:3]):
                        out.append(PSDeal(3, s, tuple(row[:3]), (), line))  # type: ignore[arg-type]
                    elif row[2] is not None:
                        out.append(PSDeal(3, s, (row[2],), (), line))
                    continue
                new = row[street - 1]
                if new is None:
                    continue
                before = row[: street - 1]
                if all(c is not None for c in before):
                    out.append(PSDeal(street, s, tuple(before), (new,), line))  # type: ignore[arg-type]
                elif street <= 6 and all(c is not None for c in before[2:]):
                    out.append(PSDeal(street, s, tuple(before[2:]), (new,), line))  # type: ignore[arg-type]
        return tuple(out)

    def _opener(self, street: int) -> int | None:
        return next((a.seat for a in self.actions if a.street == street), None)

    def _fill_up_cards(self, seats: list[int], rows: dict[int, list[Card | None]]) -> None:
        """Fill the up cards nobody saw so that the record's openers can be right."""
        game = _GAMES[self.game]
        first, up_key = _brings_in_before(game), up_key_for(game)
        used = {c for row in rows.values() for c in row if c is not None}
        used |= {c for sh in self.shows for c in sh.cards}
        spare = [c for c in CARDS if c not in used]
        for street in range(3, 7):
            slot = street - 1
            here = [s for s in seats if self._last_street(s) >= street]
            unknown = [s for s in here if rows[s][slot] is None]
            if not unknown:
                continue
            opener = self._opener(street)
            if street == 3:
                known = [c for s in here if (c := rows[s][2]) is not None]
                floor = min(known, default=None, key=first)
                for s in sorted(unknown, key=lambda s: s != opener):
                    order = sorted(spare, key=first)
                    if s == opener:  # the bring-in: the card left that brings in first
                        pick = order[0]
                    else:  # just after the bring-in's card: as weak as can be later
                        low = rows[opener][2] if opener is not None else floor
                        after = (c for c in order if low is None or first(c) > first(low))
                        pick = next(after, order[-1])
                    rows[s][2] = pick
                    spare.remove(pick)
                    self.filled_in.append((s, 3))
                continue

            def board(s: int, street: int = street) -> tuple[tuple[int, ...], int]:
                cards = [c for c in rows[s][2:street] if c is not None]
                return up_key(cards), -s

            def with_card(s: int, c: Card, slot: int = slot) -> tuple[tuple[int, ...], int]:
                rows[s][slot] = c
                key = board(s)
                rows[s][slot] = None
                return key

            # The others first, each the weakest board a card gives him; then the
            # opener the weakest board that is still the best (a board no stronger
            # than it must be leaves the later streets' openers possible).
            for s in sorted(unknown, key=lambda s: s == opener):
                if s == opener:
                    best = max(
                        (board(o) for o in here if o != s and rows[o][slot] is not None),
                        default=None,
                    )
                    order = sorted(spare, key=lambda c: with_card(s, c))
                    wins = [c for c in order if best is None or with_card(s, c) > best]
                    pick = wins[0] if wins else order[-1]
                else:
                    pick = min(spare, key=lambda c: with_card(s, c))
                rows[s][slot] = pick
                spare.remove(pick)
                self.filled_in.append((s, street))
