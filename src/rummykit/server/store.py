"""Persistence: every table as an event log in SQLite or PostgreSQL (SQLAlchemy 2 Core).

A table is one row (variant, rules, seed, seats, status) and its accepted actions are
ordered rows ``(table_id, seq)``. The game state is never stored: it is the replay of
(rules, seed, actions), so a restarted server rebuilds every table exactly.

Writes go through one :class:`~rummykit.server.commit_queue.CommitQueue` that groups
whatever is waiting into one transaction (group commit): an action is acknowledged and
broadcast only after the transaction holding it has committed, and many tables share
each commit. The queue keeps one connection of its own, and appends actions with
prepared driver-level ``executemany`` statements (no ORM objects, no per-action SQL
compilation).

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default: a commit is in the
write-ahead log when it returns, so it survives the server process being killed at any
moment (what the restart tests check); an operating-system crash or a power cut may
lose the last commits, never corrupt the file. ``synchronous=FULL`` (``rummykit serve
--sqlite-synchronous full``) also survives those, at the cost of an fsync per commit.
Checkpoints (copying the log into the database file, with its fsyncs) are done ahead
by a thread of their own, so the commits on the event loop seldom wait for one.
"""

from __future__ import annotations

import contextlib
import json
import logging
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
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url

log = logging.getLogger("rummykit.server")

__all__ = [
    "DEFAULT_DATABASE_URL",
    "SQLITE_SYNCHRONOUS",
    "ActionRow",
    "AppendAction",
    "Fence",
    "Store",
    "TableRow",
    "TableUpdate",
    "actions_table",
    "encode_summary",
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


_dumps = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode
"""Canonical compact JSON for the stored columns (one encoder, not one per call)."""


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


SQLITE_SYNCHRONOUS = ("NORMAL", "FULL")
"""The ``synchronous`` settings offered: NORMAL survives a killed process, FULL also an
operating-system crash or a power cut."""


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    def pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        # After a checkpoint the log is rewound, not shrunk; keep its file bounded.
        cursor.execute("PRAGMA journal_size_limit=67108864")
        cursor.close()

    return pragmas


Operation = Callable[[Connection], None]

Fence = Callable[[Connection, set[str]], None]
"""Checked at the start of every transaction that writes to existing tables, with their
ids: raises unless this process may still write for each of them (a cluster's lease
epochs); ``None`` in a single process, which owns every table."""


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """An update of one table's row (an operation that names its table, for the fence)."""

    table_id: str
    values: dict[str, Any]

    def __call__(self, connection: Connection) -> None:
        connection.execute(
            update(tables_table).where(tables_table.c.id == self.table_id).values(**self.values)
        )


@dataclass(frozen=True, slots=True)
class AppendAction:
    """An action row to insert and its table row's new counters (batched together).

    Plain tuples in the order of the prepared statements below: a busy server makes
    thousands of these a second.
    """

    action: tuple[str, int, int, str, str, float]
    """``table_id, seq, seat, action, actor, created_at``."""
    counters: tuple[Any, ...]
    """``action_count, updated_at, summary[, status, finished_at], id``."""
    status: str | None


_INSERT_ACTION = (
    "INSERT INTO rk_actions (table_id, seq, seat, action, actor, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
_UPDATE_PLAYING = "UPDATE rk_tables SET action_count = ?, updated_at = ?, summary = ? WHERE id = ?"
_UPDATE_STATUS = (
    "UPDATE rk_tables SET action_count = ?, updated_at = ?, summary = ?, status = ?, "
    "finished_at = ? WHERE id = ?"
)


WRITER_CHECKPOINT_PAGES = 4000
"""Log pages after which the SQLite writer checkpoints (and so rewinds the log) itself,
while the checkpoint thread runs (SQLite's default is 1000)."""


def _placeholders(sql: str, paramstyle: str) -> str:
    """The statement in the driver's own placeholder style (``?`` or ``%s``)."""
    if paramstyle == "qmark":
        return sql
    if paramstyle in ("format", "pyformat"):
        return sql.replace("?", "%s")
    raise ValueError(f"unsupported DBAPI paramstyle {paramstyle!r}")


def encode_summary(summary: Mapping[str, Any]) -> str:
    """A table summary as stored in its row."""
    return _dumps(summary)


class Store:
    """Tables and action logs in one database, given by a SQLAlchemy URL."""

    def __init__(
        self, url: str = DEFAULT_DATABASE_URL, *, sqlite_synchronous: str = "NORMAL"
    ) -> None:
        parsed = make_url(url)
        self.url = url
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        synchronous = sqlite_synchronous.upper()
        if synchronous not in SQLITE_SYNCHRONOUS:
            raise ValueError(
                f"sqlite synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS)}, "
                f"not {sqlite_synchronous!r}"
            )
        self.sqlite_synchronous = synchronous
        if self.is_sqlite:
            self.engine: Engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": 10}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas(synchronous))
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
        paramstyle = self.engine.dialect.paramstyle
        self._sql_insert = _placeholders(_INSERT_ACTION, paramstyle)
        self._sql_playing = _placeholders(_UPDATE_PLAYING, paramstyle)
        self._sql_status = _placeholders(_UPDATE_STATUS, paramstyle)
        # The writer's own connection (run_batch runs on one thread at a time: the
        # CommitQueue's); the lock only guards against misuse.
        self._writer: Connection | None = None
        self._writer_lock = threading.Lock()
        self._checkpointer: threading.Thread | None = None
        self._checkpoint_stop = threading.Event()
        file = parsed.database if self.is_sqlite else None
        self._sqlite_file = (
            file if file and file != ":memory:" and "mode=memory" not in url else None
        )
        self.fence: Fence | None = None

    def create_schema(self) -> None:
        """Create the tables if they are missing (idempotent)."""
        metadata.create_all(self.engine)

    def dispose(self) -> None:
        """Stop the checkpointer, close the writer's and every pooled connection."""
        self.stop_checkpointer()
        with self._writer_lock:
            self._drop_writer()
        self.engine.dispose()

    # -- checkpoints (SQLite) -----------------------------------------------------------

    def start_checkpointer(self, interval: float = 0.25) -> None:
        """Checkpoint the SQLite log from a thread of its own every ``interval`` seconds.

        Otherwise SQLite checkpoints inside whichever commit takes the log past 1000
        pages, and that commit (on the event loop) waits while the pages are copied
        into the database file and both are fsynced. A PASSIVE checkpoint in this
        thread never blocks the writer and does that work beforehand, so the commit
        that crosses the limit (4000 pages while this thread runs) finds little or
        nothing left to copy. That commit's own checkpoint still matters: the log is
        rewound only after a checkpoint has copied every frame, which one running
        beside a busy writer seldom manages.
        """
        if self._sqlite_file is None or self._checkpointer is not None:
            return
        self._checkpoint_stop.clear()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, args=(interval,), name="rummykit-checkpoint", daemon=True
        )
        self._checkpointer.start()
        with self._writer_lock:
            self._drop_writer()  # the next one checkpoints less often

    def stop_checkpointer(self) -> None:
        """Stop the checkpoint thread."""
        thread, self._checkpointer = self._checkpointer, None
        if thread is None:
            return
        self._checkpoint_stop.set()
        thread.join(timeout=30)
        with self._writer_lock:
            self._drop_writer()

    def checkpoint(self, connection: Any = None) -> tuple[int, int, int]:
        """One PASSIVE checkpoint of the SQLite log (on ``connection``, a DBAPI
        connection, or a pooled one): SQLite's ``(busy, log frames, frames copied)``."""
        own = connection is None
        raw = self.engine.raw_connection() if own else connection
        try:
            cursor = raw.cursor()
            try:
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                row = cursor.fetchone()
            finally:
                cursor.close()
            if row is None:  # not in WAL mode: nothing to checkpoint
                return 0, 0, 0
            return int(row[0]), int(row[1]), int(row[2])
        finally:
            if own:
                raw.close()

    def _checkpoint_loop(self, interval: float) -> None:
        connection = self.engine.raw_connection()
        try:
            while not self._checkpoint_stop.wait(interval):
                try:
                    self.checkpoint(connection)
                except Exception:  # a busy or failing checkpoint is retried next time
                    log.warning("SQLite checkpoint failed; retrying", exc_info=True)
            with contextlib.suppress(Exception):
                self.checkpoint(connection)
        finally:
            connection.close()

    # -- the writer's connection ------------------------------------------------------

    def _writer_connection(self) -> Connection:
        if self._writer is None:
            connection = self.engine.connect()
            if self.is_sqlite:
                # With the checkpointer copying ahead, the writer's own checkpoint is
                # only there to rewind the log, but it still fsyncs on the event loop:
                # let the log grow to 16 MB (4000 pages) between two of them.
                pages = WRITER_CHECKPOINT_PAGES if self._checkpointer is not None else 1000
                connection.exec_driver_sql(f"PRAGMA wal_autocheckpoint={pages}")
                connection.commit()
            self._writer = connection
        return self._writer

    def _drop_writer(self) -> None:
        connection, self._writer = self._writer, None
        if connection is not None:
            with contextlib.suppress(Exception):
                if self.is_sqlite:  # SQLite's default again, before it goes to the pool
                    connection.exec_driver_sql("PRAGMA wal_autocheckpoint=1000")
                    connection.commit()
            with contextlib.suppress(Exception):
                connection.close()

    def _flush_appends(self, connection: Connection, appends: Sequence[AppendAction]) -> None:
        if not appends:
            return
        connection.exec_driver_sql(self._sql_insert, [append.action for append in appends])
        plain = [append.counters for append in appends if append.status is None]
        changed = [append.counters for append in appends if append.status is not None]
        if plain:
            connection.exec_driver_sql(self._sql_playing, plain)
        if changed:
            connection.exec_driver_sql(self._sql_status, changed)

    # -- writes (each returns an operation for the commit queue) ----------------------

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
    def update_table(table_id: str, **changes: Any) -> TableUpdate:
        """Update some columns of a table row (JSON columns are encoded here)."""
        values = dict(changes)
        for name in ("seats", "summary", "rules"):
            if name in values and values[name] is not None:
                values[name] = _dumps(values[name])
        values["updated_at"] = time.time()
        return TableUpdate(table_id, values)

    @staticmethod
    def append_action(
        table_id: str,
        row: ActionRow,
        *,
        status: str | None = None,
        summary: Mapping[str, Any] | str | None = None,
    ) -> AppendAction:
        """Append an action row and move the table's counters (and status) with it.

        ``summary`` may come encoded already (:func:`encode_summary`): it changes only
        when a hand ends, so callers keep its text rather than encode it per action.
        """
        encoded = summary if summary is None or isinstance(summary, str) else _dumps(summary)
        counters: tuple[Any, ...]
        if status is None:
            counters = (row.seq, row.created_at, encoded, table_id)
        else:
            finished = row.created_at if status == "finished" else None
            counters = (row.seq, row.created_at, encoded, status, finished, table_id)
        action = (table_id, row.seq, row.seat, _dumps(row.action), row.actor, row.created_at)
        return AppendAction(action=action, counters=counters, status=status)

    def run_batch(self, operations: Sequence[Operation | AppendAction]) -> None:
        """Run operations in one transaction (all or nothing), in order.

        Consecutive action appends go to the database as two executemany statements,
        whatever their number: the hot path of a busy server costs two round trips.
        Runs on the writer's own connection; after a failure that connection is
        replaced (it may be the connection that failed).
        """
        with self._writer_lock:
            connection = self._writer_connection()
            try:
                with connection.begin():
                    if self.fence is not None:
                        self._check_fence(connection, operations)
                    appends: list[AppendAction] = []
                    for operation in operations:
                        if isinstance(operation, AppendAction):
                            appends.append(operation)
                            continue
                        self._flush_appends(connection, appends)
                        appends = []
                        operation(connection)
                    self._flush_appends(connection, appends)
            except BaseException:
                self._drop_writer()
                raise

    def _check_fence(
        self, connection: Connection, operations: Sequence[Operation | AppendAction]
    ) -> None:
        assert self.fence is not None
        written = self.tables_written(operations)
        if written:
            self.fence(connection, written)

    @staticmethod
    def tables_written(operations: Sequence[Operation | AppendAction]) -> set[str]:
        """The existing tables that operations write to (what the fence checks)."""
        return {
            operation.action[0] if isinstance(operation, AppendAction) else operation.table_id
            for operation in operations
            if isinstance(operation, AppendAction | TableUpdate)
        }

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

    def load_recent(self, *, since: float, limit: int) -> list[TableRow]:
        """The playing tables changed since ``since`` (a ``time.time()``), with their logs,
        the most recently changed first, at most ``limit`` of them."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(tables_table)
                .where(tables_table.c.status == "playing", tables_table.c.updated_at >= since)
                .order_by(tables_table.c.updated_at.desc())
                .limit(limit)
            ).all()
            tables = [_row_to_table(row) for row in rows]
            for table in tables:
                table.actions = self._actions(connection, table.id)
        return tables

    def waiting_ids(self, *, before: float | None = None) -> list[str]:
        """The ids of the waiting tables (unchanged since ``before``, if given)."""
        query = select(tables_table.c.id).where(tables_table.c.status == "waiting")
        if before is not None:
            query = query.where(tables_table.c.updated_at < before)
        with self.engine.connect() as connection:
            return [str(row.id) for row in connection.execute(query)]

    @staticmethod
    def delete_waiting(table_ids: Sequence[str]) -> Operation:
        """Delete tables that never started (no actions); the finished tables whose
        rematches they were forget them. In slices, one statement each (a scan of the
        table for the rematch links per slice, not per table)."""

        def run(connection: Connection) -> None:
            for start in range(0, len(table_ids), 500):
                chunk = list(table_ids[start : start + 500])
                connection.execute(
                    delete(tables_table).where(
                        tables_table.c.id.in_(chunk), tables_table.c.status == "waiting"
                    )
                )
                connection.execute(
                    update(tables_table)
                    .where(tables_table.c.rematch_id.in_(chunk))
                    .values(rematch_id=None)
                )

        return run

    def list_tables(self, *, status: str | None = None, limit: int = 50) -> list[TableRow]:
        """Tables, most recently changed first, optionally of one status (no logs)."""
        query = select(tables_table).order_by(tables_table.c.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(tables_table.c.status == status)
        with self.engine.connect() as connection:
            return [_row_to_table(row) for row in connection.execute(query)]
