"""The optional compiled build of the engine (mypyc, see setup.py): which build ran.

CI runs the suite on the pure package, and again on a wheel built with
``STUD8_COMPILE=1`` with ``STUD8_EXPECT_COMPILED=1`` set: a build that fell back to
pure Python fails here rather than passing untested, and compiled modules left in
the source tree (which would shadow edits to the .py files) fail the pure run.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path
from types import ModuleType

SETUP = Path(__file__).resolve().parents[2] / "setup.py"
PACKAGE = Path(__file__).resolve().parents[2] / "src" / "stud8"


def _compiled_names() -> list[str]:
    """setup.py's COMPILED list: the modules the compiled build compiles."""
    for node in ast.parse(SETUP.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(name) for name in value]
    raise AssertionError("setup.py has no COMPILED list")


def _is_compiled(module: ModuleType) -> bool:
    return not str(module.__file__).endswith(".py")


def _module(path: str) -> ModuleType:
    """The module of a path under src/stud8, as setup.py names it ("core/hand")."""
    return importlib.import_module("stud8." + path.removesuffix("/__init__").replace("/", "."))


def test_the_build_is_the_one_asked_for() -> None:
    expected = os.environ.get("STUD8_EXPECT_COMPILED", "") == "1"
    states = {name: _is_compiled(_module(name)) for name in _compiled_names()}
    assert set(states.values()) == {expected}, (
        f"expected the {'compiled' if expected else 'pure'} engine, got {states} "
        "(STUD8_EXPECT_COMPILED=1 says the compiled build is meant)"
    )


def test_the_modules_mypyc_cannot_compile_stay_python() -> None:
    compiled = set(_compiled_names())
    core = sorted(f"core/{p.stem}" for p in (PACKAGE / "core").glob("*.py"))
    bots = sorted(f"tools/bots/{p.stem}" for p in (PACKAGE / "tools" / "bots").glob("*.py"))
    others = [name for name in core + bots if name not in compiled]
    kept = {"actions", "cards", "errors", "events", "record", "rules", "evaluate"}
    assert {f"core/{name}" for name in kept} <= set(others)
    assert "tools/bots/base" in others  # its protocols are checked at run time
    assert not [name for name in others if _is_compiled(_module(name))]


def test_the_compiled_bot_still_meets_the_bot_protocols() -> None:
    """The rule-based bot (compiled in that build) is a Bot and a FastBot to isinstance,
    as the room and ``stud8 simulate`` ask, and decides the same from a window as from
    the full view."""
    import random

    from stud8.core import Deck, Hand, TableRules
    from stud8.tools.bots import RuleBasedBot
    from stud8.tools.bots.base import Bot, FastBot
    from stud8.tools.bots.window import HandWindows

    bots = {s: RuleBasedBot(random.Random(s)) for s in (1, 2, 3)}
    twins = {s: RuleBasedBot(random.Random(s)) for s in (1, 2, 3)}
    assert all(isinstance(b, Bot) and isinstance(b, FastBot) for b in bots.values())
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    rng = random.Random(11)
    decisions = 0
    for _ in range(40):
        hand = Hand.start(rules=rules, stacks={1: 80, 2: 80, 3: 80}, deck=Deck.shuffled(rng))
        windows = HandWindows(hand)
        while (seat := hand.to_act) is not None:
            action = bots[seat].decide(windows.seat(seat))
            assert twins[seat].act(hand.view(seat)) == action
            hand.apply(action)
            decisions += 1
    assert decisions > 100


def test_a_finished_hand_and_its_result_pickle_and_copy_in_either_build() -> None:
    """A hand, its pots and its result go through pickle and deepcopy unchanged (as
    multiprocessing needs), whether the classes are compiled or not."""
    import copy
    import pickle
    import random

    from stud8.core import Deck, Hand, TableRules

    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    rng = random.Random(7)
    showdowns = 0
    for _ in range(30):
        hand = Hand.start(rules=rules, stacks={1: 60, 2: 25, 3: 90}, deck=Deck.shuffled(rng))
        while hand.to_act is not None:
            legal = hand.legal_actions()
            hand.apply(legal[-1].action() if len(legal) > 2 else legal[1].action())
        result = hand.result
        assert result is not None
        showdowns += result.showdown
        for twin in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result)):
            assert twin == result and twin is not result
            assert [p.won_by() for p in twin.pots] == [p.won_by() for p in result.pots]
        again = pickle.loads(pickle.dumps(hand))
        assert again.events == hand.events and again.result == result
    assert showdowns  # pots with high and low values went through too
