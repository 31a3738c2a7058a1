"""The REST API's bodies, as typed dataclasses, and its endpoints.

Each class is the JSON object of a request or an answer (its fields are the JSON
fields); :data:`ENDPOINTS` says which goes where. :mod:`stud8.server.wire.schemas`
generates their JSON schemas for ``docs/protocol.md`` and ``GET /api/v1/schemas``,
and the tests check the server's real answers against them.

Every request that needs a login carries ``Authorization: Bearer <token>``; a
JSON body is sent as ``Content-Type: application/json`` (a page of another site
cannot make a browser post that without asking the room first). An error is
``{"error": reason}`` (:class:`Failure`) with status 400 (a bad request), 401 (no
or unknown token, a wrong password), 403 (not an operator), 404, 409 (a name
taken), 413 (a body over 16 KiB), 415 (a body not sent as JSON) or 429 (too many
log-ins or sign-ups: ``Retry-After`` says how many seconds to wait).
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from stud8.server.table.spec import REVEAL_SECONDS, RULE_OPTIONS, OptionKind, RuleOption, TableSpec
from stud8.server.table.status import TableStatus
from stud8.server.wire.limits import CHAT_CHARS, CHAT_RATE


class Credentials(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A name and a password (their limits: ``NAME_CHARS``, ``PASSWORD_CHARS``)."""

    name: str
    password: str


class Registered(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The new account."""

    name: str
    operator: bool


class LoggedIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A session token (send it as ``Authorization: Bearer <token>``, and to a table
    websocket as the subprotocol ``stud8.token.<token>`` beside ``stud8.v1``), the
    account's name as registered, and whether it is an operator's (who may open and
    close tables)."""

    token: str
    name: str
    operator: bool


class Me(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The logged-in account: its name as registered, whether it is an operator's,
    and its bank ``balance`` in chips (the chips not at a table; null if the room
    keeps no bank)."""

    name: str
    operator: bool
    balance: int | None


class Done(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ok: bool


class Failure(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    error: str


class Stakes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


class BuyIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    min: int
    max: int


class TableInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table's rules (also the ``table`` of a websocket's ``welcome``): its
    ``game`` and betting ``structure``, ``stakes``, ``buy_in`` range and ``seats``;
    its clock: ``action_seconds`` then ``time_bank_seconds`` to act, and
    ``reconnect_seconds`` more, once a turn, for a player who reconnects during it;
    ``timeout_policy`` (what a time-out does, RULES.md section 6:
    ``all_in_protection`` or ``check_or_fold``); ``offer_seconds`` (a freed seat
    held for the waiting list), ``sit_out_seconds`` (a player dealt out this long
    is stood up), ``sit_out_on_timeout`` (a player whose time runs out sits out
    from the next hand until he says he is back: ``come_back``); the rake:
    ``rake_percent`` (a string: ``"5"``, ``"5/2"``) of each pot, at most
    ``rake_cap`` (null: no cap); the showdown's pace:
    ``reveal_seconds`` between two hands turned over (in show order), then
    ``showdown_seconds`` that the results stay before the next deal; the chat:
    ``observer_chat`` (whether viewers who are not seated may chat) and
    ``chat_chars`` (the most characters in a message); ``private``: only the players
    its invitation admitted (and operators) see it; ``rules``: every option of
    RULES.md by name, as chosen for this table (``GET /api/v1/tables/options`` says
    what each is and allows). ``mixed``: a mixed table's game in its histories
    ("Triple Stud"; its ``rules`` say which games it rotates and how often), "" at a
    table of one game; a mixed table's ``game`` is the one it plays now (the lobby's;
    a welcome's, the one it started with: the ``mixed_game`` events and the
    snapshot's ``mixed`` say which it plays)."""

    table_id: str
    name: str
    game: str
    mixed: str
    structure: str
    stakes: Stakes
    buy_in: BuyIn
    seats: int
    action_seconds: int
    time_bank_seconds: int
    reconnect_seconds: int
    timeout_policy: str
    offer_seconds: float
    sit_out_seconds: float
    sit_out_on_timeout: bool
    rake_percent: str
    rake_cap: int | None
    reveal_seconds: float
    showdown_seconds: float
    observer_chat: bool
    chat_chars: int
    private: bool
    rules: dict[str, str | int | bool | None]


class OptionChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One allowed value of an option, and its words."""

    value: str | int
    label: str


class TableOption(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One option of RULES.md an operator may choose for a table (a field of
    ``POST /api/v1/tables``): its ``name``, ``label`` and one line saying what it does
    (``doc``); its ``kind``: ``choice`` (one of ``choices``), ``int`` (a whole
    number of ``minimum`` or more), ``bool`` or ``rate`` (a percentage as text:
    ``"5"``, ``"5/2"``); ``nullable``: null is allowed (none, no cap); ``default``:
    the table's value when nobody chooses (the rule book's)."""

    name: str
    label: str
    doc: str
    kind: OptionKind
    choices: list[OptionChoice]
    minimum: int | None
    nullable: bool
    default: str | int | bool | None


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every option of RULES.md a table may be opened with, in the form's order."""

    options: list[TableOption]


def table_option(option: RuleOption) -> TableOption:
    """An option as ``GET /api/v1/tables/options`` says it."""
    return TableOption(
        name=option.name,
        label=option.label,
        doc=option.doc,
        kind=option.kind,
        choices=[OptionChoice(value, label) for value, label in option.choices],
        minimum=option.minimum,
        nullable=option.nullable,
        default=option.default,
    )


TABLE_OPTIONS = TableOptions([table_option(o) for o in RULE_OPTIONS])


class LobbyTable(TableInfo, frozen=True, forbid_unknown_fields=True):
    """A table as the lobby shows it: its rules (see TableInfo), then
    ``seats_taken``, ``players`` in seat order, ``waiting`` how many are on its
    waiting list; ``average_pot`` and ``hands_per_hour`` over the last hour;
    ``paused``: null, or why the table has stopped dealing (the room cannot write
    its books: the end of its last hand, held back until it is written, or a new
    hand's note; it keeps trying); ``observers``: how many connections watch it
    without a seat (told the lobby at most once a second)."""

    seats_taken: int
    players: list[str]
    waiting: int
    average_pot: float
    hands_per_hour: float
    hands_played: int
    paused: str | None
    observers: int


class LobbyNotice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The operator's message to everyone, shown until it is withdrawn."""

    id: int
    text: str
    posted_by: str
    posted_at: str


class Tables(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The tables this viewer may see (a private table only if its invitation
    admitted him, or he is an operator); ``may_open_private``: whether he may open
    a private table (an operator; a player if the room lets players); ``message``:
    the operator's message to everyone (``POST /api/v1/admin/message``), if any."""

    tables: list[LobbyTable]
    may_open_private: bool = False
    message: LobbyNotice | None = None  # the operator's message to everyone, if any


class InvitationInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A private table's invitation, for its creator and operators: the ``code``
    (null: revoked, no code admits anybody) and the browser client's ``link`` to it
    (``/#/join/<code>``, null without a code)."""

    table_id: str
    creator: str
    code: str | None
    link: str | None


class CreatedTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table opened; a private one's ``invitation``."""

    table: LobbyTable
    invitation: InvitationInfo | None = None


class InvitationCode(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An invitation code to redeem."""

    code: str


class Admitted(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The private table the code admitted the player to (he keeps his access)."""

    table: LobbyTable


class HandsQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The query of ``GET /api/v1/hands``: at most ``limit`` hands (1 to 1000,
    default 50), latest first; ``player`` (a player may name only himself; an
    operator anyone); ``table``: the hands of that table only."""

    limit: int | None = None
    player: str | None = None
    table: str | None = None


class ChatQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The query of ``GET /api/v1/tables/{table_id}/chat``: the lines said during
    hand ``hand`` only (a hand id), else the table's latest; at most ``limit`` (1 to
    500, default 100), oldest first."""

    hand: str | None = None
    limit: int | None = None


class ChatLineInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A line of chat: who said it, its text (text, never markup: show it as text),
    the hand it fell in (null: between hands) and when (ISO 8601, UTC)."""

    player: str
    text: str
    hand_id: str | None
    said_at: str


class ChatLines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    table_id: str
    lines: list[ChatLineInfo]


class Silenced(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who the silence (or its undoing) was for, and whether he is silenced now."""

    player: str
    silenced: bool


class SilencedPlayers(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The players silenced now, by name (an operator's Silence buttons read it)."""

    players: list[str]


class PasswordChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The password now (``old``) and the new one (``new``: the limits of a password)."""

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Endpoint:
    method: str
    path: str
    doc: str
    request: type | None = None  # the JSON body (or the query, for a GET)
    answer: type | None = None  # None: not JSON (see doc)
    status: int = 200
    login: bool = False


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        "/api/v1/register",
        "Open an account, with its play chips. 409 if the name is taken (in any case).",
        Credentials,
        Registered,
        201,
    ),
    Endpoint(
        "POST",
        "/api/v1/login",
        "Log in: a new session token, the account's name and role. 401 if wrong.",
        Credentials,
        LoggedIn,
    ),
    Endpoint(
        "POST",
        "/api/v1/logout",
        "End the session of the bearer token; its table websockets are closed (4401).",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/password",
        "Change the password: every session of the account ends, this one too, and its "
        "table websockets are closed (4401). 401 if old is wrong, 400 if new is refused.",
        PasswordChange,
        Done,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/accounts/{name}/ban",
        "Ban an account (operators only): it may no longer log in, its sessions end and "
        "its table websockets are closed (4403). 404 if there is no such account.",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/me",
        "The account of the bearer token: its name, role and bank balance (the chips not "
        "at a table; a buy-in, a top-up or a cash-out just made is in it).",
        None,
        Me,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/accounts/{name}/silence",
        "Silence a player (operators only): his chat messages are refused, at every "
        "table, with a clear reason. 404 if there is no such account.",
        None,
        Silenced,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/accounts/{name}/silence",
        "Let a silenced player chat again (operators only).",
        None,
        Silenced,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/silenced",
        "The players silenced now (operators only), by name.",
        None,
        SilencedPlayers,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/tables/{table_id}/chat",
        "A table's chat as it was said, with the hand each line fell in: the lines of "
        "one hand (hand=HAND_ID), or the table's latest. Any logged-in account may read "
        f"it (the table's viewers saw it). At most {CHAT_RATE[0]} lines a player every "
        f"{CHAT_RATE[1]:g} s are ever said.",
        ChatQuery,
        ChatLines,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/tables",
        "The lobby: every open table the viewer may see (with a bearer token, the private "
        "tables he was admitted to too; an operator sees them all).",
        None,
        Tables,
    ),
    Endpoint(
        "GET",
        "/api/v1/tables/options",
        "The options of RULES.md a table may be opened with (fields of POST "
        "/api/v1/tables): each one's kind, allowed values, default and what it does.",
        None,
        TableOptions,
    ),
    Endpoint(
        "POST",
        "/api/v1/tables",
        "Open a table (operators only; a player may open a private one if the room lets "
        "players, at most private_tables_per_player open at once): any of the settings, "
        "each with its default; table_id (1 to 32 letters, digits or '_'; never one used "
        "before; operators only) and name are optional; private: true for a table only its "
        "invitation admits to (the answer's invitation; its id, if not given, is random). An "
        "unknown field or a wrong type is a 400.",
        TableSpec,  # with table_id and name
        CreatedTable,
        201,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/tables/{table_id}",
        "Close a table (operators only, and the creator of a private table): a hand in "
        "play is cancelled and refunded, everyone cashes out, and the table does not come "
        "back after a restart. 404 if there is no such table.",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/tables/{table_id}/invitation",
        "A private table's invitation (its creator and operators). 404, the same answer "
        "as for a table that does not exist, to anybody else.",
        None,
        InvitationInfo,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/tables/{table_id}/invitation",
        "A new code for a private table (its creator and operators): the old one no "
        "longer admits anybody; those it admitted keep their access. 404 as above.",
        None,
        InvitationInfo,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/tables/{table_id}/invitation",
        "Revoke a private table's code (its creator and operators): no code admits "
        "anybody until a new one is made. 404 as above.",
        None,
        InvitationInfo,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/invitations",
        "Redeem an invitation code: the player is admitted to its private table for good "
        "(it shows in his lobby; he may watch and sit). 404 for a wrong code, a revoked "
        "one or a closed table's; 429 after too many wrong codes (as log-ins).",
        InvitationCode,
        Admitted,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/hands",
        "Hand histories in PokerStars text (text/plain), hands separated by blank lines. "
        "A player gets his own hands as he saw them at the table (his down cards, the "
        "others' only where shown); an operator gets every card. Hands cancelled by a "
        "restart have no history and are left out. 403 if a player names another.",
        HandsQuery,
        None,
        login=True,
    ),
    Endpoint("GET", "/api/v1/schemas", "These JSON schemas.", None, None),
)


# ------------------------------------------------------------------ a table's bodies
def table_info(table_id: str, name: str, spec: TableSpec) -> TableInfo:
    """What a table is, as the lobby lists it and a websocket's ``welcome`` gives it."""
    rules = spec.rules()
    return TableInfo(
        table_id=table_id,
        name=name or table_id,
        game=rules.game.value,
        mixed=spec.mixed,
        structure=rules.structure.value,
        stakes=Stakes(rules.ante, rules.bring_in, rules.small_bet, rules.big_bet),
        buy_in=BuyIn(spec.min_buy_in, spec.max_buy_in),
        seats=rules.max_seats,
        action_seconds=rules.action_seconds,
        time_bank_seconds=rules.time_bank_seconds,
        reconnect_seconds=rules.reconnect_seconds,
        timeout_policy=rules.timeout_policy.value,
        offer_seconds=spec.offer_seconds,
        sit_out_seconds=spec.sit_out_seconds,
        sit_out_on_timeout=spec.sit_out_on_timeout,
        rake_percent=str(rules.rake_percent),
        rake_cap=rules.rake_cap,
        reveal_seconds=REVEAL_SECONDS,
        showdown_seconds=spec.showdown_seconds,
        observer_chat=spec.observer_chat,
        chat_chars=CHAT_CHARS,
        private=spec.private,
        rules={o.name: getattr(spec, o.name) for o in RULE_OPTIONS},
    )


def lobby_table(table_id: str, name: str, spec: TableSpec, status: TableStatus) -> LobbyTable:
    """A table as the lobby shows it: what it is and how it stands."""
    info = table_info(table_id, name, spec)
    if status.game:  # a mixed table's: the game it plays now
        info = msgspec.structs.replace(info, game=status.game)
    return LobbyTable(
        **{name: getattr(info, name) for name in TableInfo.__struct_fields__},
        seats_taken=len(status.players),
        players=list(status.players),
        waiting=status.waiting,
        average_pot=status.average_pot,
        hands_per_hour=status.hands_per_hour,
        hands_played=status.hands_played,
        paused=status.paused,
        observers=status.observers,
    )
