"""The table manager: live tables, seats and tokens, connections, bots, persistence.

Each table has one :class:`asyncio.Lock`. An action is checked and applied by the
engine, committed to the database, and only then acknowledged and broadcast, all under
that lock, so every client sees the actions of a table in log order and a snapshot
taken under the lock is never followed by an event it already contains. Each client
gets its own seat's view (a spectator the public view) through its own bounded queue,
so a slow client never holds up a table.

Bots act from their seat's observation after ``bot_delay`` seconds (a slow bot thinks
in a worker thread, so that it never holds up the other tables). A human seat whose
connections are all gone is held for ``seat_timeout`` seconds; after that, while some
other human is at the table, a stand-in bot plays its turns until its owner returns.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.server.protocol import PROTOCOL_VERSION, ServerError
from rummykit.server.store import ActionRow, CommitQueue, Store, TableRow, encode_summary
from rummykit.server.variants import Game, VariantAdapter, get_adapter

__all__ = ["Client", "LiveTable", "Seat", "ServerConfig", "TableManager", "hash_token"]

log = logging.getLogger("rummykit.server")

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """Everything the server can be told on the command line."""

    database_url: str = "sqlite:///rummykit.db"
    seat_timeout: float = 120.0
    """Seconds a disconnected human seat is held before a stand-in bot plays it."""
    bot_delay: float = 0.6
    """Seconds a bot waits before acting (so people can follow its moves)."""
    max_message_bytes: int = 8192
    rate_per_second: float = 20.0
    rate_burst: int = 40
    allow_seed: bool = False
    """Accept a ``seed`` when creating a table (tests only: a known seed shows the deck)."""
    client_queue: int = 256
    """Outgoing messages buffered per connection before a stalled client is dropped."""
    bot_thread_after: float = 0.002
    """Seconds a bot's decisions take (the median of its last five) above which it thinks in
    a worker thread. A fast bot decides on the event loop (a thread hand-off would cost
    more than its decision); a slow one (a solver taking seconds) would otherwise stop
    every table while it thinks. 0: always in a thread."""
    freeze_gc: bool = False
    """After start-up, move every object alive into the garbage collector's permanent
    generation (``gc.freeze``), so that full collections, which stall the event loop for
    every table, only walk what was made since. For a server process (``rummykit
    serve``), not for a process that creates many apps (tests)."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite's ``synchronous``: NORMAL survives a killed server process, FULL also a
    power cut (an fsync per commit). Ignored for PostgreSQL."""


encode_json = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON for outgoing messages (one encoder object, not one per message)."""


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256 (the token itself is never kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "C").strip()
    return text[:24] or fallback


class Client:
    """One connection (websocket): its seat (``None``: spectator) and outgoing queue."""

    def __init__(self, *, seat: int | None = None, queue_size: int = 256) -> None:
        self.seat = seat
        self.table_id: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.closed = False
        self.close_reason = ""

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

    def clients(self) -> Iterator[Client]:
        """Every connection to this table."""
        for seat in self.seats:
            yield from seat.clients
        yield from self.spectators

    def stored_seats(self) -> list[JSON]:
        """Seats as persisted."""
        return [seat.stored() for seat in self.seats]


class TableManager:
    """Every live table, and the only code that changes one."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.writer = CommitQueue(store)
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self._closing = False
        self._bot_cost: dict[tuple[str, str], collections.deque[float]] = {}
        """Seconds the last decisions took, per (variant, bot name)."""
        self._threaded_bots: set[tuple[str, str]] = set()

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        """Create the schema, start the writer, and resume every unfinished table."""
        await asyncio.to_thread(self.store.create_schema)
        self.writer.start()
        rows = await asyncio.to_thread(self.store.load_active)
        now = time.monotonic()
        for row in rows:
            try:
                table = self._restore(row)
            except Exception:
                log.exception("table %s could not be replayed; it stays in the database", row.id)
                continue
            for seat in table.seats:
                if seat.kind == "human" and seat.joined:
                    seat.away_since = now
            self.tables[table.id] = table
            self._schedule_seat_checks(table)
            self.kick(table)
        log.info("resumed %d table(s)", len(self.tables))

    async def close(self) -> None:
        """Stop bots and timers, close connections, stop the writer."""
        self._closing = True
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for client in list(table.clients()):
                client.close("server shutting down")
        await asyncio.to_thread(self.writer.stop)
        await asyncio.to_thread(self.store.dispose)

    def _restore(self, row: TableRow) -> LiveTable:
        adapter = get_adapter(row.variant)
        actions = [(action.seat, action.action) for action in row.actions]
        game = adapter.replay(row.rules, seats=len(row.seats), seed=row.seed, actions=actions)
        table = LiveTable(row, adapter, game, actions)
        self._make_bots(table)
        return table

    def _make_bots(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.kind != "bot":
                continue
            level = seat.level or table.adapter.default_bot_level
            try:
                seat.bot = table.adapter.make_bot(
                    level, table.rules, seed=secrets.randbits(63), players=len(table.seats)
                )
            except ValueError as error:
                # A bot registered by a plugin that this server has not loaded: the
                # seat keeps its level (and plays again once the plugin is back), the
                # default level plays it meanwhile.
                log.warning(
                    "table %s seat %d: bot level %r is unavailable (%s); %r plays it",
                    table.id,
                    seat.index,
                    level,
                    error,
                    table.adapter.default_bot_level,
                )
                seat.bot = table.adapter.make_bot(
                    table.adapter.default_bot_level,
                    table.rules,
                    seed=secrets.randbits(63),
                    players=len(table.seats),
                )

    # -- lookup -----------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        """A table by id: live, or a finished one replayed from the database."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise ServerError("not_found", "no such table")
        row = await asyncio.to_thread(self.store.load, table_id)
        if row is None:
            raise ServerError("not_found", f"no table {table_id!r}")
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            table = self._restore(row)
            self.tables[table_id] = table
        return table

    def seat_for_token(self, table: LiveTable, token: Any) -> int:
        """The seat ``token`` opens at ``table``; ``bad_token`` for any other token."""
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            raise ServerError("bad_token", "a seat token is a string from an invite link")
        digest = hash_token(token)
        found = None
        for seat in table.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.index
        if found is None:
            raise ServerError("bad_token", f"this token opens no seat at table {table.id}")
        return found

    # -- views ----------------------------------------------------------------------------

    def table_info(self, table: LiveTable) -> JSON:
        """Public facts of a table (no token, no seed)."""
        return {
            "id": table.id,
            "variant": table.adapter.name,
            "title": table.adapter.title,
            "preset": table.preset,
            "rules": table.rules,
            "status": table.status,
            "seq": table.seq,
            "seats": [seat.public(self.config.seat_timeout) for seat in table.seats],
            "summary": table.game.summary() if table.status != "waiting" else None,
            "rematch_of": table.rematch_of,
            "rematch_id": table.rematch_id,
            "created_at": table.created_at,
        }

    def snapshot(self, table: LiveTable, seat: int | None) -> JSON:
        """Everything a client needs to draw the table from scratch."""
        return {
            "type": "snapshot",
            "v": PROTOCOL_VERSION,
            "seq": table.seq,
            "seat": seat,
            "table": self.table_info(table),
            "view": None if table.status == "waiting" else table.game.view(seat),
        }

    async def current_snapshot(self, table: LiveTable, seat: int | None) -> JSON:
        """A snapshot taken under the table lock (never mid-way through an action)."""
        async with table.lock:
            return self.snapshot(table, seat)

    async def current_view(self, table: LiveTable, seat: int | None) -> JSON:
        """The seat's view, taken under the table lock."""
        async with table.lock:
            return table.game.view(seat)

    def _broadcast_seats(self, table: LiveTable) -> None:
        message = {
            "type": "seats",
            "seats": [seat.public(self.config.seat_timeout) for seat in table.seats],
        }
        for client in table.clients():
            client.send(message)

    # -- creating and joining ---------------------------------------------------------

    async def create_table(self, request: Mapping[str, Any]) -> tuple[LiveTable, list[str | None]]:
        """Create a table from a lobby request; returns it and each seat's token."""
        if not isinstance(request, Mapping):
            raise ServerError("bad_request", "a table request is a JSON object")
        try:
            adapter = get_adapter(request.get("variant", "gin"))
            preset = request.get("preset") or next(iter(adapter.presets))
            rules = adapter.make_rules(str(preset), request.get("options") or {})
        except (ValueError, TypeError) as error:
            raise ServerError("bad_request", str(error)) from None
        specs = request.get("seats")
        if specs is None:
            specs = [{"kind": "human"}] + [{"kind": "bot"}] * (adapter.min_seats - 1)
        if not isinstance(specs, list) or not adapter.min_seats <= len(specs) <= adapter.max_seats:
            raise ServerError(
                "bad_request",
                f"{adapter.title} takes {adapter.min_seats}-{adapter.max_seats} seats, "
                'given as a list of {"kind": "human" | "bot", ...}',
            )
        seats: list[JSON] = []
        tokens: list[str | None] = []
        for index, spec in enumerate(specs):
            if not isinstance(spec, Mapping) or spec.get("kind") not in ("human", "bot"):
                raise ServerError("bad_request", f"seat {index}: kind must be human or bot")
            if spec["kind"] == "bot":
                levels = adapter.bot_levels
                level = spec.get("level") or adapter.default_bot_level
                if level not in levels:
                    raise ServerError(
                        "bad_request",
                        f"seat {index}: bot level {level!r} is not one of {', '.join(levels)}",
                    )
                name = clean_name(spec.get("name"), f"Bot ({level})")
                seats.append({"kind": "bot", "name": name, "level": level, "joined": True})
                tokens.append(None)
            else:
                token = secrets.token_urlsafe(24)
                name = clean_name(spec.get("name"), f"Player {index + 1}")
                seats.append(
                    {
                        "kind": "human",
                        "name": name,
                        "token_hash": hash_token(token),
                        "joined": False,
                    }
                )
                tokens.append(token)
        if all(seat["kind"] == "bot" for seat in seats):
            raise ServerError("bad_request", "a table needs at least one human seat")
        seed = secrets.randbits(63)
        if request.get("seed") is not None:
            if not self.config.allow_seed:
                raise ServerError("bad_request", "this server does not accept chosen seeds")
            if not isinstance(request["seed"], int) or not 0 <= request["seed"] < 2**63:
                raise ServerError("bad_request", "seed must be a non-negative 63-bit integer")
            seed = request["seed"]
        row = TableRow(
            id=secrets.token_urlsafe(6),
            variant=adapter.name,
            preset=str(preset),
            rules=rules,
            seed=seed,
            seats=seats,
            status="waiting",
            rematch_of=None,
        )
        table = await self._insert(row, adapter)
        return table, tokens

    async def _insert(self, row: TableRow, adapter: VariantAdapter) -> LiveTable:
        game = adapter.new_game(row.rules, seats=len(row.seats), seed=row.seed)
        table = LiveTable(row, adapter, game, [])
        self._make_bots(table)
        try:
            await self.writer.commit(self.store.insert_table(row))
        except Exception:
            log.exception("could not save new table")
            raise ServerError("storage_error", "the table could not be saved; try again") from None
        self.tables[table.id] = table
        return table

    async def join(self, table: LiveTable, seat: int, name: Any = None) -> None:
        """Mark a person's seat as taken (and name it); persisted when it changes."""
        async with table.lock:
            await self._join_locked(table, seat, name)
        self._broadcast_seats(table)

    async def _join_locked(self, table: LiveTable, seat: int, name: Any) -> None:
        entry = table.seats[seat]
        changed = not entry.joined
        entry.joined = True
        if name is not None:
            new_name = clean_name(name, entry.name)
            changed = changed or new_name != entry.name
            entry.name = new_name
        if changed:
            await self._persist_seats(table)

    async def _persist_seats(self, table: LiveTable) -> None:
        try:
            await self.writer.commit(self.store.update_table(table.id, seats=table.stored_seats()))
        except Exception:
            log.exception("could not save seats of table %s", table.id)
            raise ServerError("storage_error", "the seat could not be saved; try again") from None

    async def connect(
        self, table: LiveTable, client: Client, token: Any, name: Any = None
    ) -> int | None:
        """Attach a connection as a seat (token) or a spectator (no token).

        Under the table lock the client first receives its ``welcome`` snapshot, so
        every later update it receives is newer than that snapshot.
        """
        seat_index: int | None = None
        if token is not None:
            seat_index = self.seat_for_token(table, token)
        async with table.lock:
            if seat_index is not None:
                seat = table.seats[seat_index]
                await self._join_locked(table, seat_index, name)
                seat.clients.add(client)
                seat.away_since = None
            else:
                table.spectators.add(client)
            client.seat = seat_index
            client.table_id = table.id
            welcome = self.snapshot(table, seat_index)
            welcome["type"] = "welcome"
            welcome["role"] = "spectator" if seat_index is None else "player"
            client.send(welcome)
            self._broadcast_seats(table)
        self.kick(table)
        return seat_index

    async def disconnect(self, client: Client) -> None:
        """Detach a connection; a person's seat is held for ``seat_timeout``."""
        table = self.tables.get(client.table_id or "")
        if table is None:
            return
        async with table.lock:
            table.spectators.discard(client)
            if client.seat is not None:
                seat = table.seats[client.seat]
                seat.clients.discard(client)
                if not seat.clients and table.status != "finished":
                    seat.away_since = time.monotonic()
                    self._schedule_seat_checks(table)
            self._broadcast_seats(table)
            if table.status == "finished" and not any(True for _ in table.clients()):
                self.tables.pop(table.id, None)  # replayed from the database on demand

    def _schedule_seat_checks(self, table: LiveTable) -> None:
        if self._closing:
            return
        loop = asyncio.get_running_loop()

        def check() -> None:
            self._timers.discard(handle)
            if self.tables.get(table.id) is table:
                self._broadcast_seats(table)
                self.kick(table)

        handle = loop.call_later(self.config.seat_timeout + 0.05, check)
        self._timers.add(handle)

    # -- starting, acting, rematch ----------------------------------------------------

    async def start(self, table: LiveTable, seat: int) -> None:
        """Start a waiting table once every person's seat has been joined."""
        async with table.lock:
            if table.status != "waiting":
                raise ServerError("already_started", f"table {table.id} has already started")
            if not table.seats[seat].joined:
                await self._join_locked(table, seat, None)
            missing = [s.index for s in table.seats if s.kind == "human" and not s.joined]
            if missing:
                raise ServerError(
                    "seats_not_joined",
                    "waiting for seat(s) " + ", ".join(map(str, missing)) + " to join",
                )
            try:
                await self.writer.commit(self.store.update_table(table.id, status="playing"))
            except Exception:
                log.exception("could not start table %s", table.id)
                raise ServerError("storage_error", "the table could not be started") from None
            table.status = "playing"
            for client in table.clients():
                client.send({"type": "started", "table_id": table.id})
                client.send(self.snapshot(table, client.seat))
        self.kick(table)

    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: Any,
        *,
        reply_to: Client | None = None,
        request_id: Any = None,
    ) -> int:
        """Apply a person's action for ``seat``; returns its sequence number.

        The work runs in its own task so that a connection dropping mid-way cannot
        interrupt an action between its commit and its broadcast.
        """
        if not isinstance(action, Mapping):
            raise ServerError("bad_message", '"action" must be a JSON object')
        task = asyncio.ensure_future(
            self._act_task(table, seat, dict(action), reply_to, request_id)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        seq = await asyncio.shield(task)
        self.kick(table)
        return seq

    async def _act_task(
        self, table: LiveTable, seat: int, action: JSON, reply_to: Client | None, request_id: Any
    ) -> int:
        async with table.lock:
            if table.status == "waiting":
                raise ServerError("not_started", "the game has not started yet")
            if table.status == "finished" or table.game.is_over:
                raise ServerError("game_over", "the game is over")
            return await self._apply_locked(table, seat, action, "human", reply_to, request_id)

    async def _apply_locked(
        self,
        table: LiveTable,
        seat: int,
        action: JSON,
        actor: str,
        reply_to: Client | None = None,
        request_id: Any = None,
    ) -> int:
        game = table.game
        try:
            applied = game.apply(seat, action)
        except InvalidActionError as error:
            raise ServerError("invalid_action", str(error)) from None
        except IllegalActionError as error:
            code = "not_your_turn" if error.code == "not_your_turn" else "illegal_action"
            raise ServerError(code, str(error), rule=error.code) from None
        except Exception:
            log.exception("engine failure at table %s on %r", table.id, action)
            self._rebuild(table)
            raise ServerError("internal_error", "the server could not apply that move") from None
        seq = table.seq + 1
        row = ActionRow(seq, seat, applied.action, actor, time.time())
        status = "finished" if game.is_over else None
        try:
            await self.writer.commit(
                self.store.append_action(table.id, row, status=status, summary=table.summary_text())
            )
        except Exception:
            log.exception("could not save action %d of table %s", seq, table.id)
            self._rebuild(table)
            raise ServerError(
                "storage_error", "the move could not be saved, so it did not happen; try again"
            ) from None
        table.actions.append((seat, applied.action))
        if status is not None:
            table.status = status
        if reply_to is not None:
            reply_to.send({"type": "ack", "id": request_id, "seq": seq})
        # One view and one encoding per seat (and one for all spectators), built only
        # for the seats somebody is connected to.
        texts: dict[int | None, str] = {}
        for client in table.clients():
            key = client.seat
            text = texts.get(key)
            if text is None:
                message: JSON = {
                    "type": "update",
                    "seq": seq,
                    "actor": seat,
                    "by": actor,
                    "status": table.status,
                    "events": game.events_for(applied.events, key),
                    "view": game.view(key),
                }
                if key == seat:
                    message["action"] = applied.action
                text = texts[key] = encode_json(message)
            client.send_text(text)
        return seq

    def _rebuild(self, table: LiveTable) -> None:
        """Replay the committed log after a failure, so memory matches the database."""
        table.game = table.adapter.replay(
            table.rules, seats=len(table.seats), seed=table.seed, actions=table.actions
        )

    async def rematch(self, table: LiveTable, seat: int) -> str:
        """A new table with the same seats, rules and tokens; returns its id."""
        async with table.lock:
            if table.status != "finished":
                raise ServerError("not_finished", "a rematch is offered once the game is over")
            if table.rematch_id is not None:
                return table.rematch_id
            row = TableRow(
                id=secrets.token_urlsafe(6),
                variant=table.adapter.name,
                preset=table.preset,
                rules=table.rules,
                seed=secrets.randbits(63),
                seats=table.stored_seats(),
                status="waiting",
                rematch_of=table.id,
            )
            new_table = await self._insert(row, table.adapter)
            try:
                await self.writer.commit(self.store.update_table(table.id, rematch_id=row.id))
            except Exception:
                log.exception("could not link rematch of %s", table.id)
            table.rematch_id = row.id
            for client in table.clients():
                client.send({"type": "rematch", "table_id": row.id, "by": seat})
        return new_table.id

    # -- bots -------------------------------------------------------------------------------

    def _standin_allowed(self, table: LiveTable, seat: Seat) -> bool:
        if seat.kind != "human" or seat.clients or seat.away_since is None:
            return False
        if time.monotonic() - seat.away_since < self.config.seat_timeout:
            return False
        return any(other.clients for other in table.seats if other is not seat)

    def _automatic_player(self, table: LiveTable) -> tuple[int, Any, str] | None:
        if table.status != "playing" or table.game.is_over:
            return None
        current = table.game.current_seat
        if current is None:
            return None
        seat = table.seats[current]
        if seat.kind == "bot":
            return current, seat.bot, "bot"
        if self._standin_allowed(table, seat):
            if seat.standin is None:
                seat.standin = table.adapter.make_bot(
                    table.adapter.default_bot_level,
                    table.rules,
                    seed=secrets.randbits(63),
                    players=len(table.seats),
                )
            return current, seat.standin, "standin"
        return None

    def kick(self, table: LiveTable) -> None:
        """Let the bots play if it is their turn (one driver task per table)."""
        if self._closing or (table.driver is not None and not table.driver.done()):
            return
        if self._automatic_player(table) is None:
            return
        task = asyncio.ensure_future(self._drive(table))
        table.driver = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_decision(self, table: LiveTable, seat: int, bot: Any) -> JSON:
        """The bot's action, decided on the loop or, for a slow bot, in a thread.

        Called under the table lock, so the game does not change while the bot reads
        it from another thread. A bot thinks in a thread while the median of its last
        five decisions (per variant and bot) took over ``bot_thread_after``: a median,
        because on a loaded machine the process is descheduled now and then, and one
        such decision must not send a fast bot to the thread. Wall time, because
        reading a CPU clock is a system call (on a loaded virtual machine py-spy found
        the server inside it a third of the time); in a thread it includes waiting for
        the GIL.
        """
        # Timed per variant and level (bots of different levels may share a name).
        level = table.seats[seat].level if bot is table.seats[seat].bot else None
        key = (table.adapter.name, level or str(getattr(bot, "name", type(bot).__name__)))
        recent = self._bot_cost.get(key)
        if recent is None:
            recent = self._bot_cost[key] = collections.deque(maxlen=5)
        limit = self.config.bot_thread_after
        slow = limit <= 0 or (bool(recent) and sorted(recent)[len(recent) // 2] > limit)

        def decide() -> tuple[JSON, float]:
            start = time.perf_counter()
            action = table.game.bot_action(seat, bot)
            return action, time.perf_counter() - start

        action, spent = await asyncio.to_thread(decide) if slow else decide()
        recent.append(spent)
        if slow != (key in self._threaded_bots):
            (self._threaded_bots.add if slow else self._threaded_bots.discard)(key)
            log.info(
                "%s bot %r now thinks %s (median of its last decisions %.1f ms)",
                key[0],
                key[1],
                "in a worker thread" if slow else "on the event loop",
                1000 * sorted(recent)[len(recent) // 2],
            )
        return action

    async def _drive(self, table: LiveTable) -> None:
        while not self._closing:
            if self._automatic_player(table) is None:
                return
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            async with table.lock:
                player = self._automatic_player(table)
                if player is None:
                    return
                seat, bot, actor = player
                try:
                    action = await self._bot_decision(table, seat, bot)
                    await self._apply_locked(table, seat, action, actor)
                except Exception:
                    log.exception("bot at table %s seat %d failed", table.id, seat)
                    return
            if self.config.bot_delay <= 0:
                await asyncio.sleep(0)  # let others in between bot moves
