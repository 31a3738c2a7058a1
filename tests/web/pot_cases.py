"""Random no-limit and pot-limit hands with short stacks, played through the engine,
as the browser receives them (the encoded events), with the pots the engine builds
(``build_pots``) wherever a street's betting is over: the browser's pots
(src/stud8/web/pots.js) must be exactly these there, and add up to the pot always."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from playwright.sync_api import Page

from stud8.core.actions import make_action
from stud8.core.cards import Deck
from stud8.core.events import StreetStarted
from stud8.core.hand import Hand
from stud8.core.pots import build_pots
from stud8.core.rules import BettingStructure, TableRules, TimeoutPolicy
from stud8.server.table.events import HandStarted
from stud8.server.wire.events import encode_event

# After each event: the client's pots [[amount, [eligible seats]], ...] and its pot.
# (as JSON text both ways: Playwright passes big structures slowly)
CLIENT_POTS = """async (text) => {
  const { applyEvent, emptyTable } = await import('/store.js');
  const { handPots } = await import('/pots.js');
  return JSON.stringify(JSON.parse(text).map((events) => {
    const s = emptyTable('random');
    return events.map((ev, i) => {
      applyEvent(s, ev, i + 1);
      return [handPots(s.hand).map((p) => [p.amount, p.eligible]), s.hand.pot];
    });
  }));
}"""


def _engine_pots(hand: Hand) -> list[list[Any]]:
    live = frozenset(s for s in hand.seats if not hand.is_folded(s))
    pots = build_pots({s: hand.contributed(s) for s in hand.seats}, live)
    return [[p.amount, list(p.eligible)] for p in pots]


def random_hand(rng: random.Random) -> tuple[list[dict[str, Any]], dict[int, Any], list[int]]:
    """One hand: its encoded events; the engine's pots after each event where the
    betting of a street is over (by the number of events so far); the pot total
    after each batch of events, by the same numbering (-1 where not known)."""
    seats = sorted(rng.sample(range(1, 9), rng.randint(2, 7)))
    stacks = {
        s: rng.choice((rng.randint(1, 12), rng.randint(8, 60), rng.randint(40, 300))) for s in seats
    }
    rules = TableRules(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        structure=rng.choice((BettingStructure.NO_LIMIT, BettingStructure.POT_LIMIT)),
        timeout_policy=rng.choice(tuple(TimeoutPolicy)),
    )
    hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.seeded(rng.randrange(1 << 30)))
    events = [encode_event(HandStarted(hand.hand_id, tuple(stacks.items())))]
    events += [encode_event(e) for e in hand.events]
    settled: dict[int, Any] = {len(events): _engine_pots(hand)}
    totals = [-1] * len(events)
    totals[-1] = hand.pot_total
    while not hand.is_over:
        if rng.random() < 0.04:
            new = hand.time_out()
        else:
            a = rng.choice(hand.legal_actions())
            to = None
            if a.min_to is not None and a.max_to is not None and a.max_to > a.min_to:
                to = rng.choice((a.min_to, a.max_to, rng.randint(a.min_to, a.max_to)))
            elif a.kind.value in ("complete", "bet", "raise"):
                to = a.min_to
            new = hand.apply(make_action(a.kind.value, to))
        events += [encode_event(e) for e in new]
        totals += [-1] * len(new)
        if not hand.is_over:
            totals[-1] = hand.pot_total
        if hand.is_over or any(isinstance(e, StreetStarted) for e in new):
            settled[len(events)] = _engine_pots(hand)
    return events, settled, totals


def check_client_pots(page: Page, count: int = 200, seed: int = 8) -> int:
    """Play ``count`` random hands and check the page's pots against the engine's;
    the number of checks where there was more than one pot."""
    rng = random.Random(seed)
    hands = [random_hand(rng) for _ in range(count)]
    sent = json.dumps([events for events, _, _ in hands])
    shown: list[list[list[Any]]] = json.loads(page.evaluate(CLIENT_POTS, sent))
    side = 0
    for (events, settled, totals), client in zip(hands, shown, strict=True):
        assert len(client) == len(events)
        folded: set[int] = set()
        for n, ((pots, pot), event) in enumerate(zip(client, events, strict=True), 1):
            if event["k"] == "fold" or (event["k"] == "timeout" and event["outcome"] == "fold"):
                folded.add(event["seat"])
            if n in settled:
                assert pots == settled[n], (events[:n], pots, settled[n])
                side += len(pots) > 1
            if totals[n - 1] >= 0:
                assert pot == totals[n - 1], (events[:n], pot)
            # every chip is in a pot; each pot's players are in the one before it
            assert sum(amount for amount, _ in pots) == pot, (events[:n], pots)
            for (_, outer), (_, inner) in itertools.pairwise(pots):
                assert set(inner) < set(outer), (events[:n], pots)
            assert not folded & {s for _, eligible in pots for s in eligible}, (events[:n], pots)
    return side
