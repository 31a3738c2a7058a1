"""Replay a Seven Card Stud Hi/Lo hand in PokerKit, used as a test oracle.

Our engine plays a fixed-limit hand; the test records what happened as a list of
:class:`Step` (every card dealt, every action) and :func:`play_in_pokerkit` replays
exactly that hand in PokerKit's ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``
and returns PokerKit's final stacks, to be compared with ours.

How the replay maps our hand onto PokerKit 0.7 (see also the notes at the end of
this docstring).

* Players: our seats in ascending order are PokerKit's player indices 0..n-1.
  PokerKit has no button in stud; its ties go to the lowest index, which is our
  "lowest seat number" rule.
* Antes, bet collection, showdown (showing/mucking), hand killing and chip
  pushing/pulling are PokerKit automations. Hole cards and the community card are
  dealt explicitly with the card of the step, one card per ``deal`` step, to the
  step's player. PokerKit's own dealing order is round robin (one card to every
  live player in index order, then the next card), which is our order; the
  replay checks that PokerKit expects a card for that very player and that our
  ``face_up`` flag is the status PokerKit gives that card (3rd street: down, down,
  up; 4th to 6th: up; 7th: down).
* Burns: PokerKit burns a card before 4th, 5th, 6th and 7th street (not before
  3rd). Our game has no burns, so the replay burns the unknown card ``??``, which
  PokerKit accepts and which takes no real card from its deck. ``unused_cards``
  is therefore not consumed; it is used only to check that the dealt cards and
  the unused cards are the 52 cards of one deck.
* Community card: PokerKit deals the 7th card as one face-up board card when the
  live players need more 7th-street cards than it can deal. PokerKit counts the
  folded (mucked) cards as dealable, so with a fold it would instead reshuffle
  the folded cards and deal everyone a down card. Our rules keep folded cards
  dead; by default (``recycle_mucked_cards=False``) the replay turns PokerKit's
  7th-street dealing into the single board card when our step is ``community``,
  but only if PokerKit's real deck (the cards nobody was dealt) is indeed too
  short, which is exactly PokerKit's own test without the muck. With
  ``recycle_mucked_cards=True`` PokerKit's native behaviour is kept, and such a
  hand raises :class:`OracleDisagrees`.
* Mode: PokerKit's cash-game mode, so that folding when a check is possible is
  allowed (tournament mode refuses it); it changes nothing else in stud.

Known PokerKit deviations from RULES.md are NOT masked here (the caller masks
them): odd chips by seat order, the raise cap kept heads-up, no half-bet rule for
short all-ins, a short bring-in can be called for less. Found while writing this
harness (pinned in test_pokerkit_oracle.py):

* Each half is split on its own, odd chip to the lowest index, so when the same
  players tie for high and low the first of them gets both odd chips (RULES 5.3
  and 5.4 split such a pot evenly).
* Whether pots are split hi/lo is decided once for the hand, not per pot: if any
  live hand has a qualifying low, a side pot where no eligible player has one is
  still halved, and its low half is shared by all its eligible live hands
  (RULES 5.1: the best high takes that whole pot).
* When the low card is all-in for the ante, the next player must bring in (or
  complete); RULES' option that he may fold instead cannot be replayed.
"""

from __future__ import annotations

import importlib.metadata
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from pokerkit import (
    Automation,
    Card,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    State,
)

__all__ = [
    "ACTION_KINDS",
    "CARD_KINDS",
    "FULL_DECK",
    "OracleDisagrees",
    "Step",
    "create_pokerkit_state",
    "play_in_pokerkit",
    "pokerkit_version",
]

CARD_KINDS = frozenset({"deal", "community"})
ACTION_KINDS = frozenset({"bring_in", "complete", "bet", "raise", "call", "check", "fold"})
_TO_KINDS = frozenset({"complete", "bet", "raise"})

FULL_DECK: tuple[str, ...] = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
"""The 52 cards, as strings like ``'Td'``."""

_STREET_NAMES = ("3rd", "4th", "5th", "6th", "7th")

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

# Warnings PokerKit gives that are not a disagreement (cash-game mode lets a
# player fold when he could check, with this warning).
_HARMLESS_WARNINGS = ("There is no reason for this player to fold.",)


@dataclass(frozen=True)
class Step:
    """One thing that happened in our engine, in order.

    ``kind`` is one of ``deal``, ``community``, ``bring_in``, ``complete``,
    ``bet``, ``raise``, ``call``, ``check``, ``fold``. ``player`` is the player
    index (our seats in ascending order). ``card`` is set for ``deal`` and
    ``community``; ``face_up`` for ``deal``; ``to`` for ``complete``, ``bet`` and
    ``raise``: the player's total bet on this street after the action.
    """

    kind: str
    player: int = -1
    card: str = ""
    face_up: bool = False
    to: int | None = None


class OracleDisagrees(AssertionError):
    """PokerKit does not accept our hand as it was played.

    ``step_index`` and ``step`` say where (``None`` for the table set-up and the
    end of the hand); the message says what PokerKit expected and what we did.
    """

    def __init__(
        self, message: str, *, step_index: int | None = None, step: Step | None = None
    ) -> None:
        if step_index is not None:
            message = f"step {step_index} {step!r}: {message}"
        super().__init__(message)
        self.step_index = step_index
        self.step = step


def pokerkit_version() -> str:
    """The installed PokerKit version, e.g. ``'0.7.7'``."""
    return importlib.metadata.version("pokerkit")


def _street_name(state: State) -> str:
    index = state.street_index
    if index is None:
        return "no street (set-up or settlement)"
    return f"{_STREET_NAMES[index]} street" if 0 <= index < len(_STREET_NAMES) else str(index)


def _pokerkit_view(state: State) -> str:
    """What PokerKit is waiting for, in words, for error messages."""
    parts = [_street_name(state)]
    if not state.status:
        parts.append("the hand is over")
    elif state.actor_index is not None:
        actor = state.actor_index
        if state.bring_in_status:
            parts.append(
                f"actor {actor} must post the bring-in ({state.effective_bring_in_amount})"
                " or complete"
            )
        else:
            parts.append(f"actor {actor}")
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        parts.append(
            "no completion/bet/raise allowed"
            if low is None
            else f"completion/bet/raise to {low}..{high}"
        )
        parts.append(f"check/call amount {state.checking_or_calling_amount}")
    elif state.card_burning_status:
        parts.append("a burn card before dealing")
    elif state.hole_dealee_index is not None:
        index = state.hole_dealee_index
        face_up = state.hole_dealing_statuses[index][0]
        parts.append(f"a {'face-up' if face_up else 'face-down'} card for player {index}")
    elif state.board_dealing_count is not None:
        parts.append(f"{state.board_dealing_count} community card(s)")
    else:
        parts.append("no card and no action")
    parts.append(f"bets {list(state.bets)}")
    parts.append(f"stacks {list(state.stacks)}")
    parts.append(f"in hand {list(state.statuses)}")
    return "PokerKit: " + "; ".join(parts)


@contextmanager
def _pokerkit_call(state: State, index: int, step: Step, what: str) -> Iterator[None]:
    """Run a PokerKit operation; turn its refusals and warnings into OracleDisagrees.

    PokerKit verifies an operation before changing anything, so after a refusal
    the state is still the one that refused.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        except (ValueError, AssertionError) as error:
            if isinstance(error, OracleDisagrees):
                raise
            raise OracleDisagrees(
                f"PokerKit refuses {what}: {type(error).__name__}: {error}"
                f" [{_pokerkit_view(state)}]",
                step_index=index,
                step=step,
            ) from error
    for warning in caught:
        text = str(warning.message)
        if text not in _HARMLESS_WARNINGS:
            raise OracleDisagrees(
                f"PokerKit warns on {what}: {text} [after it, {_pokerkit_view(state)}]",
                step_index=index,
                step=step,
            )


def _parse_card(text: str, index: int, step: Step) -> Card:
    try:
        cards = Card.clean(text)
    except (ValueError, KeyError) as error:
        raise ValueError(f"step {index} {step!r}: bad card {text!r}") from error
    if len(cards) != 1 or not cards[0]:
        raise ValueError(f"step {index} {step!r}: bad card {text!r}")
    card: Card = cards[0]
    return card


def _check_steps(player_count: int, steps: Sequence[Step], unused_cards: Sequence[str]) -> None:
    """Reject malformed input (ValueError) and a dealt deck that is not one deck."""
    dealt: list[str] = []
    for index, step in enumerate(steps):
        if step.kind not in CARD_KINDS and step.kind not in ACTION_KINDS:
            raise ValueError(f"step {index} {step!r}: unknown kind {step.kind!r}")
        if step.kind != "community" and not 0 <= step.player < player_count:
            raise ValueError(f"step {index} {step!r}: no player {step.player}")
        if step.kind in _TO_KINDS and step.to is None:
            raise ValueError(f"step {index} {step!r}: {step.kind} needs 'to'")
        if step.kind in CARD_KINDS:
            dealt.append(repr(_parse_card(step.card, index, step)))
    unused = [repr(_parse_card(card, -1, Step("unused", card=card))) for card in unused_cards]
    if len(set(dealt)) != len(dealt):
        twice = sorted({card for card in dealt if dealt.count(card) > 1})
        raise OracleDisagrees(f"our engine dealt the same card twice: {twice}")
    if len(set(unused)) != len(unused) or set(unused) & set(dealt):
        raise OracleDisagrees(
            "unused_cards repeat a card or hold a dealt card: "
            f"{sorted(set(unused) & set(dealt)) or unused}"
        )
    missing = set(FULL_DECK) - set(dealt) - set(unused)
    if missing:
        raise OracleDisagrees(
            f"dealt cards + unused cards are not one 52-card deck; missing {sorted(missing)}"
        )


def _burn_if_pending(state: State, index: int, step: Step) -> None:
    if state.status and state.card_burning_status:
        with _pokerkit_call(state, index, step, "an unknown burn card '??'"):
            state.burn_card("??")


def _deal(state: State, index: int, step: Step) -> None:
    _burn_if_pending(state, index, step)
    if state.board_dealing_count is not None:
        raise OracleDisagrees(
            f"PokerKit expects a community card, we dealt a card to player {step.player}"
            f" [{_pokerkit_view(state)}]",
            step_index=index,
            step=step,
        )
    dealee = state.hole_dealee_index
    if dealee is None:
        raise OracleDisagrees(
            f"PokerKit expects no card now, we dealt one to player {step.player}"
            f" [{_pokerkit_view(state)}]",
            step_index=index,
            step=step,
        )
    if dealee != step.player:
        raise OracleDisagrees(
            f"PokerKit deals the next card to player {dealee}, we dealt to {step.player}"
            f" [{_pokerkit_view(state)}]",
            step_index=index,
            step=step,
        )
    expected_up = state.hole_dealing_statuses[dealee][0]
    if expected_up != step.face_up:
        raise OracleDisagrees(
            f"PokerKit deals this card {'face up' if expected_up else 'face down'},"
            f" we dealt it {'face up' if step.face_up else 'face down'}",
            step_index=index,
            step=step,
        )
    with _pokerkit_call(state, index, step, "the hole card"):
        operation = state.deal_hole(step.card, step.player)
    assert operation.statuses == (step.face_up,)


def _deal_community(state: State, index: int, step: Step, recycle_mucked_cards: bool) -> None:
    _burn_if_pending(state, index, step)
    if (
        state.board_dealing_count is None
        and not recycle_mucked_cards
        and state.street_index == len(state.streets) - 1
        and state.hole_dealee_index is not None
    ):
        # PokerKit chose hole cards because it counts the folded cards as
        # dealable. Do what its _begin_dealing does when the cards run out, if
        # its real deck (cards never dealt; our burns are '??') is too short.
        needed = sum(map(len, state.hole_dealing_statuses))
        if needed > len(state.deck_cards):
            street = state.streets[-1]
            for statuses in state.hole_dealing_statuses:
                statuses.clear()
            for board in range(len(state.board_dealing_counts)):
                state.board_dealing_counts[board] += len(street.hole_dealing_statuses)
    if state.board_dealing_count is None:
        raise OracleDisagrees(
            "PokerKit expects no community card here (with folded cards it deals"
            " everyone a 7th card from the reshuffled muck)"
            f" [{_pokerkit_view(state)}; cards left in its deck {len(state.deck_cards)}]",
            step_index=index,
            step=step,
        )
    with _pokerkit_call(state, index, step, "the community card"):
        state.deal_board(step.card)


def _act(state: State, index: int, step: Step) -> None:
    actor = state.actor_index
    if actor != step.player:
        expected = "nobody (it is dealing, or the hand is over)" if actor is None else actor
        raise OracleDisagrees(
            f"PokerKit's actor is {expected}, we had player {step.player} {step.kind}"
            f" [{_pokerkit_view(state)}]",
            step_index=index,
            step=step,
        )
    if step.kind in ("check", "call") and not state.bring_in_status:
        amount = state.checking_or_calling_amount
        if (amount == 0) != (step.kind == "check"):
            raise OracleDisagrees(
                f"PokerKit's check/call amount is {amount}, we had a {step.kind}"
                f" [{_pokerkit_view(state)}]",
                step_index=index,
                step=step,
            )
    with _pokerkit_call(state, index, step, f"the {step.kind}"):
        match step.kind:
            case "bring_in":
                state.post_bring_in()
            case "complete" | "bet" | "raise":
                state.complete_bet_or_raise_to(step.to)
            case "call" | "check":
                state.check_or_call()
            case "fold":
                state.fold()
            case _:  # pragma: no cover - _check_steps rejects other kinds
                raise AssertionError(step.kind)


def create_pokerkit_state(
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    starting_stacks: Sequence[int],
) -> State:
    """The PokerKit state of a new hand, antes posted, waiting for the first card."""
    try:
        state: State = FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
            _AUTOMATIONS,
            True,  # ante trimming: antes are live chips, side pots include them
            ante,
            bring_in,
            small_bet,
            big_bet,
            tuple(starting_stacks),
            len(starting_stacks),
            mode=Mode.CASH_GAME,
        )
    except ValueError as error:
        raise OracleDisagrees(f"PokerKit refuses the table: {error}") from error
    return state


def play_in_pokerkit(
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    starting_stacks: Sequence[int],
    steps: Sequence[Step],
    unused_cards: Sequence[str],
    recycle_mucked_cards: bool = False,
    before_step: Callable[[int, State], None] | None = None,
) -> list[int]:
    """Replay the hand in PokerKit's FixedLimitSevenCardStudHighLowSplitEightOrBetter
    and return its final stacks (same order as starting_stacks).

    Raises :class:`OracleDisagrees` at the first step PokerKit does not accept
    (wrong actor, refused action, card for the wrong player or with the wrong
    face-up flag), and if PokerKit's hand is not over after the last step.
    Raises ``ValueError`` for malformed steps. ``before_step(index, state)``, if
    given, is called before each step with PokerKit's state (to compare as it goes).
    """
    if any(isinstance(value, bool) or not isinstance(value, int) for value in starting_stacks):
        raise ValueError(f"stacks must be integers: {starting_stacks!r}")
    _check_steps(len(starting_stacks), steps, unused_cards)
    state = create_pokerkit_state(
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        starting_stacks=starting_stacks,
    )
    for index, step in enumerate(steps):
        if not state.status:
            raise OracleDisagrees("PokerKit's hand is already over", step_index=index, step=step)
        if before_step is not None:
            before_step(index, state)
        if step.kind == "deal":
            _deal(state, index, step)
        elif step.kind == "community":
            _deal_community(state, index, step, recycle_mucked_cards)
        else:
            _act(state, index, step)
    if state.status:
        raise OracleDisagrees(
            f"PokerKit's hand is not over after the last step [{_pokerkit_view(state)}]"
        )
    stacks = list(state.stacks)
    if sum(stacks) != sum(starting_stacks):
        raise OracleDisagrees(
            f"PokerKit's final stacks {stacks} do not add up to {sum(starting_stacks)}"
        )
    return stacks
