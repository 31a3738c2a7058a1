"""The server's settings: each defined once, with its help, flag and variable.

Every field of :class:`Settings` is a setting; its metadata (:func:`setting`) says
what it means, and its flag (``--port``) and environment variable (``STUD8_PORT``)
are derived from its name unless it keeps an older one (``--database``,
``STUD8_REDIS``). Its type is the field's. :mod:`stud8.server.settings.sources` reads
them from flags, variables and a TOML file (flag > variable > file > default), adds
the flags to ``stud8 serve`` and writes ``docs/settings.md``, the table of them all.

>>> Settings(port=9000).port
9000
>>> [s.flag for s in SETTINGS][:3]
['--host', '--port', '--database']
"""

from __future__ import annotations

import enum
import ipaddress
import re
import socket
import typing
from dataclasses import dataclass, field, fields
from typing import Any

NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class LogFormat(enum.Enum):
    """How the server writes its log lines."""

    TEXT = "text"  # a time, the logger's name and the message
    JSON = "json"  # one JSON object a line


def setting(
    default: Any,
    help: str,
    *,
    flag: str | None = None,
    env: str | None = None,
    metavar: str | None = None,
    shown: str | None = None,
) -> Any:
    """A field of :class:`Settings`: its default and what it is for (``help``);
    ``flag`` and ``env`` only where they are not the name's (``--NAME``,
    ``STUD8_NAME``); ``shown``: the default as the docs say it, where its value
    does not say it (the node's name)."""
    meta = {"help": help, "flag": flag, "env": env, "metavar": metavar, "shown": shown}
    return field(default=default, metadata={"setting": meta})


LOOPBACK = ("127.0.0.1", "::1")


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    host: str = setting("127.0.0.1", "address to listen on")
    port: int = setting(8000, "port to listen on (0 to 65535)")
    database_url: str = setting(
        "sqlite:///stud8.db",
        "the room's database: sqlite:///FILE, or postgresql://... for PostgreSQL",
        flag="--database",
        metavar="URL",
    )
    default_tables: int = setting(
        2, "ready tables with bots, made on the room's first start (0 to 100)", flag="--tables"
    )
    bots_per_table: int = setting(3, "bots at each ready table")
    starting_chips: int = setting(
        10_000, "play chips a new account gets (0 for a room that sells its chips)"
    )
    operators: tuple[str, ...] = setting(
        (),
        "operators' names (comma separated in a flag or variable): each one with no "
        "account yet is made an operator at the start, with a one-time password in the log",
        metavar="NAMES",
    )
    redis_url: str | None = setting(
        None,
        "run as one node of a room on several nodes: the room's Redis "
        "(redis://HOST:PORT/N), with a shared PostgreSQL database",
        flag="--redis",
        env="STUD8_REDIS",
        metavar="URL",
        shown="none: one process",
    )
    node: str | None = setting(
        None,
        "this node's name in a room on several nodes",
        metavar="NAME",
        shown="the host's name and the port",
    )
    public_url: str | None = setting(
        None,
        "this node's address for the players' clients (http(s)://HOST[:PORT]) in a room "
        "on several nodes: the other nodes send a table's players here when it runs the "
        "table, and this node sends them to the node that does",
        metavar="URL",
        shown="none: a node relays every table",
    )
    rate_per_second: float = setting(20.0, "messages a second one connection may send")
    rate_burst: int = setting(40, "messages one connection may send in a burst")
    account_rate: float = setting(30.0, "messages a second of all an account's connections")
    account_burst: int = setting(60, "messages in a burst of all an account's connections")
    address_rate: float = setting(60.0, "messages a second of all the connections of an address")
    address_burst: int = setting(120, "messages in a burst of all the connections of an address")
    account_sockets: int = setting(8, "open table websockets of one account, at most")
    address_sockets: int = setting(64, "open table websockets from one address, at most")
    login_failures: int = setting(5, "wrong passwords for an account in login_period")
    login_period: float = setting(60.0, "seconds in which login_failures are counted")
    address_failures: int = setting(20, "wrong passwords from an address in address_period")
    address_period: float = setting(900.0, "seconds in which address_failures are counted")
    signups: int = setting(5, "new accounts from an address in signup_period")
    signup_period: float = setting(3600.0, "seconds in which signups are counted")
    replay_files: int = setting(
        30, "hand history files an address sends the replayer in replay_period"
    )
    replay_period: float = setting(60.0, "seconds in which replay_files are counted")
    equity_requests: int = setting(
        60, "hands an address asks the replayer's equity of in equity_period"
    )
    equity_period: float = setting(60.0, "seconds in which equity_requests are counted")
    players_create_private: bool = setting(
        False, "players, not only operators, may open private tables"
    )
    private_tables_per_player: int = setting(3, "private tables a player may have open at once")
    forwarded_allow_ips: tuple[str, ...] = setting(
        LOOPBACK,
        "addresses or networks (comma separated) of the reverse proxies whose "
        "X-Forwarded-For is trusted: a request through one of them is the address it "
        "names, for every per-address limit",
        metavar="ADDRESSES",
    )
    metrics_host: str = setting(
        "127.0.0.1", "address of the separate /metrics listener (with metrics_port)"
    )
    metrics_port: int | None = setting(
        None,
        "serve /metrics, to anybody, on this port of metrics_host too (without it: "
        "GET /metrics on the room's port, to operators only)",
        shown="none",
    )
    log_format: LogFormat = setting(  # noqa: RUF009 (a field(), as every setting)
        LogFormat.TEXT, "the log's lines: text, or json (one object a line)"
    )
    stop_seconds: float = setting(
        120.0,
        "on SIGTERM, how long the hands in play may take to finish before they are "
        "cancelled and refunded",
        metavar="SECONDS",
    )

    def __post_init__(self) -> None:
        for port in (self.port, self.metrics_port):
            if port is not None and not 0 <= port <= 65535:
                raise ValueError(f"a port is 0 to 65535, not {port}")
        if self.default_tables < 0 or self.bots_per_table < 0 or self.starting_chips < 0:
            raise ValueError("default_tables, bots_per_table and starting_chips are 0 or more")
        if self.default_tables > 100:
            raise ValueError(f"default_tables is at most 100, not {self.default_tables}")
        if (
            min(self.rate_per_second, self.account_rate, self.address_rate) <= 0
            or min(self.rate_burst, self.account_burst, self.address_burst) < 1
            or min(self.account_sockets, self.address_sockets, self.private_tables_per_player) < 1
        ):
            raise ValueError(
                "the rate limits and the caps on sockets and private tables must be positive"
            )
        if (
            min(
                self.login_failures,
                self.address_failures,
                self.signups,
                self.replay_files,
                self.equity_requests,
            )
            < 1
            or min(self.login_period, self.address_period, self.signup_period) <= 0
            or min(self.replay_period, self.equity_period) <= 0
        ):
            raise ValueError(
                "the limits on log-ins, sign-ups, replayed files and equities must be positive"
            )
        if self.node is not None and not NODE_NAME.fullmatch(self.node):
            raise ValueError(
                f"a node's name is 1 to 64 letters, digits, '.', '_' or '-', not {self.node!r}"
            )
        if self.public_url is not None and not self.public_url.startswith(("http://", "https://")):
            raise ValueError(
                f"a public URL starts with http:// or https://, not {self.public_url!r}"
            )
        if self.redis_url is not None and not self.redis_url.startswith(("redis://", "rediss://")):
            raise ValueError(
                f"a Redis URL starts with redis:// or rediss://, not {self.redis_url!r}"
            )
        for address in self.forwarded_allow_ips:
            try:
                ipaddress.ip_network(address, strict=False)
            except ValueError:
                raise ValueError(
                    f"forwarded_allow_ips: {address!r} is not an address or a network"
                ) from None
        if self.stop_seconds < 0:
            raise ValueError(f"stop_seconds is 0 or more, not {self.stop_seconds}")

    @property
    def node_name(self) -> str:
        """This node's name in a room on several nodes."""
        return self.node or f"{socket.gethostname()}-{self.port}"

    @classmethod
    def from_env(cls, environ: typing.Mapping[str, str] | None = None) -> Settings:
        """The settings from the ``STUD8_*`` variables (``os.environ`` by default).

        >>> Settings.from_env({"STUD8_PORT": "9000", "STUD8_OPERATORS": "root, ops"}).operators
        ('root', 'ops')
        """
        from stud8.server.settings.sources import load

        return load(environ=environ)

    def with_overrides(self, **overrides: Any) -> Settings:
        """These settings with the given values (None values are ignored: flags not given)."""
        from dataclasses import replace

        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


@dataclass(frozen=True, slots=True)
class SettingInfo:
    """One setting as the flags, the variables, the file and the docs know it."""

    name: str
    kind: Any  # the field's type: str, int, float, bool, tuple[str, ...], X | None, an enum
    default: Any
    help: str
    flag: str
    env: str
    metavar: str | None
    shown: str | None

    @property
    def optional(self) -> bool:
        return type(None) in typing.get_args(self.kind)

    @property
    def base(self) -> Any:
        """The type without its ``None``: ``int`` for ``int | None``."""
        args = [a for a in typing.get_args(self.kind) if a is not type(None)]
        return args[0] if self.optional else self.kind


def _infos() -> tuple[SettingInfo, ...]:
    hints = typing.get_type_hints(Settings)
    out = []
    for f in fields(Settings):
        meta = f.metadata["setting"]
        out.append(
            SettingInfo(
                name=f.name,
                kind=hints[f.name],
                default=f.default,
                help=meta["help"],
                flag=meta["flag"] or "--" + f.name.replace("_", "-"),
                env=meta["env"] or "STUD8_" + f.name.upper(),
                metavar=meta["metavar"],
                shown=meta["shown"],
            )
        )
    return tuple(out)


SETTINGS: tuple[SettingInfo, ...] = _infos()
