"""A table in memory: its game, its seats (people with tokens, or bots) and connections.

Every change to a live table happens under its :attr:`LiveTable.lock`, held by the
table manager, the move pipeline and the bots' turns.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rummykit.server.connections import Client
from rummykit.server.store import TableRow, encode_summary
from rummykit.server.variants import Game, VariantAdapter
from rummykit.table_game import JSON

__all__ = ["LiveTable", "Seat", "clean_name", "hash_token"]


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256 (the token itself is never kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "C").strip()
    return text[:24] or fallback


@dataclass(eq=False)
class Seat:
    """A seat at a table: a person (with a token) or a bot."""

    index: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    joined: bool = False
    clients: set[Client] = field(default_factory=set)
    away_since: float | None = None
    """``time.monotonic()`` when the last connection of a joined person closed."""
    bot: Any = None
    standin: Any = None

    def stored(self) -> JSON:
        """The seat as persisted (with the token hash)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
            "joined": self.joined,
        }

    def public(self, seat_timeout: float) -> JSON:
        """The seat as every client may see it."""
        away = None
        if self.kind == "human" and self.away_since is not None and not self.clients:
            away = round(time.monotonic() - self.away_since, 1)
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "joined": self.joined,
            "connected": bool(self.clients) if self.kind == "human" else True,
            "away_for": away,
            "standin": away is not None and away >= seat_timeout,
        }


class LiveTable:
    """A table in memory: its game, seats, connections and action log."""

    def __init__(
        self,
        row: TableRow,
        adapter: VariantAdapter,
        game: Game,
        actions: list[tuple[int, JSON]],
    ) -> None:
        self.id = row.id
        self.adapter = adapter
        self.preset = row.preset
        self.rules = row.rules
        self.seed = row.seed
        self.status = row.status
        self.game = game
        self.actions = actions
        self.seats = [
            Seat(
                index=index,
                kind=str(data.get("kind", "human")),
                name=str(data.get("name", f"Seat {index}")),
                level=data.get("level"),
                token_hash=data.get("token_hash"),
                joined=bool(data.get("joined", False)),
            )
            for index, data in enumerate(row.seats)
        ]
        self.spectators: set[Client] = set()
        self.rematch_of = row.rematch_of
        self.rematch_id = row.rematch_id
        self.created_at = row.created_at
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.summary: tuple[JSON, str] | None = None
        """The last summary stored, and its encoding."""
        self.touched = time.monotonic()
        """When a request last asked for this table (it stays in memory a while after)."""
        self.creator: str | None = None
        """The address of the client that created the table here (waiting-table quota);
        ``None`` for a table loaded from the database."""

    def summary_text(self) -> str:
        """The game's summary, encoded for its row (re-encoded only when it changed)."""
        summary = self.game.summary()
        if self.summary is None or self.summary[0] != summary:
            self.summary = (summary, encode_summary(summary))
        return self.summary[1]

    @property
    def seq(self) -> int:
        """Number of accepted actions."""
        return len(self.actions)

    def has_clients(self) -> bool:
        """True while any connection is attached."""
        return bool(self.spectators) or any(seat.clients for seat in self.seats)

    def clients(self) -> Iterator[Client]:
        """Every connection to this table."""
        for seat in self.seats:
            yield from seat.clients
        yield from self.spectators

    def stored_seats(self) -> list[JSON]:
        """Seats as persisted."""
        return [seat.stored() for seat in self.seats]
