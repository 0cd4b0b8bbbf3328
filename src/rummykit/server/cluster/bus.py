"""Messages between the nodes of a cluster: Redis pub/sub, one channel per node.

Each node subscribes to its own channel and publishes to the others' through one task
that sends in order on one connection, so the messages from one node to another arrive
in the order they were sent: what keeps a table's updates in ``seq`` order for clients
relayed through another node. Pub/sub keeps nothing for a node that is not listening;
the relays do not need it to: a node whose subscription broke ends every relayed
connection (:meth:`Bus.on_reset`), and the clients reconnect and start from a snapshot.

Each node also refreshes a key of its own (its heartbeat) that expires after the lease
time: a node's peers see from it that the node is gone or stalled.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

import redis.asyncio as aioredis

__all__ = ["Bus"]

log = logging.getLogger("rummykit.server")

Item = list[Any]
"""One message: its kind first (``open``, ``msg``, ``close``, ``text``, ``end``...)."""

_dumps = json.JSONEncoder(separators=(",", ":")).encode


class Bus:
    """This node's Redis connection: its channel, its heartbeat, messages to others."""

    def __init__(
        self,
        url: str,
        node: str,
        *,
        heartbeat_ttl: float,
        on_item: Callable[[Item], None],
        on_reset: Callable[[], None],
        prefix: str = "rummykit",
    ) -> None:
        self.node = node
        self.prefix = prefix
        self.heartbeat_ttl = heartbeat_ttl
        self.on_item = on_item
        self.on_reset = on_reset
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self._outbox: dict[str, list[str]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.sent = 0
        self.received = 0

    def channel(self, node: str) -> str:
        """The channel a node listens on."""
        return f"{self.prefix}:node:{node}"

    def _alive_key(self, node: str) -> str:
        return f"{self.prefix}:alive:{node}"

    async def start(self) -> None:
        """Beat once, subscribe, then listen, send and beat in the background."""
        await self.beat()
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel(self.node))
        self._tasks = [
            asyncio.ensure_future(self._listen(pubsub)),
            asyncio.ensure_future(self._send_forever()),
            asyncio.ensure_future(self._beat_forever()),
        ]

    async def stop(self) -> None:
        """Send what is queued, stop listening, say this node is gone."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), timeout=2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive_key(self.node))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- sending ------------------------------------------------------------------------

    def send(self, node: str, item: Item) -> None:
        """Queue a message for ``node``; sent with whatever else is queued, in order."""
        self._outbox.setdefault(node, []).append(_dumps(item))
        self._wake.set()

    async def _send_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
            except Exception:
                log.exception("cluster bus: publishing failed")
                self.on_reset()
                await asyncio.sleep(0.5)

    async def _flush(self) -> None:
        outbox, self._outbox = self._outbox, {}
        if not outbox:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for node, items in outbox.items():
                pipe.publish(self.channel(node), "[" + ",".join(items) + "]")
                self.sent += len(items)
            await pipe.execute()

    # -- receiving ----------------------------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster bus: the subscription broke; resubscribing")
                self.on_reset()
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                    await pubsub.subscribe(self.channel(self.node))
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                items = json.loads(message["data"])
            except ValueError:
                log.warning("cluster bus: a message that is not JSON was ignored")
                continue
            for item in items:
                self.received += 1
                try:
                    self.on_item(item)
                except Exception:
                    log.exception("cluster bus: handling %r failed", item[:2])

    # -- heartbeats ---------------------------------------------------------------------

    async def beat(self) -> None:
        """Say this node is alive for the next ``heartbeat_ttl`` seconds."""
        await self.redis.set(
            self._alive_key(self.node), "1", px=max(1, int(self.heartbeat_ttl * 1000))
        )

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_ttl / 4)
            try:
                await self.beat()
            except Exception:
                log.warning("cluster bus: heartbeat failed", exc_info=True)

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat is running."""
        wanted = sorted(set(nodes))
        if not wanted:
            return set()
        values = await self.redis.mget([self._alive_key(node) for node in wanted])
        return {node for node, value in zip(wanted, values, strict=True) if value is not None}
