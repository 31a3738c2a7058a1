"""The shuffle's fairness, tested as a test lab would (``stud8 admin rng-report``).

The deals come from the room's own shuffle run here (:func:`run.run_offline`, on
every core) or from the hands the room stored (:func:`run.run_stored`); they are
counted into a :class:`tally.Tally`, tested (:mod:`battery`: positions, short-deck
orders, 3rd-street hands by seat, consecutive deals, repeats, the cards as dealt) and
judged with Holm's correction (:mod:`report`), as text, JSON or an HTML page with
plots (:mod:`page`). ``docs/fairness.md`` says what is tested, what a pass means and
what it cannot show. Needs numpy and scipy (the tools extra), matplotlib for the page.
"""

from __future__ import annotations

from enum import Enum

# What the command takes, importable without numpy (for its --help).
DEFAULT_DEALS = 2_500_000
DEFAULT_ALPHA = 0.01  # the significance of a whole report


class Shuffle(Enum):
    """The shuffles the report can deal from (:mod:`.shuffles`)."""

    ROOM = "room"
    NAIVE = "naive"
    WEAK_SEED = "weak-seed"
    CUT = "cut"

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Shuffle.ROOM: "the room's shuffle: Deck.shuffled() (the system's CSPRNG, Fisher-Yates)",
    Shuffle.NAIVE: "a naive swap shuffle, swap(i, randrange(52)) for every i (biased)",
    Shuffle.WEAK_SEED: "Fisher-Yates over random.Random reseeded each deal from 16 bits (weak)",
    Shuffle.CUT: "each deck the previous one cut at a random place (dependent deals)",
}
