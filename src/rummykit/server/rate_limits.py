"""Per-client rates on the REST API: token buckets by client address.

Each client address has one bucket per kind of request: ``create`` (new tables and
rematches), ``act`` (join, start, actions) and ``read`` (every other ``/api`` request).
A request finding its bucket empty is refused with 429 ``rate_limited`` and a
``Retry-After`` header, before it is read. The address is the connection's peer: behind
a reverse proxy that is the proxy, for every client, unless ``rummykit serve
--forwarded-allow-ips`` names the proxy (docs/server-limits.md).

The buckets are bounded: a full bucket holds nothing worth keeping and is dropped, and
past :data:`MAX_CLIENTS` addresses the least recently seen go first.

>>> request_kind("POST", "/api/tables"), request_kind("POST", "/api/tables/x/actions")
('create', 'act')
>>> request_kind("GET", "/api/games/x/replay"), request_kind("GET", "/static/js/main.js")
('read', None)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping
from typing import Final

from rummykit.server.asgi_replies import ASGIApp, Receive, Scope, Send, send_error
from rummykit.server.protocol import RateLimiter, ServerError

__all__ = ["MAX_CLIENTS", "ClientRates", "RateLimits", "client_address", "request_kind"]

MAX_CLIENTS: Final = 20_000
"""Client addresses whose buckets are kept at most."""

_WHAT: Final = {
    "create": "tables created",
    "act": "table requests",
    "read": "requests",
}


def request_kind(method: str, path: str) -> str | None:
    """Which bucket a request takes from (``None``: not rate limited here)."""
    if path != "/api" and not path.startswith("/api/"):
        return None
    if method == "POST":
        parts = path.strip("/").split("/")
        if parts == ["api", "tables"] or (len(parts) == 4 and parts[3] == "rematch"):
            return "create"
        return "act"
    return "read"


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (a proxy's, behind one)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class ClientRates:
    """Token buckets per client address and kind; ``rates``: kind -> (rate, burst).

    A kind with a rate of 0 is not limited.
    """

    def __init__(self, rates: Mapping[str, tuple[float, int]]) -> None:
        self.rates = {kind: spec for kind, spec in rates.items() if spec[0] > 0}
        self._buckets: OrderedDict[tuple[str, str], RateLimiter] = OrderedDict()

    def take(self, address: str, kind: str) -> float | None:
        """Take a token: ``None`` if the request may go on, else seconds to wait."""
        spec = self.rates.get(kind)
        if spec is None:
            return None
        key = (address, kind)
        bucket = self._buckets.get(key)
        if bucket is None:
            self._make_room()
            bucket = self._buckets[key] = RateLimiter(spec[0], max(1, spec[1]))
        else:
            self._buckets.move_to_end(key)
        if bucket.allow():
            return None
        return bucket.wait()

    def _make_room(self) -> None:
        if len(self._buckets) < MAX_CLIENTS:
            return
        for key in [key for key, bucket in self._buckets.items() if bucket.full()]:
            del self._buckets[key]
        while len(self._buckets) >= MAX_CLIENTS:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


class RateLimits:
    """ASGI middleware: refuse a REST request over its client's rate (429)."""

    def __init__(self, app: ASGIApp, rates: ClientRates) -> None:
        self.app = app
        self.rates = rates

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = request_kind(str(scope.get("method", "")), str(scope.get("path", "")))
            wait = None if kind is None else self.rates.take(client_address(scope), kind)
            if wait is not None and kind is not None:
                rate, burst = self.rates.rates[kind]
                error = ServerError(
                    "rate_limited",
                    f"too many {_WHAT[kind]}: at most {rate:g} a second (bursts of {burst}) "
                    f"from one address; retry in {wait:.1f} s",
                )
                retry = str(max(1, math.ceil(wait)))
                await send_error(send, error, headers=[("retry-after", retry)])
                return
        await self.app(scope, receive, send)
