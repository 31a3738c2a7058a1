"""The fairness reports kept for the operator's console (``fairness_reports``).

A report run from the console (``POST /api/v1/admin/fairness``, on any node) or by
``stud8 admin rng-report --database URL --keep`` is kept whole (the JSON of
``rng-report --json``) with who ran it, so that every node's console shows the same
last report, and a restart does not lose it. :meth:`FairnessReports.last` is the
newest; the older ones stay (a lab's reports are kept), read by nobody yet.

>>> import tempfile
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> reports = FairnessReports(engine)
>>> reports.last() is None
True
>>> data = {"made_at": "2026-12-02T02:00:00+00:00", "verdict": "pass",
...         "source": {"deals": 5000}, "tests": []}
>>> reports.keep(data, "boss").run_by
'boss'
>>> kept = reports.last()
>>> kept.run_by, kept.deals, kept.verdict, kept.report == data
('boss', 5000, 'pass', True)
>>> engine.dispose()
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select

from stud8.server.storage.db import reads_of
from stud8.server.storage.models import FairnessReportRow, as_utc

__all__ = ["RUN_BY_CHARS", "FairnessReports", "KeptReport"]

RUN_BY_CHARS = 200
_ROWS = FairnessReportRow.__table__


@dataclass(frozen=True, slots=True)
class KeptReport:
    """A report as kept: its row's figures and the report whole."""

    id: int
    made_at: datetime  # when it was kept (the report says when it was made)
    run_by: str
    deals: int
    verdict: str
    report: dict[str, Any]


class FairnessReports:
    """The kept reports (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = reads_of(engine)

    def keep(self, report: dict[str, Any], run_by: str) -> KeptReport:
        """Keep ``report`` (``FairnessReport.to_json()``), run by ``run_by``."""
        text = json.dumps(report, allow_nan=False, separators=(",", ":"))
        now = datetime.now(UTC)
        deals = int(report["source"]["deals"])
        verdict = str(report["verdict"])
        who = run_by[:RUN_BY_CHARS]
        with self.engine.begin() as conn:
            row_id = conn.execute(
                insert(FairnessReportRow).values(
                    made_at=now, run_by=who, deals=deals, verdict=verdict, report=text
                )
            ).inserted_primary_key
        assert row_id is not None
        return KeptReport(int(row_id[0]), now, who, deals, verdict, report)

    def last(self) -> KeptReport | None:
        """The newest report kept; None if none."""
        with self._reads.connect() as conn:
            row = conn.execute(select(_ROWS).order_by(FairnessReportRow.id.desc()).limit(1)).first()
        if row is None:
            return None
        return KeptReport(
            row.id, as_utc(row.made_at), row.run_by, row.deals, row.verdict, json.loads(row.report)
        )
