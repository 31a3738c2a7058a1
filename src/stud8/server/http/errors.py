"""HTTP errors: typed exceptions, each with its status, and their handlers.

An endpoint raises; it never builds an error response. :data:`EXCEPTION_HANDLERS`
(installed on the app in :mod:`stud8.server.http.app`) turns an :class:`HTTPError`
into ``{"error": reason}`` with its status, and the room's own refusals into the
status they mean, by their kind (never by their text).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.auth import (
    InvalidCredentialsError,
    LoginRefusedError,
    NameTakenError,
    NoSuchAccountError,
)
from stud8.server.room.lobby import LobbyError, NoSuchTableError
from stud8.server.wire.codec import ProtocolError

__all__ = [
    "EXCEPTION_HANDLERS",
    "BadRequest",
    "Forbidden",
    "HTTPError",
    "NotFound",
    "PayloadTooLarge",
    "TooManyRequests",
    "Unauthorized",
]


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


EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Any]] = {
    HTTPError: _http_error,
    **{kind: _refusal(status) for kind, status in STATUS_OF.items()},
}
