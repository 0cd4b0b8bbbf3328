"""Kill the server process (SIGKILL) in the middle of a hand, start it again, play on.

The server runs as a real subprocess (``rummykit serve``) on a free loopback port; the
test speaks to it over real HTTP and websocket connections.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from server_helpers import first_legal, free_port, post, server_process

from rummykit.server.store import Store

websockets_sync = pytest.importorskip("websockets.sync.client")


class Player:
    """A websocket client speaking the protocol to a real server."""

    def __init__(self, port: int, table_id: str, token: str) -> None:
        self.stack = ExitStack()
        self.ws = self.stack.enter_context(
            websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}")
        )
        self.ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        self.welcome = self.until(lambda m: m["type"] == "welcome")
        self.view: dict[str, Any] | None = self.welcome["view"]
        self.moves = 0

    def until(self, predicate: Any) -> dict[str, Any]:
        for _ in range(1000):
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] in ("update", "snapshot") and message.get("view"):
                self.view = message["view"]
            if predicate(message):
                return message
        raise AssertionError("message never came")

    def wait_turn(self) -> dict[str, Any]:
        while not (self.view and (self.view["legal_actions"] or self.view["is_over"])):
            self.until(lambda m: m["type"] in ("update", "snapshot"))
        assert self.view is not None
        return self.view

    def move(self, action: dict[str, Any]) -> int:
        self.moves += 1
        request_id = f"move-{self.moves}"
        self.ws.send(json.dumps({"type": "act", "id": request_id, "action": action}))
        ack = self.until(lambda m: m["type"] == "ack" and m["id"] == request_id)
        seq: int = ack["seq"]
        self.until(lambda m: m["type"] == "update" and m["seq"] == seq)
        return seq

    def close(self) -> None:
        self.stack.close()


def test_sigkill_mid_hand_then_resume_and_play_on(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    with server_process(database_url, port, log) as process:
        created = post(port, "/api/tables", {"variant": "gin", "seed": 1234})
        table_id = created["table"]["id"]
        token = created["invites"][0]["token"]
        player = Player(port, table_id, token)
        player.ws.send(json.dumps({"type": "start", "id": "s"}))
        player.until(lambda m: m["type"] == "snapshot")
        for _ in range(4):
            player.move(first_legal(player.wait_turn()))
        at_rest = player.wait_turn()
        acked = player.move(first_legal(at_rest))
        # Killed right after an acknowledged move: no goodbye, no flush, no shutdown.
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        player.close()

    with server_process(database_url, port, log):
        again = Player(port, table_id, token)
        welcome = again.welcome
        assert welcome["table"]["status"] == "playing"
        # Every acknowledged action survived the kill.
        assert welcome["seq"] >= acked
        view = again.wait_turn()
        assert view["hand_number"] == 1 and len(view["hand"]) in (10, 11)
        # Play on to the end of the hand (knock as soon as possible this time).
        hand = view["hand_number"]
        moves = 0
        while view["hand_number"] == hand and not view["is_over"]:
            legal = view["legal_actions"]
            knocks = [a for a in legal if a["kind"] in ("knock", "big_gin")]
            again.move(knocks[0] if knocks else first_legal(view))
            moves += 1
            assert moves < 100
            view = again.wait_turn()
        assert view["score_sheet"]["rows"], "the hand was scored (or drawn) after the restart"
        again.close()
    assert "Traceback" not in log.read_text()


def test_a_waiting_table_survives_a_kill(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    with server_process(database_url, port, log) as process:
        created = post(
            port, "/api/tables", {"variant": "gin", "seats": [{"kind": "human"}, {"kind": "human"}]}
        )
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    with server_process(database_url, port, log):
        table_id = created["table"]["id"]
        players = [Player(port, table_id, invite["token"]) for invite in created["invites"]]
        assert [p.welcome["seat"] for p in players] == [0, 1]
        players[1].ws.send(json.dumps({"type": "start", "id": "s"}))
        snapshot = players[0].until(lambda m: m["type"] == "snapshot")
        assert snapshot["table"]["status"] == "playing"
        for player in players:
            player.close()


def test_sigkill_while_many_tables_play_loses_no_acknowledged_move(
    database_url: str, tmp_path: Path
) -> None:
    """Moves of several tables are in flight (and share group commits) when the server
    is killed: every move that was acknowledged is in the database, in order."""
    port = free_port()
    log = tmp_path / "server.log"
    tables = 6
    acked: dict[str, int] = {}
    with server_process(database_url, port, log) as process:
        players = []
        tokens = []
        for index in range(tables):
            created = post(port, "/api/tables", {"variant": "gin", "seed": 500 + index})
            tokens.append(created["invites"][0]["token"])
            player = Player(port, created["table"]["id"], tokens[-1])
            player.ws.send(json.dumps({"type": "start", "id": "s"}))
            player.until(lambda m: m["type"] == "snapshot")
            players.append(player)

        def play(player: Player, table_id: str) -> None:
            number = 0
            try:
                while True:
                    view = player.wait_turn()
                    if view["is_over"]:
                        return
                    number += 1
                    request_id = f"m{number}"
                    action = first_legal(view)
                    player.ws.send(json.dumps({"type": "act", "id": request_id, "action": action}))
                    ack = player.until(lambda m, r=request_id: m["type"] == "ack" and m["id"] == r)
                    acked[table_id] = ack["seq"]
                    player.until(lambda m, s=ack["seq"]: m["type"] == "update" and m["seq"] == s)
            except Exception:  # the server is gone
                return

        ids = [player.welcome["table"]["id"] for player in players]
        threads = [
            threading.Thread(target=play, args=(player, table_id), daemon=True)
            for player, table_id in zip(players, ids, strict=True)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while min((acked.get(table_id, 0) for table_id in ids), default=0) < 6:
            assert time.monotonic() < deadline, f"the tables did not get going: {acked}"
            time.sleep(0.01)
        # Killed while every player keeps sending: no goodbye, no flush, no shutdown.
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        for thread in threads:
            thread.join(timeout=30)
        for player in players:
            player.close()
        last_acked = dict(acked)

    store = Store(database_url)
    try:
        logged = {}
        for table_id in ids:
            row = store.load(table_id)
            assert row is not None
            seqs = [action.seq for action in row.actions]
            assert seqs == list(range(1, len(seqs) + 1))
            assert row.action_count == len(seqs)
            assert len(seqs) >= last_acked[table_id], (table_id, seqs, last_acked)
            logged[table_id] = len(seqs)
    finally:
        store.dispose()
    with server_process(database_url, port, log):
        for table_id, token in zip(ids, tokens, strict=True):
            again = Player(port, table_id, token)
            # The restarted server resumes from the log (the bot may have moved since).
            assert again.welcome["seq"] >= logged[table_id]
            assert again.welcome["table"]["status"] == "playing"
            again.close()
    assert "Traceback" not in log.read_text()
