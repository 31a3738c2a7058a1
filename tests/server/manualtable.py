"""A table run on a manual clock, for the table tests: handle what is queued and
what falls due, and move time on one timer at a time."""

from __future__ import annotations

from stud8.server.clock import ManualClock
from stud8.server.table.commands import Command, Reply
from stud8.server.table.owner import Table


class ClockedTable:
    """Base of the tests' harnesses: ``table`` runs on ``clock``."""

    table: Table
    clock: ManualClock

    async def settle(self) -> None:
        """Handle every queued message and every timer due now."""
        while True:
            await self.table.settled()
            due = self.clock.next_deadline()
            if due is None or due > self.clock.now():
                return
            self.clock.advance(0)

    async def advance(self, seconds: float) -> None:
        """Move the clock on, one timer at a time, handling what each causes."""
        target = self.clock.now() + seconds
        while True:
            await self.settle()
            due = self.clock.next_deadline()
            if due is None or due > target:
                break
            self.clock.advance(max(0.0, due - self.clock.now()))
        self.clock.advance(target - self.clock.now())
        await self.settle()

    async def send(self, command: Command) -> Reply:
        """Submit a command and handle what it causes."""
        reply = await self.table.submit(command)
        await self.settle()
        return reply
