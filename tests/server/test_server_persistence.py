"""Persistence: the event log is committed before anyone hears of an action, a new
server resumes every table exactly, finished games are listed and replayed.

Runs on SQLite, and on PostgreSQL too when RUMMYKIT_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import create_table, hello, play_move, play_to_the_end, start, wait_my_turn

from rummykit.server.store import Store
from rummykit.server.variants import get_adapter


def stored(url: str, table_id: str) -> Any:
    store = Store(url)
    try:
        return store.load(table_id)
    finally:
        store.dispose()


def test_every_action_is_committed_before_it_is_broadcast(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(database_url)
    table_id, (token,) = create_table(client, seed=5)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        for _ in range(6):
            view = wait_my_turn(ws, view)
            ws.send_json({"type": "act", "id": "q", "action": view["legal_actions"][0]})
            while True:
                message = ws.receive_json()
                if message["type"] in ("ack", "update"):
                    # The moment a client hears of action N, the database holds it.
                    row = stored(database_url, table_id)
                    assert row.action_count >= message["seq"]
                    assert len(row.actions) >= message["seq"]
                if message["type"] == "update" and message["actor"] == 0:
                    view = message["view"]
                    break
    row = stored(database_url, table_id)
    assert row.status == "playing"
    assert [action.seq for action in row.actions] == list(range(1, len(row.actions) + 1))
    assert {action.actor for action in row.actions} <= {"human", "bot"}


def test_a_new_server_resumes_every_table_exactly(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    first = make_client(database_url)
    table_id, (token,) = create_table(first, seed=77)
    waiting_id, _ = create_table(first, seed=78)
    with first.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        for _ in range(5):
            view = play_move(ws, wait_my_turn(ws, view))
        wait_my_turn(ws, view)  # the bot has answered: the table is at rest
    before = first.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
    first.__exit__(None, None, None)  # the first server stops

    second = make_client(database_url)
    after = second.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
    assert after.json()["view"] == before.json()["view"]
    assert after.json()["seq"] == before.json()["seq"]
    assert second.get(f"/api/tables/{waiting_id}").json()["table"]["status"] == "waiting"
    with second.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, token)
        assert welcome["view"] == before.json()["view"]
        view = play_to_the_end(ws, welcome["view"])
    assert view["is_over"]


def test_finished_games_are_listed_and_replayed(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(database_url)
    table_id, (token,) = create_table(client, seed=9, options={"target": 30})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        final_view = play_to_the_end(ws, start(ws)["view"])
    games = client.get("/api/games").json()
    assert [game["id"] for game in games] == [table_id]
    assert games[0]["status"] == "finished" and games[0]["finished_at"] is not None
    replay = client.get(f"/api/games/{table_id}/replay").json()
    record = replay["record"]
    steps = replay["steps"]
    assert record["seed"] == 9 and record["rules"]["target"] == 30
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["action"] is None and steps[-1]["seq"] == len(record["actions"])
    assert steps[-1]["state"]["scores"] == final_view["scores"]
    # The record alone rebuilds the game: (rules, seed, actions).
    game = get_adapter("gin").replay(
        record["rules"],
        seats=2,
        seed=record["seed"],
        actions=[(a["seat"], a["action"]) for a in record["actions"]],
    )
    assert game.is_over and game.view(0) == final_view
    # Every stored step shows both hands (the game is over, nothing is hidden any more).
    assert all(len(step["state"]["hands"]) == 2 for step in steps)
    assert client.get("/api/tables?status=finished").json()[0]["id"] == table_id
