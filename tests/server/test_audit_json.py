"""``stud8 admin audit --json``: the audit's report as one JSON object, its exit code
as the text report's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import update

from stud8.cli import main
from stud8.server.books.ledger import Ledger, bank
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.storage.models import Account


def test_the_audit_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    upgrade(url)
    engine = create_engine_for(url)
    try:
        Ledger(engine).credit("ann", 500, "sold at the desk")
        assert main(["admin", "audit", "--json", "--database", url]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] is True and report["problems"] == []
        assert (report["issued"], report["banks"], report["unfinished"]) == (500, 500, 0)
        # an injected drift: a bank's cached balance no longer its entries' sum
        with engine.begin() as conn:
            conn.execute(update(Account).where(Account.name == bank("ann")).values(balance=501))
        assert main(["admin", "audit", "--json", "--database", url]) == 1
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] is False and report["problems"], report
        assert main(["admin", "audit", "--database", url]) == 1  # the text says the same
        assert "PROBLEM" in capsys.readouterr().out
    finally:
        engine.dispose()
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    assert main(["admin", "audit", "--json", "--database", missing]) == 2
    assert json.loads(capsys.readouterr().out)["ok"] is False
