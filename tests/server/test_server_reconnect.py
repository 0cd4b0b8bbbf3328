"""Reconnect: a dropped player rejoins with the token and gets a full snapshot first;
the seat is held for ``seat_timeout``; bots play on; then a stand-in plays the seat."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import (
    choose,
    create_table,
    hello,
    play_move,
    receive_until,
    start,
    update_number,
    wait_my_turn,
)


def seq_of(client: TestClient, table_id: str) -> int:
    seq: int = client.get(f"/api/tables/{table_id}").json()["seq"]
    return seq


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.02)


def test_rejoin_gets_a_full_snapshot_before_new_events(make_client: Callable[..., Any]) -> None:
    client: TestClient = make_client(bot_delay=0.3)
    table_id, (token,) = create_table(client, seed=31)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        # Play until a move hands the turn to the bot, and leave at once.
        while True:
            view = wait_my_turn(ws, view)
            last_seen = seq_of(client, table_id)
            ws.send_json({"type": "act", "id": "go", "action": choose(view)})
            acked = receive_until(ws, lambda m: m["type"] == "ack")["seq"]
            view = receive_until(ws, update_number(acked))["view"]
            if view["current_player"] == 1:
                break
    assert acked == last_seen + 1
    headers = {"Authorization": f"Bearer {token}"}

    def my_turn_again() -> bool:
        view = client.get(f"/api/tables/{table_id}", headers=headers).json()["view"]
        return bool(view["legal_actions"] or view["is_over"])

    wait_for(my_turn_again)  # the bot played on while the player was away
    seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert seats[0]["connected"] is False and seats[0]["away_for"] is not None
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, token)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome["seq"] == seq_of(client, table_id) > acked
        assert welcome["view"]["legal_actions"], "it is the player's turn again"
        assert welcome["table"]["seats"][0]["connected"] is True
        # Whatever comes next is newer than the snapshot.
        ws.send_json({"type": "act", "id": "after", "action": choose(welcome["view"])})
        update = receive_until(ws, lambda m: m["type"] == "update")
        assert update["seq"] == welcome["seq"] + 1


def test_a_held_seat_waits_then_a_stand_in_plays_it(make_client: Callable[..., Any]) -> None:
    client: TestClient = make_client(seat_timeout=1.0)
    table_id, tokens = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
        hello(ws0, tokens[0])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
            hello(ws1, tokens[1])
            start(ws1)
        # Seat 1 is gone. Play seat 0 until it is seat 1's turn.
        view = receive_until(ws0, lambda m: m["type"] == "snapshot")["view"]
        while view["current_player"] != 1:
            view = play_move(ws0, view)
        held_at = seq_of(client, table_id)
        seat = client.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]
        assert seat["connected"] is False and seat["standin"] is False
        time.sleep(0.3)
        assert seq_of(client, table_id) == held_at, "the seat is held: nobody plays it yet"
        # After the timeout a stand-in plays seat 1's turns (seat 0 is present).
        update = receive_until(ws0, lambda m: m["type"] == "update" and m["actor"] == 1)
        assert update["by"] == "standin"
        view = update["view"]
        while view["current_player"] != 0 and not view["is_over"]:
            view = receive_until(ws0, lambda m: m["type"] == "update")["view"]
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]["standin"]
        # The owner comes back: a snapshot, and the stand-in stops.
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
            welcome = hello(ws1, tokens[1])
            assert welcome["seat"] == 1 and welcome["seq"] >= update["seq"]
            assert welcome["table"]["seats"][1]["standin"] is False
            if not view["is_over"]:
                view = play_move(ws0, view)
                if view["current_player"] == 1:
                    mine = receive_until(ws1, lambda m: m["type"] == "update")["view"]
                    at = seq_of(client, table_id)
                    time.sleep(0.5)
                    assert seq_of(client, table_id) == at, "no stand-in once the owner is back"
                    assert mine["legal_actions"]


def test_no_stand_in_when_nobody_else_is_there(make_client: Callable[..., Any]) -> None:
    """Against bots only: a table whose only person left pauses on that person's turn."""
    client: TestClient = make_client(seat_timeout=0.1)
    table_id, (token,) = create_table(client, seed=12)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        wait_my_turn(ws, start(ws)["view"])
    at = seq_of(client, table_id)
    time.sleep(0.4)
    assert seq_of(client, table_id) == at
