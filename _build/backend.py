"""setuptools' build backend, plus mypy (for mypyc) in the build environment when
STUD8_COMPILE asks for the compiled engine (see setup.py)."""

from __future__ import annotations

import os
from typing import Any

from setuptools.build_meta import *  # noqa: F403

MYPYC = "mypy==2.4.*"  # the mypyc the compiled build is tested with
# mypy follows the bots' imports into stud8.tools, whose equity code is typed with numpy
TYPES = "numpy>=1.26"


def _requires() -> list[str]:
    # What setuptools' own hooks return (they run setup.py to learn it, which would
    # need mypyc before it is installed): wheel; we use no setup_requires.
    mode = os.environ.get("STUD8_COMPILE", "").strip().lower()
    return ["wheel"] + ([MYPYC, TYPES] if mode not in ("", "0", "no", "false") else [])


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires()
