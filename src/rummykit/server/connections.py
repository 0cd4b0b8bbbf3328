"""A client connection as the tables see it: its seat and its bounded outgoing queue.

Each connection gets its messages through its own queue, drained by the websocket's
sender task, so a slow client never holds up a table: one that lets its queue fill up
is disconnected instead.
"""

from __future__ import annotations

import asyncio
import json

from rummykit.table_game import JSON

__all__ = ["Client", "encode_json"]

encode_json = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON for outgoing messages (one encoder object, not one per message)."""


class Client:
    """One connection (websocket): its seat (``None``: spectator) and outgoing queue."""

    def __init__(self, *, seat: int | None = None, queue_size: int = 256) -> None:
        self.seat = seat
        self.table_id: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.closed = False
        self.close_reason = ""
        self.address: str | None = None
        """The client's address (for the quotas)."""

    def send(self, message: JSON) -> None:
        """Queue a message; a client too slow to take its messages is disconnected."""
        if not self.closed:
            self.send_text(encode_json(message))

    def send_text(self, text: str) -> None:
        """Queue an encoded message (one encoding shared by the clients of a seat)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close("too slow: outgoing queue full")

    def close(self, reason: str = "") -> None:
        """Ask the connection's sender to close it."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()
