"""The operator's acts at a terminal: ``stud8 admin ban/silence/credit/debit/log``.

Each acts through :class:`~stud8.server.books.moderation.Moderation` on the room's
database (the same as ``/api/v1/admin/...``), so each is written to the moderation
log with its reason and who did it (``--by NAME``; by default the login name at the
terminal, marked ``(stud8 admin)``). They may run while the room serves: a ban ends
the player's sessions and the room closes his websockets within a second or two
(:mod:`stud8.server.http.sessions`); a silence holds from his next line of chat.

Every command prints what was done and exits 0; 1 if refused (nothing changed);
2 if the database has no schema.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Callable

from stud8.server.admin import NoSchemaError, room_database
from stud8.server.books.ledger import Ledger, bank
from stud8.server.books.moderation import LoggedAct, Moderation, ModerationAct, ModerationError

__all__ = ["act_json", "operator_name", "run_ban", "run_log", "run_move", "run_silence"]


def operator_name(by: str | None) -> str:
    """Who acts, as the log names him: ``by``, or the terminal's user."""
    if by is not None and by.strip():
        return by.strip()
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no user name in this environment
        user = "unknown"
    return f"{user} (stud8 admin)"


def _acting(what: str, url: str, act: Callable[[Moderation], str]) -> int:
    try:
        with room_database(url) as engine:
            said = act(Moderation(engine, Ledger(engine)))
    except NoSchemaError as exc:
        print(f"{what}: {exc}")
        return 2
    except ModerationError as exc:
        print(f"{what} refused, nothing changed: {exc}")
        return 1
    print(said)
    return 0


def run_ban(url: str, name: str, reason: str, *, undo: bool = False, by: str | None = None) -> int:
    """``stud8 admin ban NAME --reason TEXT [--undo]``: the exit code."""
    operator = operator_name(by)

    def act(moderation: Moderation) -> str:
        if undo:
            done = moderation.unban(operator, name, reason)
            return f"{done.player} is no longer banned: he may log in again"
        done = moderation.ban(operator, name, reason)
        return f"{done.player} is banned: he may not log in, and his sessions have ended"

    return _acting("unban" if undo else "ban", url, act)


def run_silence(
    url: str,
    name: str,
    reason: str,
    *,
    minutes: int | None = None,
    undo: bool = False,
    by: str | None = None,
) -> int:
    """``stud8 admin silence NAME --reason TEXT [--minutes N | --undo]``: the exit code."""
    operator = operator_name(by)

    def act(moderation: Moderation) -> str:
        if undo:
            done = moderation.unsilence(operator, name, reason)
            return f"{done.player} may chat again"
        done = moderation.silence(operator, name, reason, minutes=minutes)
        until = f" until {done.until:%Y-%m-%d %H:%M} UTC" if done.until else " for good"
        return f"{done.player} is silenced{until}: the player's chat messages are refused"

    return _acting("unsilence" if undo else "silence", url, act)


def run_move(
    url: str, name: str, amount: int, reason: str, *, debit: bool = False, by: str | None = None
) -> int:
    """``stud8 admin credit`` (or ``debit``) ``NAME AMOUNT --reason TEXT``: the exit code."""
    what = "debit" if debit else "credit"
    operator = operator_name(by)

    def act(moderation: Moderation) -> str:
        move = moderation.debit if debit else moderation.credit
        done = move(operator, name, amount, reason)
        assert done.player is not None
        now = moderation.ledger.balance(bank(done.player))
        sign = "-" if debit else "+"
        return (
            f"{what} #{done.transaction_id}: {sign}{amount} chips, "
            f"{done.player}'s bank now {now} ({done.reason})"
        )

    return _acting(what, url, act)


def act_json(act: LoggedAct) -> dict[str, object]:
    """One entry of the log as JSON (``stud8 admin log --json``)."""
    return {
        "id": act.id,
        "at": act.acted_at.isoformat(),
        "operator": act.operator,
        "act": act.act.value,
        "player": act.player,
        "reason": act.reason,
        "amount": act.amount,
        "until": None if act.until is None else act.until.isoformat(),
        "transaction": act.transaction_id,
    }


def _line(act: LoggedAct) -> str:
    what = act.act.value
    if act.act in (ModerationAct.CREDIT, ModerationAct.DEBIT):
        what += f" {act.amount}"
    if act.act is ModerationAct.SILENCE:
        what += f" until {act.until:%Y-%m-%d %H:%M}" if act.until else " for good"
    whom = act.player or "the lobby"
    return f"{act.acted_at:%Y-%m-%d %H:%M:%S}  {act.operator}  {what}  {whom}: {act.reason}"


def run_log(url: str, *, player: str | None = None, limit: int = 50, as_json: bool = False) -> int:
    """``stud8 admin log [--player NAME] [--limit N] [--json]``: the moderation log,
    newest first; the exit code."""
    try:
        with room_database(url) as engine:
            acts = Moderation(engine, Ledger(engine)).log(player=player, limit=limit)
    except NoSchemaError as exc:
        print(json.dumps({"error": str(exc)}) if as_json else f"log: {exc}")
        return 2
    if as_json:
        print(json.dumps({"log": [act_json(act) for act in acts]}, indent=2))
    elif not acts:
        print("the moderation log is empty" + (f" for {player}" if player else ""))
    else:
        for act in acts:
            print(_line(act))
    return 0
