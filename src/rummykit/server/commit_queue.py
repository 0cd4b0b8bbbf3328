"""Group commit: every write waits for a transaction that many tables share.

Callers (the table manager, the move pipeline) submit the operations a
:class:`~rummykit.server.store.Store` builds and await their commit; an action is
acknowledged and broadcast only after the transaction holding it has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

from rummykit.server.store import AppendAction, Operation, Store

__all__ = ["CommitQueue"]

_Request = tuple[list[Operation | AppendAction], "asyncio.Future[None]", asyncio.AbstractEventLoop]


class CommitQueue:
    """Grouped commits: callers await the commit of their operations.

    Whatever is submitted while a commit runs goes into the next one, so many tables
    share each transaction. For PostgreSQL the transactions run in one writer thread
    (the event loop never waits on the network). For SQLite with ``synchronous=NORMAL``,
    a local file and no fsync per commit, they run on the event loop itself right after
    the current batch of callbacks: a commit there takes well under a millisecond, and
    a second thread would only contend for the GIL with the loop (each SQLite call
    releases and re-takes it). ``synchronous=FULL`` fsyncs every commit, so that runs
    in the writer thread too.
    """

    def __init__(self, store: Store, *, max_batch: int = 256, inline: bool | None = None) -> None:
        self.store = store
        self.max_batch = max_batch
        if inline is None:
            inline = store.is_sqlite and store.sqlite_synchronous == "NORMAL"
        self.inline = inline
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pending: list[tuple[list[Operation | AppendAction], asyncio.Future[None]]] = []
        self._scheduled = False
        self.commits = 0

    def start(self) -> None:
        """Start the writer thread (not needed inline) and SQLite's checkpointer."""
        self.store.start_checkpointer()
        if self._thread is None and not self.inline:
            self._thread = threading.Thread(target=self._run, name="rummykit-commit", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Finish what is queued, then stop the writer thread and the checkpointer."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None
        self.store.stop_checkpointer()

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
        except Exception as error:
            lost = getattr(error, "table_ids", None)
            if lost and len(requests) > 1:
                return self._commit_without(requests, set(lost), error)
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

    def _commit_without(
        self, requests: list[list[Operation | AppendAction]], lost: set[str], error: Exception
    ) -> list[Exception | None]:
        """A cluster node lost the lease of some tables: their requests fail, the others
        are committed together again (not one by one: a lost lease must not cost every
        other table of the batch a transaction of its own)."""
        doomed = [bool(self.store.tables_written(ops) & lost) for ops in requests]
        kept = [ops for ops, fails in zip(requests, doomed, strict=True) if not fails]
        outcomes = iter(self._commit_batch(kept) if kept else [])
        return [error if fails else next(outcomes) for fails in doomed]

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
