"""Replay a PokerStars hand through the engine and check that it reproduces.

:func:`verify_pokerstars` takes the table rules from the file (the ante and the
bring-in as posted, the small and big bet from the stakes), builds a deck from
the cards the file shows (cards nobody saw are filled in with cards seen
nowhere), replays every action through the engine, and checks that:

- every action is legal at that moment, by the player the engine has to act
  (so the bring-in is the right player and the right player acts first on each
  street), with the amounts and all-in flags the file writes;
- the uncalled bets returned and the total pot are the file's;
- every amount collected (main and side pots, high and low halves, odd chips)
  is what the engine pays, computed from the hands shown down only (a player who
  mucked or did not show concedes: the cards filled in for him win nothing), with
  the rake taken as the file records it.

A :class:`Verdict` says reproduced or not, and where the hand departs:
``hand 35874487284: 4th street: expected gashpor to act first, the file has
denny501``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from stud8.core.actions import Action, ActionKind, Bet, BringIn, Call, Check, Complete, Fold, Raise
from stud8.core.cards import CARDS, Card, Deck
from stud8.core.errors import Stud8Error
from stud8.core.evaluate import HighValue, LowValue, RazzValue, best_razz_low, evaluate_hi_lo
from stud8.core.events import (
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    Completed,
    Raised,
    UncalledBetReturned,
)
from stud8.core.hand import Hand, HandSetup
from stud8.core.pots import Pot, build_pots, settle_pot, settle_razz_pot
from stud8.core.rules import Game, OddChipHalf, TableRules, TimeoutPolicy
from stud8.core.showdown import high_only, odd_chip_keys
from stud8.formats.concede import weakest_fill
from stud8.formats.pokerstars import PokerStarsHand, PSAction, ReadError, Skipped
from stud8.formats.pokerstars.read import read_file
from stud8.formats.pokerstars.rules import game_of, pokerstars_rules, timeout_policy_of
from stud8.formats.pokerstars.write import CURRENCY_SYMBOLS, format_money, pot_name

__all__ = [
    "Verdict",
    "pokerstars_deck",
    "pokerstars_rules",
    "timeout_policy_of",
    "verify_file",
    "verify_pokerstars",
]

_STREET = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}
_BETS = (BringInPosted, Called, Completed, BetMade, Raised)
_CHECK, _FOLD, _CALL, _BRING_IN = Check(), Fold(), Call(), BringIn()
_K_CALL, _K_BRING_IN, _K_COMPLETE = ActionKind.CALL, ActionKind.BRING_IN, ActionKind.COMPLETE
_TIMEOUT_VERBS = {"fold": "folds", "check": "checks", "bring_in": "brings in"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a hand reproduces; if not, ``problems`` say where (the first is
    where the replay departs from the file). ``hand`` is the engine's replay."""

    hand_id: str
    file: str
    line: int
    reproduced: bool
    problems: tuple[str, ...] = ()
    hand: Hand | None = field(default=None, compare=False, repr=False)
    #: For each action of the file, how many of the replay's events came before it.
    action_events: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        if self.reproduced:
            return f"hand {self.hand_id}: reproduced"
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"hand {self.hand_id}: {self.problems[0]}{more}"


class _Mismatch(Exception):
    """Where the replay departs from the file (inside the verifier)."""


def _folded_on(hand: PokerStarsHand) -> dict[int, int]:
    out: dict[int, int] = {}
    for a in hand.actions:
        if a.verb == "folds" and a.seat not in out:
            out[a.seat] = a.street
    return out


def pokerstars_deck(hand: PokerStarsHand) -> Deck:
    """A deck that deals every card the file shows where the file shows it; the
    cards nobody saw are filled in, in order, with cards seen nowhere.

    Raises :class:`~stud8.core.errors.Stud8Error` if the file's cards contradict
    each other (a card dealt twice, a shown hand that is not the one dealt).
    """
    try:
        return _deck(hand, hand.dealt_in, _folded_on(hand))
    except _Mismatch as e:
        raise Stud8Error(str(e)) from None


def _deck(hand: PokerStarsHand, seats: tuple[int, ...], folded_on: dict[int, int]) -> Deck:
    # Card codes (0..51), -1 for a card nobody saw: integers keep this fast.
    known: dict[int, list[int]] = {s: [-1] * 7 for s in seats}
    community = hand.community
    for d in hand.deals:
        s = d.street
        row = known.get(d.seat)
        if row is None:
            raise _Mismatch(f"{hand.name(d.seat)} is dealt cards but not dealt in on 3rd street")
        cards = d.cards
        if s == 3:
            k = 3 - len(cards)
        else:
            if folded_on.get(d.seat, 8) < s:
                raise _Mismatch(f"{_STREET[s]}: the file deals to {hand.name(d.seat)}, who folded")
            if len(cards) == s - 1:  # the player's own line: all his cards so far
                k = 0
            elif len(cards) == s - 3:  # another player's line: his up cards so far
                k = 2
            else:
                raise _Mismatch(f"{_STREET[s]}: cannot place the cards of line {d.line}")
            if d.new and not (s == 7 and community is not None):
                cards = (*cards, d.new[0])  # the card of this street, slot s - 1
        for card in cards:
            code = card.code
            old = row[k]
            if old < 0:
                row[k] = code
            elif old != code:
                what = "is dealt" if s == 3 else f"on {_STREET[s]} holds"
                raise _Mismatch(
                    f"{hand.name(d.seat)} {what} {card}, but {CARDS[old]} was dealt there"
                )
            k += 1
    shown = [(sh.seat, sh.cards) for sh in hand.shows]
    shown += [(sm.seat, sm.cards) for sm in hand.summary if sm.cards]
    for seat, cards in shown:
        row = known.get(seat)
        own = [c for c in cards if c != community] if community is not None else cards
        # At the showdown all his cards; shown of his own accord (after an
        # uncontested pot, or after folding), the cards he holds, in order.
        if row is None or not 0 < len(own) <= (6 if community is not None else 7):
            raise _Mismatch(f"{hand.name(seat)} shows {len(cards)} cards")
        held = max((d.street for d in hand.deals if d.seat == seat), default=3)
        if len(own) < min(held, 6 if community is not None else 7):
            # some of his cards: each is one he holds, or one of his unseen ones
            for card in own:
                if card.code in row[:held]:
                    continue
                free = next((k for k in range(held) if row[k] < 0), None)
                if free is None:
                    raise _Mismatch(f"{hand.name(seat)} shows {card}, not a card he holds")
                row[free] = card.code
            continue
        for k, card in enumerate(own):
            old = row[k]
            if old < 0:
                row[k] = card.code
            elif old != card.code:
                raise _Mismatch(f"{hand.name(seat)} shows {card}, but {CARDS[old]} was dealt there")

    if hand.showdown:
        _fill_conceded(hand, known, {seat for seat, _ in shown}, folded_on)
    order: list[int] = []
    for slot in (0, 1, 2):
        order.extend(known[s][slot] for s in seats)
    for street in (4, 5, 6):
        order.extend(known[s][street - 1] for s in seats if folded_on.get(s, 8) >= street)
    seventh = [s for s in seats if folded_on.get(s, 8) >= 7]
    if len(seventh) > 52 - len(order):
        order.append(-1 if community is None else community.code)
    else:
        order.extend(known[s][6] for s in seventh)
    used = [c for c in order if c >= 0]
    taken = set(used)
    if len(taken) != len(used):
        twice = next(c for c in used if used.count(c) > 1)
        raise _Mismatch(f"the card {CARDS[twice]} is dealt twice")
    spare = iter([c for c in range(52) if c not in taken])
    codes = [c if c >= 0 else next(spare) for c in order]
    codes.extend(spare)
    # A permutation of the 52 cards by construction: no need to check it again.
    deck = object.__new__(Deck)
    object.__setattr__(deck, "cards", tuple([CARDS[c] for c in codes]))
    return deck


def _fill_conceded(
    hand: PokerStarsHand, known: dict[int, list[int]], shown: set[int], folded_on: dict[int, int]
) -> None:
    """Give the players who reached the showdown and did not show their hand (they
    conceded) the weakest cards left for their unknown places, so that the replay
    pays them nothing (see :mod:`stud8.formats.concede`)."""
    community = hand.community
    used = {c for row in known.values() for c in row if c >= 0}
    if community is not None:
        used.add(community.code)
    for seat, row in known.items():
        if seat in shown or seat in folded_on or all(c >= 0 for c in row):
            continue
        own = row[:6] if community is not None else row
        spare = [CARDS[c] for c in range(52) if c not in used]
        cards = [CARDS[c] if c >= 0 else None for c in own]
        fill = iter(weakest_fill(cards, spare, community, game=game_of(hand)))
        for k, c in enumerate(own):
            if c < 0:
                row[k] = next(fill).code
                used.add(row[k])


def verify_pokerstars(hand: PokerStarsHand, *, rules: TableRules | None = None) -> Verdict:
    """Replay the hand through the engine (with ``rules``, or the rules the file
    implies) and check it against the file; see the module's description.

    A hand with a timeout whose rule the file leaves open (a fold is what both of
    stud8's timeout rules may give) that does not reproduce under the rule read
    from the file is tried under the other one; the first verdict stands if
    neither reproduces."""
    verdict = _Verifier(hand, rules).run()
    if verdict.reproduced or rules is not None:
        return verdict
    if not any(a.verb == "timed out" for a in hand.actions):
        return verdict
    try:
        first = pokerstars_rules(hand)
    except Stud8Error:
        return verdict
    other = (
        TimeoutPolicy.ALL_IN_PROTECTION
        if first.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD
        else TimeoutPolicy.CHECK_OR_FOLD
    )
    again = _Verifier(hand, pokerstars_rules(hand, other)).run()
    return again if again.reproduced else verdict


def verify_file(path: str | Path) -> list[Verdict | Skipped | ReadError]:
    """Read a PokerStars file and verify every hand of the Stud family in it (Stud
    Hi/Lo, Seven Card Stud, Razz), in order."""
    return [
        h if isinstance(h, (Skipped, ReadError)) else verify_pokerstars(h) for h in read_file(path)
    ]


def verify_items(
    items: Iterable[PokerStarsHand | Skipped | ReadError],
) -> list[Verdict | Skipped | ReadError]:
    """Verify what a reader gave (skipped hands and read errors pass through)."""
    return [h if isinstance(h, (Skipped, ReadError)) else verify_pokerstars(h) for h in items]


class _Verifier:
    def __init__(self, ps: PokerStarsHand, rules: TableRules | None) -> None:
        self.ps = ps
        self.rules = rules
        self.symbol = CURRENCY_SYMBOLS.get(ps.currency, "$") if ps.cents else None
        self.hand: Hand | None = None
        self.seats: tuple[int, ...] = ()
        self.starts: list[int] = []

    def m(self, amount: int | None) -> str:
        return format_money(amount or 0, self.symbol)

    def verdict(self, problems: list[str]) -> Verdict:
        ps = self.ps
        return Verdict(
            ps.hand_id,
            ps.file,
            ps.line,
            not problems,
            tuple(problems),
            self.hand,
            tuple(self.starts),
        )

    def run(self) -> Verdict:
        try:
            self._replay()
            return self.verdict(self._settle())
        except _Mismatch as e:
            return self.verdict([str(e)])
        except Stud8Error as e:  # e.g. a shown hand the evaluator refuses
            return self.verdict([f"cannot verify the hand: {e}"])

    # ------------------------------------------------------------ replay
    def _replay(self) -> None:
        ps = self.ps
        seats = self.seats = ps.dealt_in
        if len(seats) < 2:
            raise _Mismatch(f"{len(seats)} player(s) dealt in on 3rd street")
        try:
            rules = self.rules or pokerstars_rules(ps)
        except Stud8Error as e:
            raise _Mismatch(f"the table rules from the file are not valid: {e}") from None
        deck = _deck(ps, seats, _folded_on(ps))
        stacks = {s.seat: s.stack for s in ps.seats}
        try:
            setup = HandSetup(
                rules=rules,
                stacks=tuple((s, stacks[s]) for s in seats),
                deck=deck,
                hand_id=ps.hand_id,
            )
            hand = self.hand = Hand(setup)
        except (Stud8Error, KeyError) as e:
            raise _Mismatch(f"the hand cannot start: {e}") from None
        antes = {e.seat: (e.amount, e.all_in) for e in hand.events if type(e) is AntePosted}
        for ante in ps.antes:
            if antes.get(ante.seat) != (ante.amount, ante.all_in):
                ours = antes.get(ante.seat, (0, False))
                raise _Mismatch(
                    f"antes: {ps.name(ante.seat)} posts {self.m(ante.amount)}"
                    f"{_allin(ante.all_in)} in the file, {self.m(ours[0])}{_allin(ours[1])} "
                    "in stud8"
                )
        if rules.ante and len(ps.antes) != len(antes):
            raise _Mismatch(f"antes: {len(ps.antes)} in the file, {len(antes)} in stud8")
        actions = ps.actions
        i, n = 0, len(actions)
        opened = 2  # the street whose first action has been seen
        starts = self.starts
        while i < n:
            a = actions[i]
            del starts[i:]
            starts.append(len(hand.events))
            if hand.to_act != a.seat or hand.street != a.street:
                self._out_of_turn(hand, a, opened != a.street)
            opened = a.street
            verb = a.verb
            if verb == "checks":
                action: Action = _CHECK
            elif verb == "folds":
                action = _FOLD
            elif verb == "timed out":
                i = self._time_out(hand, a, i)
                continue
            else:
                action = self._action(hand, a)
            try:
                events = hand.apply(action)
            except Stud8Error as e:
                raise _Mismatch(
                    f"{_STREET[a.street]}: {self._say(a)} is not legal in stud8: {e}"
                ) from None
            first = events[0]
            if type(first) in _BETS and first.all_in != a.all_in:  # type: ignore[attr-defined]
                said = "all-in" if a.all_in else "not all-in"
                raise _Mismatch(
                    f"{_STREET[a.street]}: {self._say(a)} is {said} in the file, not in stud8"
                )
            i += 1
        if not hand.is_over:
            raise _Mismatch(
                f"{_STREET[hand.street]}: the file's betting ends, stud8 waits for "
                f"{ps.name(hand.to_act or 0)}"
            )

    def _out_of_turn(self, hand: Hand, a: PSAction, first: bool) -> None:
        """Say why the file's next action is not the engine's (it raises)."""
        ps = self.ps
        where = _STREET[a.street]
        if hand.is_over:
            raise _Mismatch(f"{where}: the hand is over in stud8, the file has {self._say(a)}")
        if hand.street < a.street:
            raise _Mismatch(
                f"{_STREET[hand.street]}: the file ends the betting, stud8 waits for "
                f"{ps.name(hand.to_act or 0)}"
            )
        if hand.street > a.street:
            raise _Mismatch(
                f"{where}: stud8 has dealt {_STREET[hand.street]} already, "
                f"the file has {self._say(a)}"
            )
        to_act = hand.to_act
        expected = ps.name(to_act) if to_act is not None else "nobody"
        if first and a.street == 3:
            doing = "to bring in"
        elif first:
            doing = "to act first"
        else:
            doing = "to act"
        raise _Mismatch(f"{where}: expected {expected} {doing}, the file has {ps.name(a.seat)}")

    def _say(self, a: PSAction) -> str:
        name = self.ps.name(a.seat)
        if a.verb == "raises":
            return f"{name} raises {self.m(a.amount)} to {self.m(a.to)}"
        if a.amount is not None:
            return f"{name} {a.verb} {'for ' if a.verb == 'brings in' else ''}{self.m(a.amount)}"
        return f"{name} {a.verb}"

    def _action(self, hand: Hand, a: PSAction) -> Action:
        """The engine's action for a call, bring-in, bet or raise of the file."""
        legal = hand.legal_actions()
        verb = a.verb
        if verb == "calls":
            for la in legal:
                if la.kind is _K_CALL and la.adds != a.amount:
                    raise _Mismatch(
                        f"{_STREET[a.street]}: {self._say(a)} in the file, the call is "
                        f"{self.m(la.adds)} in stud8"
                    )
            return _CALL
        if verb == "brings in":
            for la in legal:
                if la.kind is _K_BRING_IN and la.adds != a.amount:
                    raise _Mismatch(
                        f"{_STREET[a.street]}: {self._say(a)} in the file, the bring-in is "
                        f"{self.m(la.adds)} in stud8"
                    )
            return _BRING_IN
        kinds = {la.kind for la in legal}
        assert a.amount is not None
        if verb == "bets":
            if ActionKind.BET not in kinds and {_K_COMPLETE, _K_BRING_IN} <= kinds:
                return Complete(to=a.amount)  # the low card completes instead of bringing in
            return Bet(to=a.amount)  # (if not legal, the engine says why)
        assert a.to is not None
        if a.amount != a.to - hand.current_bet:
            raise _Mismatch(
                f"{_STREET[a.street]}: {self._say(a)} in the file, but the bet to raise is "
                f"{self.m(hand.current_bet)} in stud8"
            )
        if _K_COMPLETE in kinds:
            return Complete(to=a.to)
        return Raise(to=a.to)

    def _time_out(self, hand: Hand, a: PSAction, i: int) -> int:
        """The player ran out of time: the engine applies the timeout rule; the
        file's next line (his fold, check or bring-in) is what it did."""
        ps = self.ps
        events = hand.time_out()
        outcome = next((e.outcome for e in events if hasattr(e, "outcome")), "")
        verb = _TIMEOUT_VERBS.get(outcome)
        if verb is None:
            return i + 1
        nxt = ps.actions[i + 1] if i + 1 < len(ps.actions) else None
        if nxt is None or nxt.seat != a.seat or nxt.verb != verb:
            said = self._say(nxt) if nxt is not None else "nothing"
            raise _Mismatch(
                f"{_STREET[a.street]}: {ps.name(a.seat)} timed out and stud8 {verb}, "
                f"the file has {said}"
            )
        self.starts.append(self.starts[-1])  # the action the timeout made
        return i + 2

    # ------------------------------------------------------------ settle
    def _settle(self) -> list[str]:
        ps, hand = self.ps, self.hand
        assert hand is not None
        problems: list[str] = []
        seats = self.seats
        ours_back = sorted(
            (e.seat, e.amount) for e in hand.events if type(e) is UncalledBetReturned
        )
        if ours_back != sorted(ps.uncalled):
            problems.append(
                f"uncalled bets: the file returns {self._list(sorted(ps.uncalled))}, "
                f"stud8 returns {self._list(ours_back)}"
            )
        contributions = {s: hand.contributed(s) for s in seats}
        total = sum(contributions.values())
        if total != ps.total_pot:
            problems.append(
                f"total pot: the file has {self.m(ps.total_pot)}, stud8 {self.m(total)}"
            )
        live = frozenset(s for s in seats if not hand.is_folded(s))
        result = hand.result
        if result is not None and result.showdown != ps.showdown:
            problems.append(
                "the file goes to a showdown, stud8 does not"
                if ps.showdown
                else "stud8 goes to a showdown, the file does not"
            )
        pots = build_pots(contributions, live)
        count = len(pots)
        nets: tuple[int, ...]
        if ps.pots:
            nets = ps.pots
            if len(nets) != count:
                problems.append(f"pots: the file has {len(nets)}, stud8 makes {count}")
                return problems
            if sum(nets) + ps.rake != ps.total_pot:
                problems.append(
                    f"pots: the file's pots ({', '.join(self.m(x) for x in nets)}) and rake "
                    f"({self.m(ps.rake)}) do not make its total pot {self.m(ps.total_pot)}"
                )
        elif count == 0 and ps.total_pot == ps.rake == 0:  # nothing was put in
            nets = ()
        else:
            nets = (ps.total_pot - ps.rake,)
            if count != 1:
                problems.append(f"pots: the file has one pot, stud8 makes {count}")
                return problems
        for index, (pot, net) in enumerate(zip(pots, nets, strict=True)):
            if net > pot.amount or net < 0:
                problems.append(
                    f"{pot_name(index, count)}: the file has {self.m(net)} after the rake, "
                    f"stud8 {self.m(pot.amount)} before it"
                )
        values: dict[int, tuple[HighValue, LowValue | None]] = {}
        razz: dict[int, RazzValue] = {}
        own: dict[int, list[Card]] = {}
        game = hand.rules.game
        # by the game (RULES.md 8): hi/lo 8 or better, high only, or the razz low
        evaluate = high_only if game is Game.STUD_HIGH else evaluate_hi_lo
        # Shown down: a "shows" line, or a summary line "showed [...] and won/lost".
        # Only the hands shown down contend: not a hand shown when the pot was
        # uncontested, nor one mucked and shown afterwards (he conceded).
        shown = [(sh.seat, sh.cards) for sh in ps.shows] if ps.showdown else []
        shown += [
            (sm.seat, sm.cards)
            for sm in ps.summary
            if sm.outcome in ("won", "lost") and ps.showdown
        ]
        for seat, cards in shown:
            if seat in live and seat not in values and seat not in ps.mucks:
                values[seat] = evaluate(cards)
                if game is Game.RAZZ:
                    razz[seat] = best_razz_low(cards)
                own[seat] = [c for c in cards if c != ps.community]
        hi_key, lo_key = odd_chip_keys(
            hand.rules.odd_chip, own, ps.community, razz=game is Game.RAZZ
        )
        to_low = hand.rules.odd_chip_half is OddChipHalf.LOW
        ours: dict[tuple[int, int], int] = {}
        for index, (pot, net) in enumerate(zip(pots, nets, strict=True)):
            contenders = tuple(s for s in pot.eligible if s in values)
            if not contenders:
                if len(pot.eligible) == 1:
                    ours[(index, pot.eligible[0])] = net
                else:
                    problems.append(f"{pot_name(index, count)}: nobody shows a hand for it")
                continue
            if game is Game.RAZZ:
                settled = settle_razz_pot(index, Pot(net, contenders), razz, lo_key)
            else:
                settled = settle_pot(
                    index, Pot(net, contenders), values, hi_key, lo_key, odd_chip_to_low=to_low
                )
            for seat, chips in (*settled.high, *settled.low):
                if chips:
                    ours[(index, seat)] = ours.get((index, seat), 0) + chips
        site: dict[tuple[int, int], int] = {}
        for c in ps.collected:
            site[(c.pot, c.seat)] = site.get((c.pot, c.seat), 0) + c.amount
        for pot_index, seat in sorted(set(ours) | set(site)):
            paid, pays = site.get((pot_index, seat), 0), ours.get((pot_index, seat), 0)
            if paid != pays:
                where = pot_name(pot_index, count) if pot_index < count else f"side pot-{pot_index}"
                problems.append(
                    f"{where}: site paid {ps.name(seat)} {self.m(paid)}, stud8 pays {self.m(pays)}"
                )
        won: dict[int, int] = {}
        for (_, seat), chips in ours.items():
            won[seat] = won.get(seat, 0) + chips
        for sm in ps.summary:
            if sm.outcome in ("won", "collected", "lost", "mucked", "folded"):
                said = sm.won or 0
                if said != won.get(sm.seat, 0):
                    problems.append(
                        f"summary: the file says {ps.name(sm.seat)} won {self.m(said)}, "
                        f"stud8 pays {self.m(won.get(sm.seat, 0))}"
                    )
        return problems

    def _list(self, pairs: list[tuple[int, int]]) -> str:
        if not pairs:
            return "nothing"
        return ", ".join(f"{self.m(x)} to {self.ps.name(s)}" for s, x in pairs)


def _allin(flag: bool) -> str:
    return " all-in" if flag else ""
