"""Player accounts: registration, passwords, log-in sessions, roles.

A player has a unique name (:data:`~stud8.server.wire.limits.NAME_CHARS` letters,
digits, ``_`` or ``-``; unique regardless of case, so ``Ann`` and ``ann`` cannot
both exist), a password (:data:`~stud8.server.wire.limits.PASSWORD_CHARS`)
hashed with argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`, with
:func:`default_hasher`'s parameters) and a role,
``player`` or ``operator``. A new account gets its play chips as a ``grant``
through the ledger (:attr:`Accounts.opening_chips`, 10,000 by default).

Logging in gives a random session token; only its sha256 is stored, with an
expiry. A wrong password and an unknown name get the same refusal (and an
unknown name still costs one argon2 verification, so the time does not tell
them apart either).

>>> from argon2 import PasswordHasher, Type
>>> from stud8.server.books.ledger import Ledger, retryable, bank
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for("sqlite://")
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> accounts = Accounts(engine, ledger, hasher=PasswordHasher(time_cost=1, memory_cost=64))
>>> accounts.register("ann", "correct horse").name
'ann'
>>> ledger.balance(bank("ann"))
10000
>>> token = accounts.login("ann", "correct horse")
>>> accounts.player_for_token(token).name
'ann'
>>> accounts.logout(token)
>>> accounts.player_for_token(token) is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from stud8.server.accounts.passwords import password_problem
from stud8.server.books.ledger import Ledger, retryable
from stud8.server.storage.db import reads_of, session_factory
from stud8.server.storage.models import LoginSession, as_utc
from stud8.server.storage.models import Player as PlayerRow
from stud8.server.wire.limits import NAME_CHARS, PASSWORD_CHARS
from stud8.server.wire.limits import NAME_PATTERN as NAME_RULE

IN_LIST = 500  # keys in one query's IN (...): a sweep of many sockets is a few queries


def _in_lists(keys: list[str]) -> list[list[str]]:
    """``keys`` in runs of :data:`IN_LIST`."""
    return [keys[start : start + IN_LIST] for start in range(0, len(keys), IN_LIST)]


ROLES = ("player", "operator", "banned")  # banned: may not log in; his sessions end
NAME_PATTERN = re.compile(NAME_RULE)
MIN_PASSWORD, MAX_PASSWORD = PASSWORD_CHARS
NAME_RULE_TEXT = f"a name is {NAME_CHARS[0]} to {NAME_CHARS[1]} letters, digits, '_' or '-'"
DEFAULT_OPENING_CHIPS = 10_000
DEFAULT_SESSION_TTL = timedelta(days=30)
BAD_LOGIN = "wrong name or password"
ARGON2_TIME_COST = 2
ARGON2_MEMORY_KIB = 19_456
ARGON2_LANES = 1


# ----------------------------------------------------------------- errors
# One hierarchy for the database's accounts and the app's Auth alike: each refusal is
# of one of the four kinds the app answers (400, 409, 401, 404), so nothing
# translates one error into another.
class AccountError(ValueError):
    """A refused account operation; nothing was changed."""


class InvalidCredentialsError(AccountError):
    """A name or a password that is not acceptable (its length, its letters)."""


class BadNameError(InvalidCredentialsError):
    """The name is not of the allowed length or letters (``wire.limits``)."""


class WeakPasswordError(InvalidCredentialsError):
    """The password is too short or too long, blank, the name, or a common one."""


class NameTakenError(AccountError):
    """Another player has this name (in any case), or a bot's name."""


class LoginRefusedError(AccountError):
    """A wrong name or password (one refusal for both), or a banned account."""


class BadLoginError(LoginRefusedError):
    """Unknown name or wrong password (one message for both)."""

    def __init__(self) -> None:
        super().__init__(BAD_LOGIN)


class BannedError(LoginRefusedError):
    """The account is banned (said only to whoever gave its right password)."""


class NoSuchAccountError(AccountError):
    """No account has this name."""


class UnknownPlayerError(NoSuchAccountError):
    """No player has this name."""


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player."""

    id: int
    name: str
    role: str
    created_at: datetime

    @property
    def is_operator(self) -> bool:
        return self.role == "operator"


def validate_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise BadNameError(
            f"{NAME_RULE_TEXT}, not {name!r}"
            if isinstance(name, str) and len(name) <= 40
            else NAME_RULE_TEXT
        )
    return name


def validate_password(password: str, name: str | None = None) -> str:
    """``password`` if a room accepts it for ``name`` (:mod:`.passwords`)."""
    problem = password_problem(password, name)
    if problem is not None:
        raise WeakPasswordError(problem)
    return password


def token_digest(token: str) -> str:
    """The sha256 (hex) under which a session token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _player(row: PlayerRow) -> Player:
    return Player(row.id, row.name, row.role, as_utc(row.created_at))


def default_hasher() -> PasswordHasher:
    """argon2id with OWASP's recommended parameters (Password Storage Cheat
    Sheet: 19 MiB of memory, 2 passes, 1 lane): a few tens of milliseconds of one
    core per hash, so a burst of sign-ups neither takes minutes nor, with the
    hashes in a small pool (:mod:`stud8.server.accounts.database`), piles up memory.
    Hashes made with other parameters still verify, and are renewed at the next
    log-in (``check_needs_rehash``)."""
    return PasswordHasher(
        time_cost=ARGON2_TIME_COST,
        memory_cost=ARGON2_MEMORY_KIB,
        parallelism=ARGON2_LANES,
        type=Type.ID,
    )


class Accounts:
    """The players of a room, on a migrated database, with their chips in ``ledger``."""

    def __init__(
        self,
        engine: Engine,
        ledger: Ledger,
        *,
        hasher: PasswordHasher | None = None,
        opening_chips: int = DEFAULT_OPENING_CHIPS,
        session_ttl: timedelta = DEFAULT_SESSION_TTL,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        if opening_chips < 0:
            raise ValueError(f"opening chips must be >= 0, not {opening_chips}")
        self.engine = engine
        self.ledger = ledger
        self.hasher = hasher or default_hasher()
        self.opening_chips = opening_chips
        self.session_ttl = session_ttl
        self._clock = clock
        self._sessions = session_factory(engine)
        # lookups: they take no lock (a websocket's token is read while the room writes)
        self._reads = session_factory(reads_of(engine))
        self._dummy_hash: str | None = None

    # ------------------------------------------------------------ accounts
    def register(self, name: str, password: str, *, role: str = "player") -> Player:
        """A new player with his opening chips granted through the ledger."""
        validate_name(name)
        validate_password(password, name)
        if role not in ROLES:
            raise AccountError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
        key = name.casefold()
        password_hash = self.hasher.hash(password)
        for attempt in range(self.ledger.attempts):
            try:
                return self._insert(name, key, password_hash, role)
            except IntegrityError:
                if self.get(name) is not None:  # a concurrent registration won the name
                    raise NameTakenError(f"the name {name!r} is taken") from None
                if attempt == self.ledger.attempts - 1:  # someone made the same account
                    raise
            except DBAPIError as error:
                if attempt == self.ledger.attempts - 1 or not retryable(error):
                    raise
            time.sleep(0.005 * (attempt + 1))
        raise AssertionError("unreachable")

    def _insert(self, name: str, key: str, password_hash: str, role: str) -> Player:
        # the player and his opening chips in one transaction (one commit)
        with self._sessions.begin() as session:
            if session.scalar(select(PlayerRow.id).where(PlayerRow.name_key == key)):
                raise NameTakenError(f"the name {name!r} is taken")
            row = PlayerRow(name=name, name_key=key, password_hash=password_hash, role=role)
            session.add(row)
            session.flush()
            player = _player(row)
            if self.opening_chips:
                self.ledger.grant(
                    name, self.opening_chips, memo="opening chips", conn=session.connection()
                )
        return player

    def ensure_operators(self, names: Iterable[str]) -> tuple[dict[str, str], list[str]]:
        """Each of ``names`` an operator's account: made now with a one-time random
        password where there is none. Returns those made (name: password) and the
        names that are a *player's* account, which are not made operators (whoever
        registered the name first may not be the operator: ``stud8 admin
        create-operator NAME --promote`` does it, knowingly)."""
        made: dict[str, str] = {}
        players: list[str] = []
        for name in names:
            found = self.get(name)
            if found is None:
                password = secrets.token_urlsafe(12)
                self.register(name, password, role="operator")
                made[name] = password
            elif not found.is_operator:
                players.append(found.name)
        return made, players

    def get(self, name: str) -> Player | None:
        """The player of that name (any case), if any."""
        with self._reads() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.name_key == name.casefold()))
            return None if row is None else _player(row)

    def make_operator(self, name: str) -> Player:
        """Give a player the operator role."""
        return self._set_role(name, "operator")

    def make_player(self, name: str) -> Player:
        """Take the operator role away."""
        return self._set_role(name, "player")

    def _set_role(self, name: str, role: str) -> Player:
        with self._sessions.begin() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.name_key == name.casefold()))
            if row is None:
                raise UnknownPlayerError(f"no player {name!r}")
            row.role = role
            return _player(row)

    def ban(self, name: str) -> Player:
        """Ban the player: he may no longer log in, and every session of his ends."""
        with self._sessions.begin() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.name_key == name.casefold()))
            if row is None:
                raise UnknownPlayerError(f"no player {name!r}")
            row.role = "banned"
            session.execute(delete(LoginSession).where(LoginSession.player_id == row.id))
            return _player(row)

    def change_password(self, name: str, old: str, new: str) -> None:
        """Replace the password (the old one must be right); ends his sessions."""
        player = self._verify(name, old)
        validate_password(new, player.name)
        password_hash = self.hasher.hash(new)
        with self._sessions.begin() as session:
            row = session.get(PlayerRow, player.id)
            assert row is not None
            row.password_hash = password_hash
            session.execute(delete(LoginSession).where(LoginSession.player_id == player.id))

    # ------------------------------------------------------------ sessions
    def login(self, name: str, password: str) -> str:
        """A new session token for the player (:class:`BadLoginError` if the name
        or the password is wrong)."""
        player = self._verify(name, password)
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._sessions.begin() as session:
            session.add(
                LoginSession(
                    token_hash=token_digest(token),
                    player_id=player.id,
                    created_at=now,
                    expires_at=now + self.session_ttl,
                )
            )
        return token

    def player_for_token(self, token: str) -> Player | None:
        """The player a live session token belongs to; None if unknown or expired."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        with self._reads() as session:
            found = session.execute(
                select(PlayerRow, LoginSession.expires_at)
                .join(LoginSession, LoginSession.player_id == PlayerRow.id)
                .where(LoginSession.token_hash == token_digest(token))
            ).first()
            if found is None or as_utc(found[1]) <= self._clock() or found[0].role == "banned":
                return None
            return _player(found[0])

    def live_tokens(self, tokens: Iterable[str]) -> set[str]:
        """Those of ``tokens`` whose session is live (not ended, not expired, the
        player not banned): one query per :data:`IN_LIST` tokens."""
        digests = {token_digest(t): t for t in tokens if isinstance(t, str) and len(t) <= 200}
        live: set[str] = set()
        with self._reads() as session:
            for some in _in_lists(list(digests)):
                rows = session.execute(
                    select(LoginSession.token_hash)
                    .join(PlayerRow, LoginSession.player_id == PlayerRow.id)
                    .where(LoginSession.token_hash.in_(some))
                    .where(LoginSession.expires_at > self._clock())
                    .where(PlayerRow.role != "banned")
                )
                live.update(digests[digest] for (digest,) in rows)
        return live

    def banned(self, names: Iterable[str]) -> set[str]:
        """Those of ``names`` (case-folded) whose account is banned: one query per
        :data:`IN_LIST` names."""
        keys = sorted({name.casefold() for name in names if isinstance(name, str)})
        found: set[str] = set()
        with self._reads() as session:
            for some in _in_lists(keys):
                found.update(
                    session.scalars(
                        select(PlayerRow.name_key)
                        .where(PlayerRow.name_key.in_(some))
                        .where(PlayerRow.role == "banned")
                    )
                )
        return found

    def logout(self, token: str) -> None:
        """End the session (nothing happens if the token is unknown)."""
        with self._sessions.begin() as session:
            session.execute(
                delete(LoginSession).where(LoginSession.token_hash == token_digest(token))
            )

    def logout_everywhere(self, name: str) -> int:
        """End every session of the player; how many there were."""
        with self._sessions.begin() as session:
            ids = select(PlayerRow.id).where(PlayerRow.name_key == name.casefold())
            result = session.execute(delete(LoginSession).where(LoginSession.player_id.in_(ids)))
            return int(getattr(result, "rowcount", 0) or 0)

    def purge_expired(self) -> int:
        """Delete the expired sessions; how many."""
        with self._sessions.begin() as session:
            result = session.execute(
                delete(LoginSession).where(LoginSession.expires_at <= self._clock())
            )
            return int(getattr(result, "rowcount", 0) or 0)

    # ------------------------------------------------------------ passwords
    def _verify(self, name: str, password: str) -> Player:
        if not isinstance(name, str) or not isinstance(password, str):
            raise BadLoginError()
        if len(password) > MAX_PASSWORD or len(name) > 40:
            raise BadLoginError()
        with self._sessions() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.name_key == name.casefold()))
            if row is None:
                self._waste_time(password)
                raise BadLoginError()
            player, stored = _player(row), row.password_hash
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            raise BadLoginError() from None
        if player.role == "banned":
            raise BannedError("this account is banned")
        if self.hasher.check_needs_rehash(stored):
            with self._sessions.begin() as session:
                fresh = session.get(PlayerRow, player.id)
                if fresh is not None:
                    fresh.password_hash = self.hasher.hash(password)
        return player

    def _waste_time(self, password: str) -> None:
        """Verify against a throwaway hash, as long as a real verification takes."""
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_hex(16))
        with contextlib.suppress(VerificationError, InvalidHashError):
            self.hasher.verify(self._dummy_hash, password)
