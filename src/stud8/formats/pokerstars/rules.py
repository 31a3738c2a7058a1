"""The table rules a PokerStars hand implies, for the verifier (:mod:`stud8.formats.verify`):
the ante and bring-in as posted, the stakes, the game (Stud Hi/Lo, Seven Card Stud or
Razz) and the timeout rule its timeouts show."""

from __future__ import annotations

from stud8.core.rules import BettingStructure, Game, TableRules, TimeoutPolicy
from stud8.formats.pokerstars import PokerStarsHand, PSAction
from stud8.formats.pokerstars.write import GAME_NAMES

__all__ = ["game_of", "pokerstars_rules", "timeout_policy_of"]

_STRUCTURES = {
    "Limit": BettingStructure.FIXED_LIMIT,
    "Pot Limit": BettingStructure.POT_LIMIT,
    "No Limit": BettingStructure.NO_LIMIT,
}
_GAME_OF = {name: game for game, name in GAME_NAMES.items()}  # "Razz" -> Game.RAZZ

_RULES_CACHE: dict[tuple[object, ...], TableRules] = {}


def pokerstars_rules(
    hand: PokerStarsHand, timeout_policy: TimeoutPolicy | None = None
) -> TableRules:
    """The table rules the file implies: the ante and bring-in as posted, the small
    and big bet from the stakes, the timeout rule its timeouts show (PokerStars'
    check or fold, unless ``timeout_policy`` says otherwise or a timeout is followed
    by no action of the player's: stud8's all-in protection, see
    :func:`timeout_policy_of`), the other options at their defaults (a cap of
    three raises, lifted heads-up).

    A bring-in nobody posted in full (the low card completed, or was all-in) is
    read from the first call of it or the first completion over it; failing those
    it is taken as the most anybody put in for it, or, when the low card completed
    instead, as half the small bet below his completion (it then plays no part).
    A table of more than 8 seats is taken as 8 (Stud deals at most 8).
    """
    ante = max((a.amount for a in hand.antes), default=0)
    bring_in = _bring_in(hand)
    policy = timeout_policy or timeout_policy_of(hand)
    game = game_of(hand)
    key = (
        ante,
        bring_in,
        hand.small_bet,
        hand.big_bet,
        hand.structure,
        hand.max_seats,
        policy,
        game,
    )
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = TableRules(
            game=game,
            ante=ante,
            bring_in=bring_in,
            small_bet=hand.small_bet,
            big_bet=hand.big_bet,
            structure=_STRUCTURES[hand.structure],
            timeout_policy=policy,
            max_seats=min(max(hand.max_seats, 2), 8),
        )
        if len(_RULES_CACHE) < 4096:
            _RULES_CACHE[key] = rules
    return rules


def game_of(hand: PokerStarsHand) -> Game:
    """The hand's game by the name its header gives it."""
    return _GAME_OF.get(hand.game, Game.STUD_HI_LO)


def timeout_policy_of(hand: PokerStarsHand) -> TimeoutPolicy:
    """The timeout rule the file's timeouts show. A timeout is followed by what it
    did (the player's fold, check or bring-in), except under stud8's all-in
    protection when it left him in for what he had put in: no line of his follows.
    So a timeout followed by no action of the same player on the same street is
    all-in protection; anything else is read as PokerStars' check or fold (a fold
    both rules may give: :func:`verify_pokerstars` tries the other rule when the
    hand does not reproduce under this one)."""
    actions = hand.actions
    for i, a in enumerate(actions):
        if a.verb != "timed out":
            continue
        nxt = actions[i + 1] if i + 1 < len(actions) else None
        if nxt is None or nxt.seat != a.seat or nxt.street != a.street:
            return TimeoutPolicy.ALL_IN_PROTECTION
    return TimeoutPolicy.CHECK_OR_FOLD


def _bring_in(hand: PokerStarsHand) -> int:
    """The table's bring-in: as posted; after a short all-in bring-in, what the
    others had to call; when the low card completed instead, anything below his
    completion (it then plays no part)."""
    third = []
    for a in hand.actions:
        if a.street != 3:
            break
        if a.verb != "folds" and a.verb != "timed out":
            third.append(a)
    if not third:
        return max(1, hand.small_bet // 2)
    first = third[0]
    if first.verb == "bets" and first.amount is not None:  # completed instead
        return _bring_in_under_completion(hand, first.amount, first.all_in, third[1:])
    if first.verb != "brings in" or first.amount is None:
        return max(1, hand.small_bet // 2)
    if not first.all_in:
        return first.amount
    at_least = first.amount  # all-in: the table's bring-in may be more
    for a in third[1:]:
        if a.verb == "calls" and a.amount is not None:
            if not a.all_in:
                return a.amount
            at_least = max(at_least, a.amount)
        elif a.verb == "raises" and a.to is not None and a.amount is not None:
            return a.to - a.amount
        else:
            break
    return at_least


def _bring_in_under_completion(
    hand: PokerStarsHand, completion: int, all_in: bool, after: list[PSAction]
) -> int:
    """The bring-in when the low card completed instead (the file does not say it).

    It plays no part, but for an all-in completion short of the small bet: that is
    a full one when it is at least half the completion over the bring-in (RULES 3),
    that is when the bring-in is at most ``2 * completion - small bet``. The next
    raise that is not all-in for less tells which it was (a full bet above the
    all-in, or a completion to the small bet), and the bring-in is taken on that side.
    """
    small = hand.small_bet
    bring_in = max(1, min(small // 2, completion - 1))
    if not all_in or completion >= small:
        return bring_in
    most_if_full = 2 * completion - small  # the largest bring-in under which it is full
    for a in after:
        to = a.to if a.verb == "raises" else a.amount if a.verb == "bets" else None
        if to is None:
            continue
        if to >= completion + small:  # a full bet above it: it was full
            if most_if_full >= 1:
                bring_in = min(bring_in, most_if_full)
        elif a.all_in:  # an all-in for less tells nothing
            continue
        elif most_if_full + 1 <= completion - 1:  # completed to the small bet: it was not
            bring_in = max(bring_in, most_if_full + 1)
        break
    return bring_in
