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
CORE = Path(__file__).resolve().parents[2] / "src" / "stud8" / "core"


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


def _core(name: str) -> ModuleType:
    return importlib.import_module("stud8.core" if name == "__init__" else f"stud8.core.{name}")


def test_the_build_is_the_one_asked_for() -> None:
    expected = os.environ.get("STUD8_EXPECT_COMPILED", "") == "1"
    states = {name: _is_compiled(_core(name)) for name in _compiled_names()}
    assert set(states.values()) == {expected}, (
        f"expected the {'compiled' if expected else 'pure'} engine, got {states} "
        "(STUD8_EXPECT_COMPILED=1 says the compiled build is meant)"
    )


def test_the_modules_mypyc_cannot_compile_stay_python() -> None:
    compiled = set(_compiled_names())
    others = sorted(p.stem for p in CORE.glob("*.py") if p.stem not in compiled)
    assert {"actions", "cards", "events", "record", "rules", "evaluate"} <= set(others)
    assert not [name for name in others if _is_compiled(_core(name))]


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
