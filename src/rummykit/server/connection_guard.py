"""A deadline for each HTTP request's head: slow-loris connections are closed.

uvicorn closes a keep-alive connection idle for ``timeout_keep_alive`` seconds, but once
a client has sent one byte it waits for the rest of the request line and headers for as
long as they keep trickling in (and it never times out a new connection that sends
nothing at all): twenty clients sending a header line every few seconds held twenty
connections for good. uvicorn has no setting for this, so :func:`guarded_http_protocol`
gives it an HTTP protocol class (its own httptools or h11 one, with one timer added)
that closes a connection whose request head is not complete ``header_timeout`` seconds
after the connection opened or the previous response ended. A request whose head has
arrived is the routes' business (bodies have their own deadline,
:mod:`~rummykit.server.request_bodies`); a websocket, once upgraded, is no longer this
protocol's.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Final

__all__ = ["MAX_HEAD_BYTES", "guarded_http_protocol"]

MAX_HEAD_BYTES: Final = 64 * 1024
"""Largest request line and headers accepted (the browser table sends under 2 KB)."""


if TYPE_CHECKING:

    class _UvicornHttp(asyncio.Protocol):
        """What the mixin calls on uvicorn's class, which follows it in the MRO."""

        def on_response_complete(self) -> None: ...

else:
    _UvicornHttp = object


class _HeadDeadline(_UvicornHttp):
    """The timer, and the hooks that arm and cancel it, shared by both protocol classes
    (mixed in before uvicorn's class)."""

    header_timeout: float = 10.0
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    timeout_keep_alive_task: asyncio.TimerHandle | None
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes: int = 0

    def _arm_head_deadline(self) -> None:
        self._cancel_head_deadline()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_expired)

    def _cancel_head_deadline(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_expired(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm_head_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Waiting for the next request exactly when uvicorn waits for it (not while a
        # pipelined request it already holds is being answered).
        if self.timeout_keep_alive_task is not None:
            self._arm_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        super().connection_lost(exc)


def guarded_http_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools if installed, else h11) with a deadline of
    ``header_timeout`` seconds on every request head; give it as ``uvicorn.run(http=...)``."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # uvicorn without httptools: its h11 protocol
        return _h11_protocol(header_timeout)

    class GuardedHttpTools(_HeadDeadline, HttpToolsProtocol):
        def data_received(self, data: bytes) -> None:
            # httptools sets no bound on a request head (h11 has its own): uvicorn would
            # keep every header line sent within the deadline.
            if self._head_timer is not None:
                self._head_bytes += len(data)
            super().data_received(data)
            if self._head_timer is not None and self._head_bytes > MAX_HEAD_BYTES:
                self._cancel_head_deadline()
                self.send_400_response("Request head too large.")

        def on_headers_complete(self) -> None:
            self._cancel_head_deadline()
            super().on_headers_complete()

    GuardedHttpTools.header_timeout = header_timeout
    return GuardedHttpTools


def _h11_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(_HeadDeadline, H11Protocol):
        def handle_events(self) -> None:
            super().handle_events()
            # h11 leaves IDLE once a whole request head has arrived.
            if self.conn.their_state is not h11.IDLE:
                self._cancel_head_deadline()

    GuardedH11.header_timeout = header_timeout
    return GuardedH11
