"""The server's logs without secrets: session tokens are blanked.

A table websocket carries the session token in its URL (``?token=...``), and
uvicorn prints every request's path with its query string (the access log, and
a line per websocket). :class:`RedactTokens`, a logging filter on uvicorn's
handlers (:func:`uvicorn_log_config`), replaces each token's value before the
line is written.

>>> redact("GET /ws/v1/tables/t1?token=abc-DEF_123&last_seen=4")
'GET /ws/v1/tables/t1?token=[redacted]&last_seen=4'
"""

from __future__ import annotations

import copy
import logging
import re
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


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration with :class:`RedactTokens` on its
    handlers (so every line it writes passes through it, the access log and the
    websocket lines alike)."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": RedactTokens}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config
