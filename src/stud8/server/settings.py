"""The server's settings, from flags and environment variables (flags win).

=====================  ==========================  ==========================
setting                environment variable        default
=====================  ==========================  ==========================
host                   ``STUD8_HOST``              ``127.0.0.1``
port                   ``STUD8_PORT``              ``8000``
database_url           ``STUD8_DATABASE_URL``      ``sqlite:///stud8.db``
default_tables         ``STUD8_DEFAULT_TABLES``    ``2`` (ready tables with bots)
bots_per_table         ``STUD8_BOTS_PER_TABLE``    ``3``
starting_chips         ``STUD8_STARTING_CHIPS``    ``10000``
operators              ``STUD8_OPERATORS``         (none; comma separated names)
redis_url              ``STUD8_REDIS``             (none: one process; see below)
node                   ``STUD8_NODE``              the host's name and the port
login_failures         ``STUD8_LOGIN_FAILURES``    ``5`` wrong passwords an account a minute
address_failures       ``STUD8_ADDRESS_FAILURES``  ``20`` wrong passwords an address in 15 min
signups                ``STUD8_SIGNUPS``           ``5`` new accounts an address an hour
replay_files           ``STUD8_REPLAY_FILES``      ``30`` files an address sends the
                                                   replayer a minute
account_sockets        ``STUD8_ACCOUNT_SOCKETS``   ``8`` open websockets of an account
address_sockets        ``STUD8_ADDRESS_SOCKETS``   ``64`` open websockets from an address
address_rate, _burst   ``STUD8_ADDRESS_RATE``,     ``60`` messages a second from an
                       ``STUD8_ADDRESS_BURST``     address, bursts of ``120``
=====================  ==========================  ==========================

``players_create_private`` (``--players-create-private``,
``STUD8_PLAYERS_CREATE_PRIVATE=1``; off by default): players, not only operators,
may open private tables (at most ``private_tables_per_player`` open at once each);
an operator may open a private table either way.

With ``redis_url`` the process is one node of a room on several nodes
(:mod:`stud8.server.cluster`): its database must be PostgreSQL, shared by every
node, and each node needs its own name.

Past the limits on log-ins and sign-ups the room answers 429 with ``Retry-After``
(:mod:`stud8.server.http.guard`).

>>> Settings.from_env({"STUD8_PORT": "9000", "STUD8_OPERATORS": "root, ops"}).port
9000
>>> Settings.from_env({"STUD8_OPERATORS": "root, ops"}).operators
('root', 'ops')
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

FLAGS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False,
         "no": False, "off": False}  # fmt: skip
NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///stud8.db"
    default_tables: int = 2
    bots_per_table: int = 3
    starting_chips: int = 10_000
    operators: tuple[str, ...] = ()
    rate_per_second: float = 20.0  # a connection's messages
    rate_burst: int = 40
    # a room on several nodes: Redis (``--redis``, STUD8_REDIS) and this node's name
    # (``--node``, STUD8_NODE; default: the host's name and the port)
    redis_url: str | None = None
    node: str | None = None
    account_rate: float = 30.0  # all the connections of one account together
    account_burst: int = 60
    address_rate: float = 60.0  # all the connections from one address together
    address_burst: int = 120
    account_sockets: int = 8  # open table websockets of one account, at most
    address_sockets: int = 64  # open table websockets from one address, at most
    login_failures: int = 5
    login_period: float = 60.0
    address_failures: int = 20
    address_period: float = 900.0
    signups: int = 5
    signup_period: float = 3600.0
    replay_files: int = 30  # hand history files an address sends the replayer
    replay_period: float = 60.0
    # players may open private tables (``--players-create-private``), at most
    # ``private_tables_per_player`` open at once each
    players_create_private: bool = False
    private_tables_per_player: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"a port is 0 to 65535, not {self.port}")
        if self.default_tables < 0 or self.bots_per_table < 0 or self.starting_chips < 0:
            raise ValueError("default_tables, bots_per_table and starting_chips are 0 or more")
        if (
            min(self.rate_per_second, self.account_rate, self.address_rate) <= 0
            or min(self.rate_burst, self.account_burst, self.address_burst) < 1
            or min(self.account_sockets, self.address_sockets, self.private_tables_per_player) < 1
        ):
            raise ValueError(
                "the rate limits and the caps on sockets and private tables must be positive"
            )
        if (
            min(self.login_failures, self.address_failures, self.signups, self.replay_files) < 1
            or min(self.login_period, self.address_period, self.signup_period) <= 0
            or self.replay_period <= 0
        ):
            raise ValueError("the limits on log-ins, sign-ups and replayed files must be positive")
        if self.node is not None and not NODE_NAME.fullmatch(self.node):
            raise ValueError(
                f"a node's name is 1 to 64 letters, digits, '.', '_' or '-', not {self.node!r}"
            )
        if self.redis_url is not None and not self.redis_url.startswith(("redis://", "rediss://")):
            raise ValueError(
                f"a Redis URL starts with redis:// or rediss://, not {self.redis_url!r}"
            )

    @property
    def node_name(self) -> str:
        """This node's name in a room on several nodes."""
        return self.node or f"{socket.gethostname()}-{self.port}"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, convert in (
            ("host", str),
            ("port", int),
            ("database_url", str),
            ("default_tables", int),
            ("bots_per_table", int),
            ("starting_chips", int),
            ("login_failures", int),
            ("address_failures", int),
            ("signups", int),
            ("replay_files", int),
            ("account_sockets", int),
            ("address_sockets", int),
            ("address_rate", float),
            ("address_burst", int),
        ):
            raw = env.get(f"STUD8_{name.upper()}")
            if raw is not None and raw != "":
                try:
                    values[name] = convert(raw)
                except ValueError:
                    raise ValueError(f"STUD8_{name.upper()}={raw!r} is not valid") from None
        for name, variable in (("redis_url", "STUD8_REDIS"), ("node", "STUD8_NODE")):
            raw = env.get(variable)
            if raw:
                values[name] = raw
        private = env.get("STUD8_PLAYERS_CREATE_PRIVATE", "").strip().lower()
        if private:
            if private not in FLAGS:
                raise ValueError(f"STUD8_PLAYERS_CREATE_PRIVATE={private!r} is not valid")
            values["players_create_private"] = FLAGS[private]
        ops = env.get("STUD8_OPERATORS")
        if ops:
            values["operators"] = tuple(n.strip() for n in ops.split(",") if n.strip())
        return cls(**values)

    def with_overrides(self, **overrides: Any) -> Settings:
        """These settings with the given values (None values are ignored: flags not given)."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})
