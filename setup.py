"""Optional compiled build of the rules engine (mypyc).

``pip install .`` installs pure Python, as always. With ``STUD8_COMPILE=1`` the
modules listed below (most of ``stud8.core``, and the rule-based bot) are compiled
with mypyc from the same source (about 2.5 times as fast a hand, twice as fast a
simulation); the build backend (``_build/backend.py``) then asks for mypy, and numpy
for its types, in the build environment, and a C compiler and the Python headers must
be present (Debian: ``apt-get install gcc python3-dev``). ``STUD8_COMPILE=auto``
compiles when it can and falls back to pure Python when it cannot. The compiled
modules import nothing outside the standard library at run time.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

PACKAGE = "src/stud8"
# Compiled, as paths under src/stud8. Left interpreted in the core: rules and cards
# (TableRules, Card and Deck check and convert their fields in __post_init__, with their
# own errors; compiled, a typed field refuses a wrong type first, with a TypeError);
# actions, events and record (mypyc cannot compile them as they are: the Action
# dataclasses' ClassVar ``kind`` becomes a field, fast_init is no decorator it knows,
# @record builds tuple classes; LegalAction, read on every action, lives in _legal,
# compiled, and the hot events come from _shared_events' tables); evaluate (compiled, a
# returned tuple is unboxed and boxed again: slower, and no longer the shared result
# tuple). Of the bots, the rule-based player and the windows it decides from (what
# ``stud8 simulate`` spends its time in); base stays interpreted, for its
# runtime-checkable protocols, which mypyc does not keep.
# Errors too: the wrong-type errors are a ValueError and a TypeError at once, and
# mypyc compiles no class with two built-in bases (an error is raised rarely).
COMPILED = [
    "core/__init__",
    "core/_inputs",
    "core/_legal",
    "core/_shared_events",
    "core/_shuffle",
    "core/_tables",
    "core/betting",
    "core/hand",
    "core/plan",
    "core/pots",
    "core/settle",
    "core/showdown",
    "core/streets",
    "core/views",
    "tools/bots/reading",
    "tools/bots/rules_based",
    "tools/bots/window",
]


def ext_modules() -> list[object]:
    mode = os.environ.get("STUD8_COMPILE", "").strip().lower()
    if mode in ("", "0", "no", "false"):
        return []
    try:
        from mypyc.build import mypycify

        return list(
            mypycify(
                [f"{PACKAGE}/{name}.py" for name in COMPILED],
                opt_level="3",
                group_name="stud8",
            )
        )
    except Exception as e:
        if mode != "auto":
            raise
        print(f"stud8: not compiling the engine ({e}); pure Python", file=sys.stderr)
        return []


setup(ext_modules=ext_modules())
