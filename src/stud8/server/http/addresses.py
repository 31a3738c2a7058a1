"""A request's client address, the one every per-address limit counts: behind a
reverse proxy the room trusts, the address the proxy says it served.

The peer of a connection is the client, unless it is one of ``forwarded_allow_ips``
(loopback by default: a proxy on the same machine). Then its ``X-Forwarded-For``
is read from the right (each proxy appends the address it was connected from) and
the first address that is not a trusted proxy's is the client's. An untrusted
peer's ``X-Forwarded-For`` is ignored, so a client cannot forge its address; a
word that is no address ends the walk at the last trusted hop's.

The room reads the header itself (uvicorn's own proxy handling is off: ``stud8
serve`` runs uvicorn with ``proxy_headers=False``), so the rule is one, whatever
serves the app.

>>> proxies = Proxies(("127.0.0.1", "10.0.0.0/8"))
>>> proxies.client("127.0.0.1", ["203.0.113.9, 10.1.2.3"])
'203.0.113.9'
>>> proxies.client("198.51.100.7", ["203.0.113.9"])  # not a proxy: its header is ignored
'198.51.100.7'
>>> proxies.client("127.0.0.1", ["evil, 203.0.113.9"])
'203.0.113.9'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from starlette.requests import HTTPConnection

__all__ = ["Proxies", "client_address"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address from a hop of ``X-Forwarded-For`` (``[::1]:443`` and ``1.2.3.4:80`` too)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


class Proxies:
    """The reverse proxies whose ``X-Forwarded-For`` the room trusts."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self._networks: tuple[Network, ...] = tuple(
            ipaddress.ip_network(a, strict=False) for a in trusted
        )

    def trusts(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self._networks)

    def client(self, peer: str | None, forwarded: Sequence[str]) -> str:
        """The client's address, from the connection's peer and its ``X-Forwarded-For``
        headers (see the module)."""
        if peer is None:
            return "?"
        address = _address(peer)
        if address is None or not forwarded or not self.trusts(address):
            return peer
        hops = [hop for header in forwarded for hop in header.split(",") if hop.strip()]
        for hop in reversed(hops):
            said = _address(hop)
            if said is None:
                break  # the trusted hop to its right is the last one we can believe
            address = said
            if not self.trusts(address):
                break
        return str(address)


def client_address(connection: HTTPConnection) -> str:
    """The address of the client of a request or a websocket (see the module)."""
    peer = connection.client.host if connection.client is not None else None
    proxies: Proxies = connection.app.state.room.proxies
    return proxies.client(peer, connection.headers.getlist("x-forwarded-for"))
