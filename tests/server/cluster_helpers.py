"""Helpers for the cluster tests: PostgreSQL and Redis (or a clear skip), nodes as
``rummykit serve`` subprocesses, and players that reconnect by themselves, checking
that the ``seq`` of the updates they receive never skips or repeats."""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_helpers import first_legal, free_port, server_process

from rummykit.server.store import Store

websockets_sync = pytest.importorskip("websockets.sync.client")
websockets_exceptions = pytest.importorskip("websockets.exceptions")

LEASE = 5.0
"""Lease seconds of the test nodes: the default. A shorter lease lets a loaded test
machine (a browser starting beside two nodes on two cores) delay a renewal past it, and
the table moves before the test means it to."""


def redis_url() -> str:
    """The tests' Redis (``RUMMYKIT_TEST_REDIS_URL``); skip, saying why, without one."""
    url = os.environ.get("RUMMYKIT_TEST_REDIS_URL")
    if not url:
        pytest.skip(
            "the cluster tests need Redis: set RUMMYKIT_TEST_REDIS_URL (scripts/test.sh does)"
        )
    redis = pytest.importorskip("redis", reason="the cluster tests need redis-py (server extra)")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception as error:
        pytest.skip(f"the cluster tests need Redis at {url}, which does not answer: {error}")
    return url


def postgres_required() -> None:
    if not os.environ.get("RUMMYKIT_TEST_DATABASE_URL"):
        pytest.skip(
            "the cluster tests need PostgreSQL: "
            "set RUMMYKIT_TEST_DATABASE_URL (scripts/test.sh does)"
        )


class Cluster:
    """Nodes on free loopback ports sharing one database and one Redis."""

    def __init__(self, database_url: str, redis: str, log_dir: Path) -> None:
        self.database_url = database_url
        self.redis = redis
        self.log_dir = log_dir
        self.stack = ExitStack()
        self.ports: list[int] = []
        self.processes: list[Any] = []

    def start(self, count: int, *extra: str) -> None:
        for _ in range(count):
            port = free_port()
            process = self.stack.enter_context(
                server_process(
                    self.database_url,
                    port,
                    self.log_dir / f"node-{port}.log",
                    "--redis-url",
                    self.redis,
                    "--lease-seconds",
                    str(LEASE),
                    *extra,
                )
            )
            self.ports.append(port)
            self.processes.append(process)

    def health(self, index: int) -> dict[str, Any]:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{self.ports[index]}/api/health", timeout=5
        ) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def log_text(self) -> str:
        return "".join(path.read_text() for path in sorted(self.log_dir.glob("node-*.log")))

    def stored_actions(self, table_id: str) -> list[tuple[int, int, dict[str, Any]]]:
        store = Store(self.database_url)
        try:
            row = store.load(table_id)
        finally:
            store.dispose()
        assert row is not None
        return [(action.seq, action.seat, action.action) for action in row.actions]

    def close(self) -> None:
        self.stack.close()


@contextmanager
def cluster(database_url: str, log_dir: Path) -> Iterator[Cluster]:
    nodes = Cluster(database_url, redis_url(), log_dir)
    try:
        yield nodes
    finally:
        nodes.close()


class DisconnectedError(Exception):
    """The player's connection closed (its node died or let the table go)."""


class Player:
    """A websocket client on a list of nodes: it reconnects to the next node by itself
    and checks that the updates of each connection follow its snapshot without a gap
    or a repeat."""

    def __init__(self, ports: list[int], table_id: str, token: str | None = None) -> None:
        self.ports = ports
        self.index = 0
        self.table_id = table_id
        self.token = token
        self.ws: Any = None
        self.stack = ExitStack()
        self.seq = -1
        self.view: dict[str, Any] | None = None
        self.updates: list[int] = []
        self.acked: dict[int, dict[str, Any]] = {}
        self.connections = 0
        self.moves = 0
        self.connect()

    @property
    def port(self) -> int:
        return self.ports[self.index % len(self.ports)]

    def connect(self, timeout: float = 30.0) -> dict[str, Any]:
        """(Re)connect, to this node or, failing that, the next; returns the welcome."""
        deadline = time.monotonic() + timeout
        while True:
            self.close()
            try:
                self.stack = ExitStack()
                self.ws = self.stack.enter_context(
                    websockets_sync.connect(
                        f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}", open_timeout=5
                    )
                )
                hello: dict[str, Any] = {"type": "hello", "v": 1}
                if self.token is not None:
                    hello["token"] = self.token
                self.ws.send(json.dumps(hello))
                while True:
                    message = json.loads(self.ws.recv(timeout=10))
                    if message["type"] == "error":
                        raise DisconnectedError(message)
                    if message["type"] == "welcome":
                        break
            except (
                OSError,
                TimeoutError,
                DisconnectedError,
                websockets_exceptions.WebSocketException,
            ):
                if time.monotonic() > deadline:
                    raise
                self.index += 1
                time.sleep(0.2)
                continue
            self.connections += 1
            self.seq = message["seq"]
            self.view = message["view"]
            return dict(message)

    def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        except websockets_exceptions.ConnectionClosed as closed:
            raise DisconnectedError(str(closed)) from None
        if message["type"] == "update":
            assert message["seq"] == self.seq + 1, (message["seq"], self.seq)
            self.seq = message["seq"]
            self.updates.append(self.seq)
            self.view = message["view"]
        elif message["type"] == "snapshot":
            assert message["seq"] >= self.seq
            self.seq = message["seq"]
            self.view = message["view"]
        return message

    def until(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(timeout=max(0.1, deadline - time.monotonic()))
            if predicate(message):
                return message
        raise AssertionError("message never came")

    def wait_turn(self) -> dict[str, Any]:
        while not (self.view and (self.view["legal_actions"] or self.view["is_over"])):
            self.until(lambda m: m["type"] in ("update", "snapshot"))
        assert self.view is not None
        return self.view

    def move(self, action: dict[str, Any]) -> int:
        """Play ``action``; its seq once acknowledged and its update received."""
        self.moves += 1
        request_id = f"move-{self.moves}"
        try:
            self.ws.send(json.dumps({"type": "act", "id": request_id, "action": action}))
        except websockets_exceptions.ConnectionClosed as closed:
            raise DisconnectedError(str(closed)) from None
        answer = self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == request_id)
        assert answer["type"] == "ack", answer
        seq: int = answer["seq"]
        self.acked[seq] = action
        self.until(lambda m: m["type"] == "update" and m["seq"] == seq)
        return seq

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):  # already gone
                self.stack.close()
            self.ws = None


def play_round(players: list[Player], moves: int) -> None:
    """``moves`` moves by whoever's turn it is (two human seats), reconnecting as needed."""
    done = 0
    while done < moves:
        for player in players:
            view = player.view
            if view and view["is_over"]:
                return
            if not (view and view["legal_actions"]):
                continue
            try:
                player.move(first_legal(view))
            except DisconnectedError:
                player.connect()
                continue
            done += 1
            for other in players:
                if other is not player:
                    sync(other, player.seq)


def sync(player: Player, seq: int) -> None:
    """Read until ``player`` has seen ``seq`` (reconnecting if its connection closed)."""
    deadline = time.monotonic() + 30
    while player.seq < seq:
        assert time.monotonic() < deadline, "the update never came"
        try:
            player.until(lambda m: m["type"] in ("update", "snapshot"))
        except DisconnectedError:
            player.connect()
