"""The server's logs without secrets: session tokens are blanked; as text or JSON.

A table websocket carries the session token in its URL (``?token=...``), and
uvicorn prints every request's path with its query string (the access log, and
a line per websocket). :class:`RedactTokens`, a logging filter on uvicorn's
handlers (:func:`uvicorn_log_config`), replaces each token's value before the
line is written.

With ``--log-format json`` (``json_lines``) every line,
the room's and uvicorn's alike, is one JSON object (:class:`JsonLines`: the time,
the level, the logger, the message, and a traceback as one string field), through
the same filter.

>>> redact("GET /ws/v1/tables/t1?token=abc-DEF_123&last_seen=4")
'GET /ws/v1/tables/t1?token=[redacted]&last_seen=4'
"""

from __future__ import annotations

import copy
import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

_TOKEN = re.compile(r"((?:^|[?&;\s])(?:token|access_token)=)[^&\s\"';]*", re.IGNORECASE)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` parameter blanked."""
    return _TOKEN.sub(rf"\g<1>{REDACTED}", text)


class RedactTokens(logging.Filter):
    """Blank the tokens in a record's message and its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        return True


class JsonLines(logging.Formatter):
    """A record as one line of JSON: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, and ``exception`` (the traceback's text) if it has one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(name)s %(message)s"


def configure_logging(*, json_lines: bool = False) -> None:
    """The room's own log lines (``stud8.server`` and the rest): to standard error,
    as text or JSON, tokens blanked."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if json_lines else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def uvicorn_log_config(*, json_lines: bool = False) -> dict[str, Any]:
    """uvicorn's own logging configuration with :class:`RedactTokens` on its
    handlers (so every line it writes passes through it, the access log and the
    websocket lines alike); with JSON, its formatters are :class:`JsonLines`."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": RedactTokens}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    if json_lines:
        config["formatters"] = {name: {"()": JsonLines} for name in config["formatters"]}
    return config
