"""Other sites' Seven Card Stud Hi/Lo hand histories.

One module a site reads its text into the :class:`~stud8.formats.pokerstars.PokerStarsHand`
the PokerStars reader gives, so that the verifier and the converter treat every
site alike. Each module has a :class:`Site`: its ``detect`` (is this text
mine?), its ``read`` (the hands, in file order, as the PokerStars reader gives
them: hands, skipped hands and read errors) and its ``rules`` (where the site's
own rules differ from RULES.md: see docs/rules.md).

>>> detect("Full Tilt Poker Game #1: Table T - $2/$4 Ante $0.40 - Limit Stud H/L").name
'fulltilt'
>>> detect("nothing of the kind") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import import_module

from stud8.core.rules import TableRules
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.sites._text import Item, decode
from stud8.formats.verify import Verdict, pokerstars_rules, verify_pokerstars

__all__ = ["SITES", "Site", "decode", "detect", "site_named", "verify_hand"]


@dataclass(frozen=True, slots=True)
class Site:
    """A site whose hand histories stud8 reads.

    ``rules`` are the options of :class:`~stud8.core.rules.TableRules` in which
    the site departs from the defaults (RULES.md), applied on top of the rules
    each hand's own text implies.
    """

    name: str
    title: str
    detect: Callable[[str], bool]
    read: Callable[[str, str], list[Item]]
    rules: dict[str, object] = field(default_factory=dict)

    def table_rules(self, hand: PokerStarsHand) -> TableRules:
        base = pokerstars_rules(hand)
        return replace(base, **self.rules) if self.rules else base  # type: ignore[arg-type]


def _sites() -> tuple[Site, ...]:
    # The site modules import this one (for Site): load them on first use.
    return tuple(import_module(f"stud8.formats.sites.{name}").SITE for name in SITES)


_LOADED: list[tuple[Site, ...]] = []


def sites() -> tuple[Site, ...]:
    """Every site, in a fixed order (loaded on first use)."""
    if not _LOADED:
        _LOADED.append(_sites())
    return _LOADED[0]


# The modules of the sites, in the order their detections are tried.
SITES = (
    "fulltilt",
    "absolute",
    "bovada",
    "kingsclub",
    "ongame",
    "partypoker",
    "winamax",
    "winning",
    "merge",
    "ipoker",
    "everleaf",
)


def detect(text: str) -> Site | None:
    """The site whose hand history this text is, or None."""
    head = text.lstrip("\ufeff")[:4000]
    for site in sites():
        if site.detect(head):
            return site
    return None


def site_named(name: str) -> Site:
    for site in sites():
        if site.name == name:
            return site
    raise KeyError(name)


def verify_hand(site: Site, hand: PokerStarsHand) -> Verdict:
    """Replay the hand through the engine with the site's rules."""
    try:
        rules = site.table_rules(hand)
    except ValueError:
        return verify_pokerstars(hand)  # the verifier says what is wrong with the rules
    return verify_pokerstars(hand, rules=rules)
