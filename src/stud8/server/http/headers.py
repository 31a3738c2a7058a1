"""Security headers on every answer of the room: the browser client's pages and
files, the REST answers, the errors (those of the middleware too).

The Content-Security-Policy lets a page load only the room's own scripts, styles,
sockets and images (and the ``data:`` favicon), with no inline script or style
(the client sets its computed styles through the CSSOM), no plugin, no ``<base>``,
and no framing by another site (``frame-ancestors 'none'``, and ``X-Frame-Options``
for older browsers). ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
no-referrer``, ``Cross-Origin-Opener-Policy: same-origin``; the API's answers
(tokens, hand histories) are never cached (``Cache-Control: no-store``).

A node of a room that routes (``--public-url``: :mod:`stud8.server.cluster.routing`)
sends a table's players to the node that runs it, at another origin: its pages'
``connect-src`` also names the public websocket origins of the room's nodes
(``origins``, kept by the node from their heartbeats). The policy is made once per
set of origins, not per answer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "SecurityHeaders",
    "content_security_policy",
]

# a websocket origin as a policy's source: nothing that could end the directive or
# add another (a heartbeat in Redis is not trusted to be well formed)
SOCKET_ORIGIN = re.compile(r"wss?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?")


@functools.lru_cache(maxsize=16)
def content_security_policy(sockets: tuple[str, ...] = ()) -> str:
    """The policy of every answer; ``sockets``: the other websocket origins its
    pages may connect to (the room's nodes), those not of that form left out."""
    connect = ["'self'", *(o for o in sockets if SOCKET_ORIGIN.fullmatch(o))]
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src " + " ".join(connect),
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


CONTENT_SECURITY_POLICY = content_security_policy()  # a room in one process
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer (see the module);
    ``origins``: the room's nodes' websocket origins now (None: the page's own only)."""

    def __init__(self, app: ASGIApp, origins: Callable[[], tuple[str, ...]] | None = None) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if self.origins is not None:
                    policy = content_security_policy(self.origins())
                    headers["Content-Security-Policy"] = policy
                if api:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, with_headers)
