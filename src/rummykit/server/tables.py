"""The table manager: every live table, and the only code that changes one.

It creates, resumes, joins, starts and rematches tables, attaches and detaches
connections, and holds the seat of a person who left for ``seat_timeout``; the moves
themselves go through the :class:`~rummykit.server.moves.MovePipeline` and the bots'
turns through :class:`~rummykit.server.bot_turns.BotTurns`. Each table has one
:class:`asyncio.Lock`; a snapshot taken under it is never followed by an event it
already contains.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rummykit.server.bot_turns import BotTurns, make_bots
from rummykit.server.commit_queue import CommitQueue
from rummykit.server.config import ServerConfig
from rummykit.server.connection_caps import ConnectionCaps
from rummykit.server.connections import Client
from rummykit.server.live_table import LiveTable, clean_name, hash_token
from rummykit.server.moves import MovePipeline
from rummykit.server.protocol import PROTOCOL_VERSION, ServerError
from rummykit.server.replay_cache import ReplayCache
from rummykit.server.residency import TableResidency
from rummykit.server.store import Store, TableRow
from rummykit.server.table_requests import parse_table_request
from rummykit.server.variants import ADAPTERS, VariantAdapter, get_adapter
from rummykit.table_game import JSON

if TYPE_CHECKING:
    from rummykit.server.cluster.node import ClusterNode

__all__ = ["TableManager"]

log = logging.getLogger("rummykit.server")


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
        self.moves = MovePipeline(store, self.writer)
        self.bots = BotTurns(config, self.moves, self._tasks)
        self.residency = TableResidency(self)
        self.replays = ReplayCache(store, config.replay_cache_bytes)
        self.connection_caps = ConnectionCaps(
            per_client=config.max_connections_per_client,
            per_table=config.max_connections_per_table,
        )
        self.loading: set[str] = set()
        """Ids of tables being read from the database (never expired meanwhile)."""
        self.expiring: set[str] = set()
        """Ids of waiting tables being deleted (no longer loaded)."""
        self.cluster: ClusterNode | None = None
        """This process as a node of a cluster (``redis_url``); ``None``: the only one."""
        if config.redis_url:
            from rummykit.server.cluster.node import ClusterNode

            self.cluster = ClusterNode(self, config.redis_url, config.lease_seconds)

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        """Create the schema, start the writer, and start keeping memory bounded: the
        recently active tables are resumed in the background, the rest on demand."""
        await asyncio.to_thread(self.store.create_schema)
        # The catalog registers its games on first look-up, which is not thread-safe:
        # tables are replayed in worker threads, several at once.
        for adapter in ADAPTERS.values():
            adapter.bot_levels  # noqa: B018 - bots register on first look-up too
        self.writer.start()
        if self.cluster is not None:
            await self.cluster.start()
        await self.residency.start()

    async def close(self) -> None:
        """Stop bots and timers, close connections, stop the writer."""
        self._closing = True
        self.bots.stop()
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        attended = {table.id for table in self.tables.values() if table.has_clients()}
        for table in self.tables.values():
            for client in list(table.clients()):
                client.close("server shutting down")
        if self.cluster is not None:
            await self.cluster.stop(release=attended)
        await asyncio.to_thread(self.writer.stop)
        await asyncio.to_thread(self.store.dispose)

    @staticmethod
    def restore(row: TableRow) -> LiveTable:
        """A stored table rebuilt by replaying its log (pure: run it in a worker thread,
        since a long game takes a while)."""
        adapter = get_adapter(row.variant)
        actions = [(action.seat, action.action) for action in row.actions]
        game = adapter.replay(row.rules, seats=len(row.seats), seed=row.seed, actions=actions)
        table = LiveTable(row, adapter, game, actions)
        make_bots(table)
        return table

    def adopt(self, table: LiveTable) -> LiveTable:
        """Put a table read from the database in memory, unless a copy got there first
        (then that copy it is: there is only ever one live copy of a table)."""
        present = self.tables.get(table.id)
        if present is not None:
            return present
        now = time.monotonic()
        for seat in table.seats:
            if seat.kind == "human" and seat.joined:
                seat.away_since = now
        self.tables[table.id] = table
        self.residency.dormant_waiting.discard(table.id)
        if table.status == "playing":
            self._schedule_seat_checks(table)
            self.bots.kick(table)
        return table

    # -- lookup -----------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        """A table by id: live, or read from the database (and replayed in a worker
        thread) and then kept in memory while it is used."""
        table = self.tables.get(table_id)
        if table is None:
            table = await self._load(table_id)
        table.touched = time.monotonic()
        return table

    async def _load(self, table_id: str) -> LiveTable:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise ServerError("not_found", "no such table")
        if table_id in self.expiring:
            raise ServerError("not_found", f"no table {table_id!r}")
        self.loading.add(table_id)
        try:
            if self.cluster is not None:
                return await self.cluster.load(table_id)
            row = await asyncio.to_thread(self.store.load, table_id)
            if row is None:
                raise ServerError("not_found", f"no table {table_id!r}")
            table = self.tables.get(table_id)  # loaded meanwhile by another request
            if table is None:
                table = self.adopt(await asyncio.to_thread(self.restore, row))
        finally:
            self.loading.discard(table_id)
        return table

    def drop(self, table_id: str) -> None:
        """Let a table go from memory (a cluster node gives its lease up)."""
        self.tables.pop(table_id, None)
        if self.cluster is not None:
            self.cluster.release(table_id)

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

    async def create_table(
        self, request: Mapping[str, Any], client: str | None = None
    ) -> tuple[LiveTable, list[str | None]]:
        """Create a table from a lobby request (by the client at address ``client``);
        returns it and each seat's token."""
        row, adapter, tokens = parse_table_request(request, allow_seed=self.config.allow_seed)
        self.residency.check_waiting_quota(client)
        table = await self._insert(row, adapter, client)
        return table, tokens

    async def _insert(
        self, row: TableRow, adapter: VariantAdapter, client: str | None
    ) -> LiveTable:
        game = adapter.new_game(row.rules, seats=len(row.seats), seed=row.seed)
        table = LiveTable(row, adapter, game, [])
        table.creator = client
        make_bots(table)
        try:
            if self.cluster is not None:
                await self.cluster.claim_new(row.id)
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

    async def _join_locked(
        self, table: LiveTable, seat: int, name: Any, *, rename: bool = True
    ) -> None:
        entry = table.seats[seat]
        changed = not entry.joined
        entry.joined = True
        if name is not None and table.status == "finished":
            # The game's record (its replay, the list of games) names the players as
            # they played: a finished game's names are history.
            if not rename or clean_name(name, entry.name) == entry.name:
                return
            raise ServerError("game_over", "the game is over: its players' names stay as they were")
        if name is not None:
            new_name = clean_name(name, entry.name)
            changed = changed or new_name != entry.name
            entry.name = new_name
        if changed:
            await self._persist_seats(table)

    async def _persist_seats(self, table: LiveTable) -> None:
        try:
            await self.writer.commit(self.store.update_table(table.id, seats=table.stored_seats()))
        except ServerError:  # refused by the store itself: a cluster node lost the lease
            raise
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
                await self._join_locked(table, seat_index, name, rename=False)
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
        self.bots.kick(table)
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
                self.drop(table.id)  # replayed from the database on demand

    def _schedule_seat_checks(self, table: LiveTable) -> None:
        if self._closing:
            return
        loop = asyncio.get_running_loop()

        def check() -> None:
            self._timers.discard(handle)
            if self.tables.get(table.id) is table:
                self._broadcast_seats(table)
                self.bots.kick(table)

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
            except ServerError:
                raise
            except Exception:
                log.exception("could not start table %s", table.id)
                raise ServerError("storage_error", "the table could not be started") from None
            table.status = "playing"
            for client in table.clients():
                client.send({"type": "started", "table_id": table.id})
                client.send(self.snapshot(table, client.seat))
        self.bots.kick(table)

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
            self.moves.play(table, seat, dict(action), reply_to, request_id)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        seq = await asyncio.shield(task)
        self.bots.kick(table)
        return seq

    async def rematch(self, table: LiveTable, seat: int, address: str | None = None) -> str:
        """A new table with the same seats, rules and tokens; returns its id."""
        async with table.lock:
            if table.status != "finished":
                raise ServerError("not_finished", "a rematch is offered once the game is over")
            if table.rematch_id is not None:
                return table.rematch_id
            self.residency.check_waiting_quota(address)
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
            new_table = await self._insert(row, table.adapter, address)
            try:
                await self.writer.commit(self.store.update_table(table.id, rematch_id=row.id))
            except Exception:
                log.exception("could not link rematch of %s", table.id)
            table.rematch_id = row.id
            self.replays.forget(table.id)
            for client in table.clients():
                client.send({"type": "rematch", "table_id": row.id, "by": seat})
        return new_table.id
