"""The REST bodies' size limit, for every request, before the body is read.

:class:`BodyLimit` (ASGI middleware, installed by :func:`stud8.server.http.app.create_app`)
answers 413 ``{"error": ...}`` at once to a request whose ``Content-Length`` is over
``MAX_BODY_BYTES`` (a path given a larger limit, the hand replayer's file, over
that), without reading a byte of its body; a body sent without a length
(chunked) is counted as it is read, and the read that goes over the limit raises
:class:`~stud8.server.http.errors.PayloadTooLarge` (413) instead of handing it on.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stud8.server.http.errors import PayloadTooLarge, error_response
from stud8.server.wire.limits import MAX_BODY_BYTES

__all__ = ["BodyLimit"]


class BodyLimit:
    """At most ``max_bytes`` of body in an HTTP request (see the module)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = dict(larger or {})  # a path that takes a larger body: its limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = self.larger.get(scope.get("path", ""), self.max_bytes)
        reason = f"the body is over {most} bytes"
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > most):
                await error_response(413, reason)(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > most:
                    raise PayloadTooLarge(reason)
            return message

        await self.app(scope, limited, send)
