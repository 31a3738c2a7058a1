"""HTTP errors: typed exceptions, each with its status, and their handlers.

An endpoint raises; it never builds an error response. :data:`EXCEPTION_HANDLERS`
(installed on the app in :mod:`stud8.server.http.app`) turns an :class:`HTTPError`
into ``{"error": reason}`` with its status, and the room's own refusals into the
status they mean, by their kind (never by their text). A database that is locked
or away is a 503 with ``Retry-After`` (:data:`DATABASE_BUSY`), anything else that
goes wrong a JSON 500 (the traceback only in the room's log).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.accounts import (
    InvalidCredentialsError,
    LoginRefusedError,
    NameTakenError,
    NoSuchAccountError,
)
from stud8.server.room.lobby import LobbyError, NoSuchTableError
from stud8.server.wire.codec import ProtocolError

log = logging.getLogger("stud8.server")

__all__ = [
    "DATABASE_BUSY",
    "EXCEPTION_HANDLERS",
    "BadRequest",
    "Forbidden",
    "HTTPError",
    "NotFound",
    "PayloadTooLarge",
    "ServiceUnavailable",
    "TooManyRequests",
    "Unauthorized",
]


# The database locked (SQLite's write lock held by another process, a PostgreSQL lock
# wait over its timeout) or away (no connection): a 503 at once, not a hang.
DATABASE_BUSY = (OperationalError, PoolTimeoutError)
BUSY_REASON = "the room's database is busy: try again in a moment"
RETRY_AFTER_BUSY = 2


class HTTPError(Exception):
    """An error answered with ``status``, ``{"error": reason}`` and its ``headers``."""

    status = 500
    headers: Mapping[str, str] = {}

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadRequest(HTTPError):
    status = 400


class Unauthorized(HTTPError):
    status = 401


class Forbidden(HTTPError):
    status = 403


class NotFound(HTTPError):
    status = 404


class Conflict(HTTPError):
    status = 409


class PayloadTooLarge(HTTPError):
    status = 413


class UnsupportedMediaType(HTTPError):
    status = 415


class ServiceUnavailable(HTTPError):
    """503: the room cannot answer now (its database is locked or away); try again
    in ``retry_after`` seconds."""

    status = 503

    def __init__(self, reason: str, retry_after: float = RETRY_AFTER_BUSY) -> None:
        super().__init__(reason)
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


class TooManyRequests(HTTPError):
    """429: try again in ``retry_after`` seconds (``Retry-After``, whole seconds)."""

    status = 429

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


# The room's refusals, by kind: the status each means.
STATUS_OF: Mapping[type[Exception], int] = {
    InvalidCredentialsError: 400,
    LoginRefusedError: 401,
    NameTakenError: 409,
    NoSuchAccountError: 404,
    NoSuchTableError: 404,
    LobbyError: 400,
    ProtocolError: 400,
}


def error_response(
    status: int, reason: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPError)
    return error_response(exc.status, exc.reason, exc.headers)


def _refusal(status: int) -> Callable[[Request, Exception], Any]:
    async def handler(request: Request, exc: Exception) -> Response:
        return error_response(status, str(exc))

    return handler


async def _database_busy(request: Request, exc: Exception) -> Response:
    log.warning("%s %s: %s", request.method, request.url.path, _first_line(exc))
    return error_response(503, BUSY_REASON, {"Retry-After": str(RETRY_AFTER_BUSY)})


async def _internal_error(request: Request, exc: Exception) -> Response:
    # the traceback goes to the log (uvicorn's), never to the client
    return error_response(500, "internal error (it is in the room's log)")


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Any]] = {
    HTTPError: _http_error,
    **{kind: _database_busy for kind in DATABASE_BUSY},
    Exception: _internal_error,
    **{kind: _refusal(status) for kind, status in STATUS_OF.items()},
}
