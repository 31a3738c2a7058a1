"""The operator's console's REST bodies (``/api/v1/admin/...``), as typed Structs.

As :mod:`stud8.server.wire.rest`: each class is a JSON object (its fields are the
JSON fields) and :data:`ADMIN_ENDPOINTS` says which goes where, for the generated
schemas of ``docs/protocol.md``. Every endpoint is for operators only: 401 without
a session, 403 for a player. Money is in whole chips; times are ISO 8601 in UTC.
A room in memory keeps no books to moderate: its ``/api/v1/admin/...`` answer 404.
"""

from __future__ import annotations

import enum

import msgspec

from stud8.server.wire.rest import Endpoint, LobbyNotice
from stud8.tournament.director import Phase

__all__ = [
    "ADMIN_ENDPOINTS",
    "AccountDetail",
    "AccountSeat",
    "AccountSession",
    "ActRequest",
    "Audit",
    "ChipsRequest",
    "ConsoleTable",
    "ConsoleTables",
    "ConsoleTournament",
    "ConsoleTournamentTable",
    "ConsoleTournaments",
    "FairnessReport",
    "FairnessRequest",
    "FairnessTest",
    "Journal",
    "JournalEntry",
    "JournalQuery",
    "JournalTransaction",
    "LogQuery",
    "LoggedAct",
    "MessageRequest",
    "ModerationAct",
    "ModerationLog",
    "NodeLine",
    "NodeLines",
    "OnlinePlayer",
    "OnlinePlayers",
    "Rake",
    "RakeBy",
    "RakeLine",
    "RakeQuery",
    "RecentHand",
    "SilenceRequest",
]


# The console's kinds, the books' too (books/moderation.py, books/journal.py import them)
class ModerationAct(enum.Enum):
    """What an operator did (the log's ``act``)."""

    BAN = "ban"
    UNBAN = "unban"
    SILENCE = "silence"
    UNSILENCE = "unsilence"
    CREDIT = "credit"
    DEBIT = "debit"
    MESSAGE = "message"  # a lobby message posted
    WITHDRAW = "withdraw"  # the lobby message withdrawn


class RakeBy(enum.Enum):
    """How the rake is summed."""

    DAY = "day"
    TABLE = "table"
    STAKES = "stakes"


class OnlinePlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player connected to the room (a table websocket open, on any node) or
    seated at one of its tables: the tables he ``watches`` (his websockets on this
    node, and the tables that count him among their viewers through any node),
    those he ``sits`` at, and whether he is ``connected`` now."""

    name: str
    connected: bool
    watches: list[str]
    sits: list[str]


class OnlinePlayers(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: list[OnlinePlayer]


class AccountSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    table_id: str
    seat: int
    chips: int


class AccountSession(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A live log-in session: when it began and when it expires, the client's
    ``address`` it was last seen from (its log-in, or a websocket from elsewhere, on
    any node; null: not known) and when (``seen_at``)."""

    started_at: str
    expires_at: str
    address: str | None = None
    seen_at: str | None = None


class RecentHand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hand he played (``recorded``: its whole record is kept, to replay with
    every card: ``GET /api/v1/hands/{hand_id}/replay``)."""

    hand_id: str
    table_id: str
    recorded: bool


class LoggedAct(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One act of the moderation log: when, which ``operator``, what (``act``), on
    which ``player`` (null: the lobby's message), why; a credit's or debit's
    ``amount`` and ledger ``transaction``; a silence's end (``until``; null: for
    good)."""

    id: int
    at: str
    operator: str
    act: ModerationAct
    player: str | None
    reason: str
    amount: int | None
    until: str | None
    transaction: int | None


class AccountDetail(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An account as the operator sees it: its ``role`` (``player``, ``operator``,
    ``banned``), its bank, whether it is silenced (and until when), its seats with
    their chips, its live sessions, its ``addresses`` (those its live sessions were
    last seen from, on any node, and those of its websockets open on this node), its
    recent hands and the moderation log's last acts on it."""

    name: str
    role: str
    balance: int
    silenced: bool
    silenced_until: str | None
    seats: list[AccountSeat]
    sessions: list[AccountSession]
    addresses: list[str]
    hands: list[RecentHand]
    log: list[LoggedAct]


class ActRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Why (1 to 500 characters; kept in the moderation log)."""

    reason: str


class SilenceRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Why, and for how many ``minutes`` (null or absent: for good)."""

    reason: str
    minutes: int | None = None


class ChipsRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Whole chips (1 or more) and why (the transaction's memo)."""

    amount: int
    reason: str


class MessageRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The lobby's message (1 to 500 characters)."""

    text: str


class LogQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Only the acts on ``player``; the last ``limit`` (1 to 1000, default 100)."""

    player: str | None = None
    limit: int | None = None


class ModerationLog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    log: list[LoggedAct]


class JournalQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The transactions touching ``account`` (a ledger account's name: ``bank:ann``,
    ``rake:t1``, ``table:t1:ann``), of ``kind``, on ``day`` (YYYY-MM-DD, UTC), with an
    id under ``before`` (the next page); the last ``limit`` (1 to 1000, default
    100); ``format=csv``: as CSV, one line per entry."""

    account: str | None = None
    kind: str | None = None
    day: str | None = None
    before: int | None = None
    limit: int | None = None
    format: str | None = None


class JournalEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    account: str
    amount: int


class JournalTransaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A transaction: its entries sum to zero; ``hand_id`` for a hand's settlement
    or refund; ``memo`` (a credit's or debit's reason)."""

    id: int
    at: str
    kind: str
    hand_id: str | None
    memo: str
    entries: list[JournalEntry]


class Journal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The transactions, newest first."""

    transactions: list[JournalTransaction]


class RakeQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``by``: ``day``, ``table`` or ``stakes``."""

    by: RakeBy


class RakeLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The rake of one day (YYYY-MM-DD, UTC), table or stakes (``small/big``), from
    how many ``transactions`` (each a hand's settlement, or a rake taken)."""

    key: str
    transactions: int
    rake: int


class Rake(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    by: RakeBy
    lines: list[RakeLine]
    total: int


class ConsoleTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table now: who sits there (``players``, bots too), whether it is
    ``dealing`` (open, not paused, two or more seated), why it is ``paused`` (its
    books cannot be written, or they diverged) or null, its hands an hour and
    average pot over the last hour, the rake its hands paid today (UTC), and the
    ``node`` that runs it (null: a room in one process)."""

    table_id: str
    name: str
    private: bool
    small_bet: int
    big_bet: int
    seats: int
    players: list[str]
    waiting: int
    dealing: bool
    paused: str | None
    hands_played: int
    hands_per_hour: float
    average_pot: float
    rake_today: int
    node: str | None


class ConsoleTables(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tables: list[ConsoleTable]


class ConsoleTournamentTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of a tournament's tables now: its room table's id and who sits there."""

    table_id: str
    players: list[str]


class ConsoleTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tournament registering or running, as the operator watches it: its
    ``entries`` (re-entries count) and ``players_left``, the ``level`` now (1 before
    the start) and its stakes (``small_bet``, ``big_bet``, ``ante``), on a break or
    not, the seconds left of the level (null: none due, or counted in hands), its
    tables with their players, the prize pool, and in a room on several nodes the
    ``node`` that runs it (null: one process, or nobody this moment)."""

    tournament_id: int
    name: str
    phase: Phase
    entries: int
    players_left: int
    level: int
    small_bet: int
    big_bet: int
    ante: int
    on_break: bool
    seconds_left: float | None
    tables: list[ConsoleTournamentTable]
    prize_pool: int
    node: str | None


class ConsoleTournaments(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournaments: list[ConsoleTournament]


class NodeLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A node of the room: its ``url``, the ``tables`` it runs (its heartbeat's load,
    tournaments' tables too), the ``players`` seated at them, the table ``leases``
    it holds, whether it is ``draining``, and how many seconds ago it last beat
    (``beat_age``; a room in one process: 0)."""

    name: str
    url: str
    tables: int
    players: int
    leases: int
    draining: bool
    beat_age: float


class NodeLines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``clustered``: a room on several nodes (drain and undo are for those); else
    one line, the process itself."""

    clustered: bool
    nodes: list[NodeLine]


class Audit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The books checked now (``stud8 admin audit``): the chips ``issued`` equal the
    chips held (``banks + tables + pots + rake + prizes + fees``); every transaction
    balances; and (``hands_and_seats``) every hand has its settlement and every seat
    its chips. ``problems`` says what does not hold (empty: ``ok``)."""

    ok: bool
    issued: int
    held: int
    banks: int
    tables: int
    pots: int
    rake: int
    prizes: int
    fees: int
    accounts: int
    transactions: int
    entries: int
    problems: list[str]


class FairnessRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How many ``deals`` of the room's shuffle to test (1,000 to 200,000; default
    25,000: a few seconds)."""

    deals: int = 25_000


class FairnessTest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One test of the report: its key, what it is, its p-value (Holm-adjusted:
    ``adjusted``) and verdict (``pass``, ``fail``, ``not run``)."""

    key: str
    title: str
    p_value: float | None
    adjusted: float | None
    verdict: str


class FairnessReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The last fairness report kept (``stud8 admin rng-report``'s, in short: the
    same on every node, across restarts), or its fields null if none yet: when it
    was made, who ran it (``run_by``: an operator, or the command), on how many
    deals; ``running``: one is being run now on this node."""

    running: bool
    made_at: str | None = None
    run_by: str | None = None
    description: str | None = None
    deals: int | None = None
    seconds: float | None = None
    verdict: str | None = None
    failed: list[str] = []
    power: str | None = None
    tests: list[FairnessTest] = []


def _act(verb: str, doc: str, request: type = ActRequest) -> Endpoint:
    path = f"/api/v1/admin/accounts/{{name}}/{verb}"
    return Endpoint("POST", path, doc, request, LoggedAct, login=True)


ADMIN_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/v1/admin/players",
        "The players connected to this node or seated at a table of the room, and where.",
        None,
        OnlinePlayers,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/accounts/{name}",
        "An account: bank, seats, sessions, addresses, recent hands, moderation. 404 if none.",
        None,
        AccountDetail,
        login=True,
    ),
    _act("credit", "Issue chips to his bank (the ledger's credit), logged.", ChipsRequest),
    _act("debit", "Take chips from his bank; 400 if it holds fewer. Logged.", ChipsRequest),
    _act(
        "ban",
        "Ban the account: no more log-ins, its sessions end, its websockets close (4403). "
        "400 if banned already or an operator's. Logged.",
    ),
    _act("unban", "Lift the ban: he may log in again. 400 if not banned. Logged."),
    _act(
        "silence",
        "Silence him at every table, for minutes (ending by itself) or for good. Logged.",
        SilenceRequest,
    ),
    _act("unsilence", "He may chat again. 400 if he is not silenced. Logged."),
    Endpoint(
        "GET",
        "/api/v1/admin/journal",
        "The ledger's transactions with their entries and memo, newest first (or CSV).",
        JournalQuery,
        Journal,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/rake",
        "The rake by day, table or stakes.",
        RakeQuery,
        Rake,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/log",
        "The moderation log, newest first.",
        LogQuery,
        ModerationLog,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/admin/message",
        "Show a message to everyone (the lobby's answer carries it) until withdrawn; it "
        "replaces the one shown. Logged.",
        MessageRequest,
        LobbyNotice,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/admin/message",
        "Withdraw the lobby's message (404 if none is shown). Logged.",
        None,
        LobbyNotice,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/tables",
        "Every table of the room now: dealing or paused (and why), hands an hour, "
        "average pot, rake today, its node.",
        None,
        ConsoleTables,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/tournaments",
        "The tournaments registering or running now: entries, players left, level and "
        "its stakes, time left, tables and their players, prize pool, its node.",
        None,
        ConsoleTournaments,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/nodes",
        "The room's nodes: tables, players, leases, heartbeat, draining (one line for a "
        "room in one process).",
        None,
        NodeLines,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/admin/nodes/{node}/drain",
        "Drain a node (it hands its tables over between hands, takes no more; "
        "stud8 admin drain). 404 if no such node is live; 400 in one process.",
        None,
        NodeLines,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/admin/nodes/{node}/drain",
        "Call a drain off (stud8 admin drain --undo): the node takes tables again.",
        None,
        NodeLines,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/audit",
        "The books audited now (stud8 admin audit): the ledger's figures and problems.",
        None,
        Audit,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/admin/fairness",
        "The last fairness report kept (the same on every node), and whether one is "
        "running on this node.",
        None,
        FairnessReport,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/admin/fairness",
        "Run a short fairness report on the room's shuffle (off the event loop: the "
        "room keeps serving), kept as the last report for every node; its answer when "
        "done. 409 if one is running on this node.",
        FairnessRequest,
        FairnessReport,
        login=True,
    ),
)
