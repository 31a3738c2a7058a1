"""Round trips to a database server, counted on the wire: for the tests and benchmarks.

A round trip is the client sending and then waiting for the server's answer, so it
is what the network and the server's wake-ups cost whatever the statements are.
:class:`RoundTripRelay` is a TCP relay on 127.0.0.1 between a client and the
server that counts, per connection, each time the client sends after the server
last spoke (or first): a pipeline of many statements sent before any answer is
one, a statement and its answer is one, a ``BEGIN`` sent alone is one. Point an
engine at :attr:`RoundTripRelay.port` instead of the server's port
(:meth:`RoundTripRelay.url`) and read :attr:`RoundTripRelay.count`.
"""

from __future__ import annotations

import selectors
import socket
import threading
from dataclasses import dataclass

from sqlalchemy.engine import make_url

__all__ = ["RoundTripRelay"]

_CHUNK = 1 << 16


@dataclass(slots=True)
class _Link:
    client: socket.socket
    server: socket.socket
    server_spoke: bool = True  # the client's first bytes start a round trip
    closed: bool = False


class RoundTripRelay:
    """A relay to ``host:port`` counting the client's round trips (see the module).
    Stop it with :meth:`close` (or use it as a context manager)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self._count = 0
        self.log: list[tuple[bool, bytes]] | None = None  # (from the client, bytes)
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port: int = self._listener.getsockname()[1]
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._stop_r, self._stop_w = socket.socketpair()
        self._selector.register(self._stop_r, selectors.EVENT_READ, "stop")
        self._thread = threading.Thread(target=self._run, name="roundtrip-relay", daemon=True)
        self._thread.start()

    @classmethod
    def to(cls, url: str) -> RoundTripRelay:
        """A relay to the server of a database URL."""
        parsed = make_url(url)
        return cls(parsed.host or "127.0.0.1", parsed.port or 5432)

    def url(self, url: str) -> str:
        """``url`` through the relay."""
        return make_url(url).set(host="127.0.0.1", port=self.port).render_as_string(False)

    @property
    def count(self) -> int:
        """The round trips counted so far, over every connection."""
        with self._lock:
            return self._count

    def _run(self) -> None:
        selector = self._selector
        while True:
            for key, _ in selector.select():
                if key.data == "stop":
                    return
                if key.data is None:
                    self._accept()
                    continue
                link, from_client = key.data
                self._pass(link, from_client)

    def _accept(self) -> None:
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        server = socket.create_connection(self.target)
        for end in (client, server):
            end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        link = _Link(client, server)
        self._selector.register(client, selectors.EVENT_READ, (link, True))
        self._selector.register(server, selectors.EVENT_READ, (link, False))

    def _pass(self, link: _Link, from_client: bool) -> None:
        if link.closed:
            return  # (both ends were ready when it closed)
        source, sink = (link.client, link.server) if from_client else (link.server, link.client)
        try:
            data = source.recv(_CHUNK)
        except OSError:
            data = b""
        if not data:
            link.closed = True
            for end in (link.client, link.server):
                self._selector.unregister(end)
                end.close()
            return
        if from_client and link.server_spoke:
            with self._lock:
                self._count += 1
        link.server_spoke = not from_client
        if self.log is not None:
            self.log.append((from_client, data))
        sink.sendall(data)

    def close(self) -> None:
        self._stop_w.send(b"x")
        self._thread.join()
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()
        self._stop_w.close()

    def __enter__(self) -> RoundTripRelay:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
