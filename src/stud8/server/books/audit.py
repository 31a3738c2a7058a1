"""The ledger's own check (:meth:`~stud8.server.books.ledger.Ledger.audit`): every
transaction balanced, every cached balance its entries' sum, no account negative,
every pot empty, and the chips issued equal to the chips held."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from stud8.server.storage.models import Account, Entry, Transaction

__all__ = ["AuditReport", "audit_in"]


@dataclass(frozen=True)
class AuditReport:
    """The books checked: ``issued`` must equal ``banks + tables + pots + rake +
    prizes + fees`` (the tournaments' prize pools and fees)."""

    issued: int
    banks: int
    tables: int
    pots: int
    rake: int
    accounts: int
    transactions: int
    entries: int
    prizes: int = 0
    fees: int = 0
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def held(self) -> int:
        return self.banks + self.tables + self.pots + self.rake + self.prizes + self.fees

    def __str__(self) -> str:
        lines = [
            f"issued {self.issued} = banks {self.banks} + tables {self.tables}"
            f" + pots {self.pots} + rake {self.rake}"
            f" + prizes {self.prizes} + fees {self.fees} ({self.held})",
            f"{self.accounts} accounts, {self.transactions} transactions, {self.entries} entries",
            "OK" if self.ok else f"{len(self.problems)} PROBLEM(S):",
            *(f"  - {p}" for p in self.problems),
        ]
        return "\n".join(lines)


def audit_in(session: Session) -> AuditReport:
    problems: list[str] = []
    unbalanced = session.execute(
        select(Entry.transaction_id, func.sum(Entry.amount))
        .group_by(Entry.transaction_id)
        .having(func.sum(Entry.amount) != 0)
    ).all()
    problems += [f"transaction {t} sums to {s}" for t, s in unbalanced]
    sums: dict[int, int] = {
        account_id: int(total)
        for account_id, total in session.execute(
            select(Entry.account_id, func.sum(Entry.amount)).group_by(Entry.account_id)
        )
    }
    totals = dict.fromkeys(("issuance", "bank", "table", "pot", "rake", "prizes", "fees"), 0)
    accounts = list(session.scalars(select(Account).order_by(Account.name)))
    for account in accounts:
        derived = int(sums.get(account.id, 0))
        if derived != account.balance:
            problems.append(f"{account.name}: balance {account.balance} but entries sum {derived}")
        if account.kind not in totals:
            problems.append(f"{account.name}: unknown kind {account.kind!r}")
            continue
        totals[account.kind] += derived
        if account.kind == "issuance" and derived > 0:
            problems.append(f"{account.name}: positive issuance {derived}")
        elif account.kind != "issuance" and derived < 0:
            problems.append(f"{account.name}: negative balance {derived}")
        elif account.kind == "pot" and derived != 0:
            problems.append(f"{account.name}: {derived} chips left in the pot")
    report = AuditReport(
        issued=-totals["issuance"],
        banks=totals["bank"],
        tables=totals["table"],
        pots=totals["pot"],
        rake=totals["rake"],
        prizes=totals["prizes"],
        fees=totals["fees"],
        accounts=len(accounts),
        transactions=session.scalar(select(func.count()).select_from(Transaction)) or 0,
        entries=session.scalar(select(func.count()).select_from(Entry)) or 0,
    )
    if report.issued != report.held:
        problems.append(f"issued {report.issued} != held {report.held}")
    return replace(report, problems=tuple(problems))
