"""Table leases in PostgreSQL (server/cluster/lease.py): one owner at a time, a new epoch
at every takeover, and a fence that refuses the writes of a node whose lease is gone."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from conftest import POSTGRES_URL, postgres_schema_url

from rummykit.server.cluster.lease import LeaseLostError, Leases
from rummykit.server.store import ActionRow, Store, TableRow

pytestmark = pytest.mark.skipif(
    POSTGRES_URL is None,
    reason="leases live in PostgreSQL: set RUMMYKIT_TEST_DATABASE_URL (scripts/test.sh does)",
)

TTL = 0.5


@pytest.fixture
def store() -> Iterator[Store]:
    with postgres_schema_url() as url:
        store = Store(url)
        store.create_schema()
        yield store
        store.dispose()


def _node(store: Store, name: str) -> Leases:
    leases = Leases(store.engine, name, TTL)
    leases.create_schema()
    return leases


def _append(store: Store, leases: Leases, table_id: str, seq: int) -> None:
    """Append an action as a node's writer does, fenced by ``leases``."""
    store.fence = leases.fence
    row = ActionRow(seq, 0, {"kind": "pass"}, "human", time.time())
    store.run_batch([Store.append_action(table_id, row)])


def _table(store: Store, table_id: str) -> None:
    row = TableRow(table_id, "gin", "standard", {}, 1, [{}, {}], "playing")
    store.run_batch([Store.insert_table(row)])


def test_one_owner_at_a_time_and_a_new_epoch_at_each_takeover(store: Store) -> None:
    first, second = _node(store, "first"), _node(store, "second")
    assert first.acquire("t1") == 1
    assert second.acquire("t1") is None
    owner = second.owner("t1")
    assert owner is not None and (owner.node, owner.live) == ("first", True)
    time.sleep(TTL + 0.1)
    assert second.acquire("t1") == 2
    owner = first.owner("t1")
    assert owner is not None and owner.node == "second"
    assert first.renew({"t1": 1}) == {}
    assert second.renew({"t1": 2}) == {"t1": 2}


def test_the_fence_refuses_a_node_whose_lease_was_taken_over(store: Store) -> None:
    _table(store, "t1")
    first, second = _node(store, "first"), _node(store, "second")
    first.epochs["t1"] = first.acquire("t1") or 0
    _append(store, first, "t1", 1)
    time.sleep(TTL + 0.1)
    second.epochs["t1"] = second.acquire("t1") or 0
    with pytest.raises(LeaseLostError) as refused:
        _append(store, first, "t1", 2)
    assert refused.value.code == "moved" and refused.value.table_ids == ["t1"]
    with pytest.raises(LeaseLostError):  # its other writes to the table too
        store.run_batch([Store.update_table("t1", status="finished")])
    _append(store, second, "t1", 2)
    loaded = store.load("t1")
    assert loaded is not None and [a.seq for a in loaded.actions] == [1, 2]
    assert loaded.status == "playing"


def test_the_fence_refuses_an_expired_lease_and_its_renewal_restores_it(store: Store) -> None:
    _table(store, "t1")
    node = _node(store, "node")
    node.epochs["t1"] = node.acquire("t1") or 0
    time.sleep(TTL + 0.1)
    with pytest.raises(LeaseLostError):
        _append(store, node, "t1", 1)
    # Nobody took it meanwhile: the renewal extends it and the node writes again.
    assert node.renew(dict(node.epochs)) == node.epochs
    _append(store, node, "t1", 1)


def test_a_released_lease_is_free_and_expired_ones_are_listed(store: Store) -> None:
    first, second = _node(store, "first"), _node(store, "second")
    assert first.acquire("a") == 1 and first.acquire("b") == 1
    first.release("a", 1)
    assert second.acquire("a") == 1  # a fresh row: nobody held it
    time.sleep(TTL + 0.1)
    assert set(second.expired(10)) == {"a", "b"}


def test_a_lost_lease_fails_only_its_own_moves_in_a_shared_commit(store: Store) -> None:
    import asyncio

    from rummykit.server.commit_queue import CommitQueue

    _table(store, "kept")
    _table(store, "lost")
    first, second = _node(store, "first"), _node(store, "second")
    for table_id in ("kept", "lost"):
        first.epochs[table_id] = first.acquire(table_id) or 0
    time.sleep(TTL + 0.1)
    second.acquire("lost")
    first.renew({"kept": first.epochs["kept"]})
    store.fence = first.fence
    queue = CommitQueue(store, inline=True)

    async def both() -> list[BaseException | None]:
        rows = [ActionRow(1, 0, {"kind": "pass"}, "human", time.time()) for _ in range(2)]
        return await asyncio.gather(
            queue.commit(Store.append_action("kept", rows[0])),
            queue.commit(Store.append_action("lost", rows[1])),
            return_exceptions=True,
        )

    kept, lost = asyncio.run(both())
    assert kept is None and isinstance(lost, LeaseLostError)
    assert queue.commits == 1  # the first node's other move in one more transaction
    loaded = {table_id: store.load(table_id) for table_id in ("kept", "lost")}
    assert [len(row.actions) for row in loaded.values() if row is not None] == [1, 0]
