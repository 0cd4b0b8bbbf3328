"""Group commit: an action is acknowledged only once a fresh connection can read it,
many tables share a transaction, one bad request never sinks the others, the writer
survives losing its connection, SQLite's log stays bounded. A slow bot thinks in a
thread while the other tables play on.

Runs on SQLite, and on PostgreSQL too when RUMMYKIT_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    act,
    choose,
    create_table,
    hello,
    play_move,
    receive_until,
    start,
    wait_my_turn,
)
from sqlalchemy import Connection, create_engine, func, select, text
from sqlalchemy.exc import IntegrityError

from rummykit.server.commit_queue import CommitQueue
from rummykit.server.store import (
    WRITER_CHECKPOINT_PAGES,
    ActionRow,
    Store,
    TableRow,
    actions_table,
    tables_table,
)

TABLES = 12
MOVES = 8


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    store.create_schema()
    yield store
    store.dispose()


def table_row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        variant="gin",
        preset="gin",
        rules={},
        seed=1,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bot"}],
        status="playing",
    )


def move(seq: int) -> ActionRow:
    return ActionRow(seq, seq % 2, {"kind": "draw_stock"}, "human", time.time())


def stored_seqs(reader: Any, table_id: str) -> list[int]:
    """The action numbers of a table as a connection other than the writer's sees them."""
    with reader.connect() as connection:
        rows = connection.execute(
            select(actions_table.c.seq)
            .where(actions_table.c.table_id == table_id)
            .order_by(actions_table.c.seq)
        )
        return [row.seq for row in rows]


def test_every_commit_is_visible_to_a_fresh_connection_when_it_returns(
    store: Store, database_url: str
) -> None:
    reader = create_engine(database_url)
    ids = [f"t{index}" for index in range(TABLES)]

    async def play(writer: CommitQueue, table_id: str) -> None:
        for seq in range(1, MOVES + 1):
            await writer.commit(store.append_action(table_id, move(seq), summary={"n": seq}))
            # The caller is told "committed": any other connection reads the row now.
            assert stored_seqs(reader, table_id)[-1] == seq

    async def main() -> CommitQueue:
        writer = CommitQueue(store)
        writer.start()
        try:
            await asyncio.gather(*(writer.commit(store.insert_table(table_row(i))) for i in ids))
            await asyncio.gather(*(play(writer, table_id) for table_id in ids))
        finally:
            await asyncio.to_thread(writer.stop)
        return writer

    writer = asyncio.run(main())
    for table_id in ids:
        assert stored_seqs(reader, table_id) == list(range(1, MOVES + 1))
    with reader.connect() as connection:
        counts = connection.execute(select(tables_table.c.action_count)).scalars().all()
    assert counts == [MOVES] * TABLES
    if writer.inline:
        # On the event loop the tables' moves are submitted together, so they share
        # transactions: one per round of moves, not one per move.
        assert writer.commits <= 1 + MOVES
    reader.dispose()


def test_one_failing_request_does_not_sink_the_rest_of_its_batch(
    store: Store, database_url: str
) -> None:
    async def main() -> list[BaseException | None]:
        writer = CommitQueue(store)
        writer.start()
        try:
            await writer.commit(
                store.insert_table(table_row("a")), store.insert_table(table_row("b"))
            )
            await writer.commit(store.append_action("a", move(1)))
            return await asyncio.gather(
                writer.commit(store.append_action("a", move(2))),
                writer.commit(store.append_action("a", move(1))),  # seq 1 again: refused
                writer.commit(store.append_action("b", move(1))),
                return_exceptions=True,
            )
        finally:
            await asyncio.to_thread(writer.stop)

    outcomes = asyncio.run(main())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], IntegrityError)
    reader = create_engine(database_url)
    assert stored_seqs(reader, "a") == [1, 2]
    assert stored_seqs(reader, "b") == [1]
    reader.dispose()


def test_the_writer_gets_a_new_connection_after_a_failure(store: Store, database_url: str) -> None:
    def broken(_connection: Connection) -> None:
        raise RuntimeError("the database went away")

    async def main() -> None:
        writer = CommitQueue(store)
        writer.start()
        try:
            await writer.commit(store.insert_table(table_row("a")))
            with pytest.raises(RuntimeError):
                await writer.commit(broken)
            if not store.is_sqlite:
                # The server ends the writer's session, as a database restart would.
                first = store._writer_connection()
                pid = first.exec_driver_sql("SELECT pg_backend_pid()").scalar()
                first.rollback()
                with store.engine.connect() as admin:
                    admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            await writer.commit(store.append_action("a", move(1)))
        finally:
            await asyncio.to_thread(writer.stop)

    asyncio.run(main())
    reader = create_engine(database_url)
    assert stored_seqs(reader, "a") == [1]
    reader.dispose()


def test_sqlite_checkpoints_keep_the_log_bounded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    store = Store(url)
    store.create_schema()
    writer = CommitQueue(store)
    moves = 3000
    log_file = tmp_path / "tables.db-wal"

    async def main() -> int:
        writer.start()
        largest = 0
        try:
            await writer.commit(store.insert_table(table_row("a")))
            for seq in range(1, moves + 1):
                await writer.commit(store.append_action("a", move(seq)))
                largest = max(largest, log_file.stat().st_size)
        finally:
            await asyncio.to_thread(writer.stop)
        return largest

    largest = asyncio.run(main())
    # Three or more pages a commit: a log never rewound would pass 36 MB.
    assert largest < (WRITER_CHECKPOINT_PAGES + 1000) * (4096 + 24)
    busy, log, done = store.checkpoint()
    assert busy == 0 and log == done  # everything committed reached the database file
    store.dispose()
    engine = create_engine(url)
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(actions_table)).scalar()
        assert count == moves
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()


@pytest.mark.parametrize(("setting", "level", "inline"), [("normal", 1, True), ("FULL", 2, False)])
def test_sqlite_synchronous_setting(tmp_path: Path, setting: str, level: int, inline: bool) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}", sqlite_synchronous=setting)
    store.create_schema()
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == level
    writer = CommitQueue(store)
    # An fsync per commit (FULL) must not stall the event loop: it runs in the thread.
    assert writer.inline is inline

    async def main() -> None:
        writer.start()
        try:
            await writer.commit(store.insert_table(table_row("a")))
            await writer.commit(store.append_action("a", move(1)))
        finally:
            await asyncio.to_thread(writer.stop)

    asyncio.run(main())
    assert store.load("a") is not None
    assert [row.seq for row in store.load("a").actions] == [1]  # type: ignore[union-attr]
    store.dispose()
    with pytest.raises(ValueError, match="synchronous"):
        Store(f"sqlite:///{tmp_path / 'other.db'}", sqlite_synchronous="off")


def test_freeze_gc_moves_start_up_objects_out_of_collections(
    make_client: Callable[..., TestClient],
) -> None:
    gc.unfreeze()
    try:
        make_client(freeze_gc=True)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


class GatedBot:
    """A bot that, once asked, thinks until the test lets it answer."""

    name = "gated"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.thinking = threading.Event()
        self.gate = threading.Event()

    def act(self, observation: Any, legal: Any) -> Any:
        self.thinking.set()
        assert self.gate.wait(timeout=60), "the test never let the bot answer"
        return self.inner.act(observation, legal)


def test_a_slow_bot_thinks_in_a_thread_while_other_tables_play(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(bot_thread_after=0.0)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    slow_id, (slow_token,) = create_table(client, seed=3)
    other_id, (other_token,) = create_table(client, seed=4)
    gated = GatedBot(manager.tables[slow_id].seats[1].bot)
    manager.tables[slow_id].seats[1].bot = gated
    with client.websocket_connect(f"/ws/tables/{slow_id}") as slow:
        hello(slow, slow_token)
        view = start(slow)["view"]
        for _ in range(10):
            if view["current_player"] == 1:
                break
            view = play_move(slow, view)
        # The bot is thinking, holding its own table's lock, in a worker thread...
        assert gated.thinking.wait(timeout=60)
        with client.websocket_connect(f"/ws/tables/{other_id}") as other:
            # ... and the event loop serves another table meanwhile.
            hello(other, other_token)
            other_view = wait_my_turn(other, start(other)["view"])
            assert act(other, choose(other_view), "o1")["type"] == "ack"
        assert not gated.gate.is_set()
        gated.gate.set()
        message = receive_until(slow, lambda m: m["type"] == "update" and m["actor"] == 1)
        assert message["by"] == "bot"
