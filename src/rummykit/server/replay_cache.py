"""Finished games' replays: built once, in a worker thread, kept compressed and bounded.

A replay shows the whole table after every action of a game: a long Rami game (8,100
moves) takes over a second to replay and is 5.8 MB of JSON. Built on the event loop at
every request, a few clients asking for it in a loop stalled every table. So a replay
is built in a worker thread (at most :data:`MAX_BUILDS` at once), only once however
many clients ask for it meanwhile, and kept gzip-compressed (a finished game does not
change) in a cache bounded by ``replay_cache_bytes``, least recently used first out.
A client that accepts gzip gets those bytes as they are.

What does change once a game is over is its ``rematch_id`` (a rematch is made, or an
unused one expires): the table manager then forgets that replay.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from rummykit.server.protocol import ServerError
from rummykit.server.replays import replay_record, replay_steps, row_summary
from rummykit.server.store import Store

__all__ = ["MAX_BUILDS", "ReplayCache", "accepts_gzip"]

MAX_BUILDS: Final = 2
"""Replays being built at once across the server (each holds a worker thread)."""

_COMPRESS_LEVEL: Final = 6


@dataclass(frozen=True, slots=True)
class _Replay:
    compressed: bytes
    rematch_id: str | None


class ReplayCache:
    """Compressed replays by table id, at most ``max_bytes`` of them."""

    def __init__(self, store: Store, max_bytes: int) -> None:
        self.store = store
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[str, _Replay] = OrderedDict()
        self._building: dict[str, asyncio.Future[_Replay]] = {}
        self._slots: asyncio.Semaphore | None = None
        self.builds = 0
        """Replays built so far (a figure for tests and benchmarks)."""

    async def compressed(self, table_id: str) -> bytes:
        """The gzip-compressed JSON replay of a finished game (``not_found``,
        ``not_finished`` otherwise)."""
        entry = self._entries.get(table_id)
        if entry is not None:
            self._entries.move_to_end(table_id)
            return entry.compressed
        building = self._building.get(table_id)
        if building is None:
            building = asyncio.ensure_future(self._build(table_id))
            self._building[table_id] = building
            building.add_done_callback(lambda _: self._building.pop(table_id, None))
        return (await asyncio.shield(building)).compressed

    async def _build(self, table_id: str) -> _Replay:
        if self._slots is None:
            self._slots = asyncio.Semaphore(MAX_BUILDS)
        async with self._slots:
            replay = await asyncio.to_thread(_build, self.store, table_id)
        self.builds += 1
        self._keep(table_id, replay)
        return replay

    def _keep(self, table_id: str, replay: _Replay) -> None:
        if len(replay.compressed) > self.max_bytes:
            return
        self.forget(table_id)
        self._entries[table_id] = replay
        self.size += len(replay.compressed)
        while self.size > self.max_bytes:
            _, oldest = self._entries.popitem(last=False)
            self.size -= len(oldest.compressed)

    def forget(self, table_id: str) -> None:
        """Drop a game's replay (its table changed)."""
        entry = self._entries.pop(table_id, None)
        if entry is not None:
            self.size -= len(entry.compressed)

    def forget_rematches(self, rematch_ids: set[str]) -> None:
        """Drop the replays of the games whose rematches were ``rematch_ids``."""
        for table_id in [k for k, e in self._entries.items() if e.rematch_id in rematch_ids]:
            self.forget(table_id)

    def __len__(self) -> int:
        return len(self._entries)


def _build(store: Store, table_id: str) -> _Replay:
    """Read, replay, encode and compress (in a worker thread)."""
    row = store.load(table_id)
    if row is None:
        raise ServerError("not_found", f"no table {table_id!r}")
    if row.status != "finished":
        raise ServerError("not_finished", "only finished games can be replayed")
    data = {"table": row_summary(row), "record": replay_record(row), "steps": replay_steps(row)}
    text = json.dumps(data, separators=(",", ":")).encode()
    return _Replay(gzip.compress(text, compresslevel=_COMPRESS_LEVEL, mtime=0), row.rematch_id)


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (and not with ``q=0``).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(None)
    (True, False, False)
    """
    for part in (accept_encoding or "").split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = params.strip().lower()
            return not (quality.startswith("q=") and _zero(quality[2:]))
    return False


def _zero(text: str) -> bool:
    try:
        return float(text) == 0
    except ValueError:
        return False
