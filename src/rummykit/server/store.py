"""Persistence: every table as an event log in SQLite or PostgreSQL (SQLAlchemy 2 Core).

A table is one row (variant, rules, seed, seats, status) and its accepted actions are
ordered rows ``(table_id, seq)``. The game state is never stored: it is the replay of
(rules, seed, actions), so a restarted server rebuilds every table exactly.

Writes go through one :class:`CommitQueue` thread that groups whatever is waiting into
one transaction (group commit): an action is acknowledged and broadcast only after the
transaction holding it has committed, and many tables share each commit. SQLite runs in
WAL mode with ``synchronous=NORMAL``, which survives a killed process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ActionRow",
    "AppendAction",
    "CommitQueue",
    "Store",
    "TableRow",
    "actions_table",
    "metadata",
    "tables_table",
]

DEFAULT_DATABASE_URL = "sqlite:///rummykit.db"
"""A SQLite file in the working directory."""

metadata = MetaData()

tables_table = Table(
    "rk_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("action_count", Integer, nullable=False),
    Column("summary", Text, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

actions_table = Table(
    "rk_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("rk_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("actor", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass(slots=True)
class ActionRow:
    """One accepted action: its place in the log, the seat, the JSON, who chose it."""

    seq: int
    seat: int
    action: dict[str, Any]
    actor: str
    created_at: float


@dataclass(slots=True)
class TableRow:
    """A table as stored (seats include token hashes: never send them to a client)."""

    id: str
    variant: str
    preset: str
    rules: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str
    action_count: int = 0
    summary: dict[str, Any] | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    actions: list[ActionRow] = field(default_factory=list)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _row_to_table(row: Any) -> TableRow:
    return TableRow(
        id=row.id,
        variant=row.variant,
        preset=row.preset,
        rules=json.loads(row.rules),
        seed=int(row.seed),
        seats=json.loads(row.seats),
        status=row.status,
        action_count=row.action_count,
        summary=None if row.summary is None else json.loads(row.summary),
        rematch_of=row.rematch_of,
        rematch_id=row.rematch_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


Operation = Callable[[Connection], None]


@dataclass(frozen=True, slots=True)
class AppendAction:
    """An action row to insert and its table row's new counters (batched together)."""

    action: dict[str, Any]
    table: dict[str, Any]


_INSERT_ACTION = insert(actions_table)
_UPDATE_PLAYING = (
    update(tables_table)
    .where(tables_table.c.id == bindparam("b_id"))
    .values(
        action_count=bindparam("b_count"),
        updated_at=bindparam("b_updated"),
        summary=bindparam("b_summary"),
    )
)
_UPDATE_STATUS = (
    update(tables_table)
    .where(tables_table.c.id == bindparam("b_id"))
    .values(
        action_count=bindparam("b_count"),
        updated_at=bindparam("b_updated"),
        summary=bindparam("b_summary"),
        status=bindparam("b_status"),
        finished_at=bindparam("b_finished"),
    )
)


def _flush_appends(connection: Connection, appends: Sequence[AppendAction]) -> None:
    if not appends:
        return
    connection.execute(_INSERT_ACTION, [append.action for append in appends])
    plain = [append.table for append in appends if append.table["b_status"] is None]
    changed = [append.table for append in appends if append.table["b_status"] is not None]
    if plain:
        connection.execute(_UPDATE_PLAYING, plain)
    if changed:
        connection.execute(_UPDATE_STATUS, changed)


class Store:
    """Tables and action logs in one database, given by a SQLAlchemy URL."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL) -> None:
        parsed = make_url(url)
        self.url = url
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            self.engine: Engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": 10}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)

    def create_schema(self) -> None:
        """Create the tables if they are missing (idempotent)."""
        metadata.create_all(self.engine)

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- writes (each returns an operation for :class:`CommitQueue`) --------------------

    @staticmethod
    def insert_table(table: TableRow) -> Operation:
        """Insert a new table row."""
        values = {
            "id": table.id,
            "variant": table.variant,
            "preset": table.preset,
            "rules": _dumps(table.rules),
            "seed": table.seed,
            "seats": _dumps(table.seats),
            "status": table.status,
            "action_count": table.action_count,
            "summary": None if table.summary is None else _dumps(table.summary),
            "rematch_of": table.rematch_of,
            "rematch_id": table.rematch_id,
            "created_at": table.created_at,
            "updated_at": table.updated_at,
            "finished_at": table.finished_at,
        }

        def run(connection: Connection) -> None:
            connection.execute(insert(tables_table).values(**values))

        return run

    @staticmethod
    def update_table(table_id: str, **changes: Any) -> Operation:
        """Update some columns of a table row (JSON columns are encoded here)."""
        values = dict(changes)
        for name in ("seats", "summary", "rules"):
            if name in values and values[name] is not None:
                values[name] = _dumps(values[name])
        values["updated_at"] = time.time()

        def run(connection: Connection) -> None:
            connection.execute(
                update(tables_table).where(tables_table.c.id == table_id).values(**values)
            )

        return run

    @staticmethod
    def append_action(
        table_id: str,
        row: ActionRow,
        *,
        status: str | None = None,
        summary: Mapping[str, Any] | None = None,
    ) -> AppendAction:
        """Append an action row and move the table's counters (and status) with it."""
        return AppendAction(
            action={
                "table_id": table_id,
                "seq": row.seq,
                "seat": row.seat,
                "action": _dumps(row.action),
                "actor": row.actor,
                "created_at": row.created_at,
            },
            table={
                "b_id": table_id,
                "b_count": row.seq,
                "b_updated": row.created_at,
                "b_summary": None if summary is None else _dumps(summary),
                "b_status": status,
                "b_finished": row.created_at if status == "finished" else None,
            },
        )

    def run_batch(self, operations: Sequence[Operation | AppendAction]) -> None:
        """Run operations in one transaction (all or nothing), in order.

        Consecutive action appends go to the database as two executemany statements,
        whatever their number: the hot path of a busy server costs two round trips.
        """
        with self.engine.begin() as connection:
            appends: list[AppendAction] = []
            for operation in operations:
                if isinstance(operation, AppendAction):
                    appends.append(operation)
                    continue
                _flush_appends(connection, appends)
                appends = []
                operation(connection)
            _flush_appends(connection, appends)

    # -- reads --------------------------------------------------------------------------

    def _actions(self, connection: Connection, table_id: str) -> list[ActionRow]:
        rows = connection.execute(
            select(actions_table)
            .where(actions_table.c.table_id == table_id)
            .order_by(actions_table.c.seq)
        )
        return [
            ActionRow(row.seq, row.seat, json.loads(row.action), row.actor, row.created_at)
            for row in rows
        ]

    def load(self, table_id: str, *, with_actions: bool = True) -> TableRow | None:
        """One table (with its action log), or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(tables_table).where(tables_table.c.id == table_id)
            ).first()
            if row is None:
                return None
            table = _row_to_table(row)
            if with_actions:
                table.actions = self._actions(connection, table_id)
            return table

    def load_active(self) -> list[TableRow]:
        """Every table not yet finished, with its action log, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(tables_table)
                .where(tables_table.c.status != "finished")
                .order_by(tables_table.c.created_at)
            ).all()
            tables = [_row_to_table(row) for row in rows]
            for table in tables:
                table.actions = self._actions(connection, table.id)
        return tables

    def list_tables(self, *, status: str | None = None, limit: int = 50) -> list[TableRow]:
        """Tables, most recently changed first, optionally of one status (no logs)."""
        query = select(tables_table).order_by(tables_table.c.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(tables_table.c.status == status)
        with self.engine.connect() as connection:
            return [_row_to_table(row) for row in connection.execute(query)]


_Request = tuple[list[Operation | AppendAction], "asyncio.Future[None]", asyncio.AbstractEventLoop]


class CommitQueue:
    """Grouped commits: callers await the commit of their operations.

    Whatever is submitted while a commit runs goes into the next one, so many tables
    share each transaction. For PostgreSQL the transactions run in one writer thread
    (the event loop never waits on the network). For SQLite, a local file, they run on
    the event loop itself right after the current batch of callbacks: a commit there
    takes well under a millisecond, and a second thread would only contend for the GIL
    with the loop (each SQLite call releases and re-takes it).
    """

    def __init__(self, store: Store, *, max_batch: int = 256, inline: bool | None = None) -> None:
        self.store = store
        self.max_batch = max_batch
        self.inline = store.is_sqlite if inline is None else inline
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pending: list[tuple[list[Operation | AppendAction], asyncio.Future[None]]] = []
        self._scheduled = False
        self.commits = 0

    def start(self) -> None:
        """Start the writer thread (not needed inline)."""
        if self._thread is None and not self.inline:
            self._thread = threading.Thread(target=self._run, name="rummykit-commit", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Finish what is queued, then stop the writer thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None

    async def commit(self, *operations: Operation | AppendAction) -> None:
        """Run ``operations`` in a transaction; return once it has committed.

        Raises the database error if that transaction failed (nothing of it is kept).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if self.inline:
            self._pending.append((list(operations), future))
            if not self._scheduled:
                self._scheduled = True
                loop.call_soon(self._flush_inline)
        else:
            self._queue.put((list(operations), future, loop))
        await future

    def _flush_inline(self) -> None:
        self._scheduled = False
        batch, self._pending = self._pending, []
        for outcome, (_, future) in zip(
            self._commit_batch([ops for ops, _ in batch]), batch, strict=True
        ):
            if not future.done():
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)

    def _commit_batch(
        self, requests: list[list[Operation | AppendAction]]
    ) -> list[Exception | None]:
        """Commit requests together; if that fails, each on its own (one bad request
        must not sink the others). Returns each request's error or ``None``."""
        try:
            self.store.run_batch([op for ops in requests for op in ops])
        except Exception:
            outcomes: list[Exception | None] = []
            for ops in requests:
                try:
                    self.store.run_batch(ops)
                except Exception as error:
                    outcomes.append(error)
                else:
                    self.commits += 1
                    outcomes.append(None)
            return outcomes
        self.commits += 1
        return [None] * len(requests)

    @staticmethod
    def _settle(
        future: asyncio.Future[None], loop: asyncio.AbstractEventLoop, error: Exception | None
    ) -> None:
        def settle() -> None:
            if future.done():
                return
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.append(more)
            outcomes = self._commit_batch([ops for ops, _, _ in batch])
            for outcome, (_, future, loop) in zip(outcomes, batch, strict=True):
                self._settle(future, loop, outcome)
