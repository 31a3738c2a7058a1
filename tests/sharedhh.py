"""Real hands of other projects and sites: they live beside the repository, in
``../shared/hh/`` (``other-sites/``, ``fpdb-regression/``, ``pokerkit-phh/`` and the
PokerStars files at its top, each folder with its SOURCES.md), never in it.

CI lays ``shared/`` beside its clone: there a missing folder is an error (every module
that imports this one fails to collect, saying why). Elsewhere the tests that need it
are skipped, saying why (``NEEDED``, ``params``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

#: ``../shared/hh`` of the repository (this file is ``tests/sharedhh.py``).
SHARED_HH = Path(__file__).resolve().parents[2] / "shared" / "hh"
OTHER_SITES = SHARED_HH / "other-sites"
FPDB_REGRESSION = SHARED_HH / "fpdb-regression"
POKERKIT_PHH = SHARED_HH / "pokerkit-phh"

#: The PokerStars files at the top of ``../shared/hh``.
STARS_CASH = SHARED_HH / "pokerstars_stud8_7-StudHL-USD-0.04-0.08-200911.txt"
STARS_BIG = SHARED_HH / "pokerstars_stud8_7-StudHL-USD-400-800-201701.3bet.fix.txt"
STARS_ALLIN = SHARED_HH / "pokerstars_stud8_7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
STARS_PT2 = SHARED_HH / "pokerstars_stud8_7-StudHL-USD-10-1-200906.PT2.export.txt"


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


AVAILABLE = (SHARED_HH / "SOURCES.md").is_file()
REASON = (
    f"the real hands of other sites are not at {SHARED_HH} "
    "(they live beside the repository, in ../shared/hh/, as on the CI machine)"
)

if not AVAILABLE and _ci():
    raise RuntimeError(f"CI is set but {REASON}")

#: Marks a test (or, as ``pytestmark``, a module) that reads ``../shared/hh``.
NEEDED = pytest.mark.skipif(not AVAILABLE, reason=REASON)


def files_in(folder: Path, pattern: str = "*") -> list[Path]:
    """The files of a folder of ``../shared/hh`` (none when it is absent)."""
    if not AVAILABLE:
        return []
    return sorted(p for p in folder.glob(pattern) if p.is_file() and p.name != "SOURCES.md")


def params(values: Sequence[Any], ids: Sequence[str] | None = None) -> list[Any]:
    """Parameters drawn from ``../shared/hh``: when it is absent, one skipped
    parameter saying why (rather than pytest's silent empty set)."""
    if not AVAILABLE:
        return [pytest.param(None, marks=NEEDED, id="shared-hh-absent")]
    if ids is None:
        return list(values)
    return [pytest.param(v, id=i) for v, i in zip(values, ids, strict=True)]
