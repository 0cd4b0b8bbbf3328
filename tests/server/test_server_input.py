"""Malformed input of every kind gets the documented JSON error, never a 500 or a
silent close; the table is unchanged; the REST API answers errors with one envelope."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import create_table, hello, receive_until, start

DEEP = "[" * 4000 + "]" * 4000  # within 8 KB, far deeper than Python's parser goes


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    return create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])


def state_of(client: TestClient, table_id: str, token: str) -> tuple[int, str]:
    snapshot = client.get(
        f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    return snapshot["seq"], json.dumps(snapshot["view"], sort_keys=True)


def still_open(ws: Any) -> None:
    ws.send_json({"type": "ping", "id": "alive"})
    assert receive_until(ws, lambda m: m["type"] == "pong")["id"] == "alive"


def test_deeply_nested_json_is_bad_json_over_rest(client: TestClient) -> None:
    for body in (DEEP, '{"variant": ' + "[" * 50 + "]" * 50 + "}"):
        reply = client.post(
            "/api/tables", content=body, headers={"Content-Type": "application/json"}
        )
        assert reply.status_code == 400, reply.text
        assert reply.json()["code"] == "bad_json"


def test_deeply_nested_json_is_bad_json_on_the_websocket(client: TestClient) -> None:
    table_id, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[0])
        ws.send_text(DEEP)
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_json"
        ws.send_text('{"type": "check", "action": ' + "[" * 30 + "]" * 30 + "}")
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_json"
        still_open(ws)


MALFORMED_ACTIONS: list[Any] = [
    {"kind": ["x"]},
    {"kind": {"a": 1}},
    {"kind": None},
    {"kind": 7},
    {"kind": "lay_off", "melds": [[1, 2]], "layoffs": [[None, -5]]},
    {"kind": "lay_off", "melds": 5},
    {"kind": "lay_off", "layoffs": [["7H"]]},
    {"kind": "lay_off", "layoffs": [["7H", 1.5]]},
    {"kind": "knock", "card": ["9S"]},
    {"kind": "knock", "card": "9S", "melds": [{"a": 1}]},
    {"kind": "discard", "card": 12},
    {"kind": "discard"},
    {"kind": "big_gin", "melds": "7H 8H 9H"},
]


@pytest.mark.parametrize("action", MALFORMED_ACTIONS, ids=repr)
def test_malformed_check_and_act_keep_the_connection(client: TestClient, action: Any) -> None:
    table_id, tokens = two_humans(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        view = start(ws0)["view"]
        receive_until(ws1, lambda m: m["type"] == "snapshot")
        before = state_of(client, table_id, tokens[0])
        mover, other = (ws0, ws1) if view["legal_actions"] else (ws1, ws0)
        for ws in (mover, other):
            ws.send_json({"type": "check", "id": "c", "action": action})
            reply = receive_until(ws, lambda m: m.get("id") == "c")
            assert reply["type"] == "error" and reply["code"] == "invalid_action", reply
            ws.send_json({"type": "act", "id": "a", "action": action})
            reply = receive_until(ws, lambda m: m.get("id") == "a")
            expected = "invalid_action" if ws is mover else "not_your_turn"
            assert reply["type"] == "error" and reply["code"] == expected, reply
            still_open(ws)
        assert state_of(client, table_id, tokens[0]) == before


def test_malformed_rest_action_is_refused_before_the_engine(client: TestClient) -> None:
    table_id, tokens = two_humans(client)
    headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
    for header in headers:
        assert client.post(f"/api/tables/{table_id}/join", headers=header).status_code == 200
    started = client.post(f"/api/tables/{table_id}/start", headers=headers[0]).json()
    mover = started["view"]["current_player"]
    before = state_of(client, table_id, tokens[0])
    action = {"kind": "lay_off", "melds": [[1, 2]], "layoffs": [[None, -5]]}
    for seat, expected in ((mover, 400), (1 - mover, 409)):
        reply = client.post(
            f"/api/tables/{table_id}/actions", json={"action": action}, headers=headers[seat]
        )
        assert reply.status_code == expected, reply.text
        code = reply.json()["code"]
        assert code == ("invalid_action" if seat == mover else "not_your_turn")
    for body in ({"action": "pass"}, {"action": {"kind": "pass"}, "seat": "0"}, {}):
        reply = client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers[mover])
        assert reply.status_code == 400 and reply.json()["code"] == "bad_request", reply.text
    assert state_of(client, table_id, tokens[0]) == before


def test_malformed_messages_are_bad_message(client: TestClient) -> None:
    table_id, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        for message in (
            {"type": "hello", "v": 1, "token": tokens[0], "name": ["Mallory"]},
            {"type": "hello", "v": 1, "token": {"a": 1}},
        ):
            ws.send_json(message)
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_message"
        hello(ws, tokens[0])
        ws.send_json({"type": "act", "action": {"kind": "pass"}, "seat": [0]})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_message"
        still_open(ws)


def test_rest_bodies_are_checked_against_their_models(client: TestClient) -> None:
    for body in (
        {"variant": ["gin"]},
        {"variant": "gin", "seats": "two"},
        {"variant": "gin", "seats": [{"kind": "human", "name": {"first": "A"}}, {"kind": "bot"}]},
        {"variant": "gin", "options": {"target": [1]}},
        {"variant": "gin", "seed": "7"},
    ):
        reply = client.post("/api/tables", json=body)
        assert reply.status_code == 400, (body, reply.text)
        assert reply.json()["code"] == "bad_request"
    table_id, (token,) = create_table(client)
    reply = client.post(
        f"/api/tables/{table_id}/join",
        json={"name": 5},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert reply.status_code == 400 and reply.json()["code"] == "bad_request"


def test_errors_under_api_share_one_envelope(client: TestClient) -> None:
    for method, path, status, code in (
        ("GET", "/api/nothing", 404, "not_found"),
        ("DELETE", "/api/tables", 405, "method_not_allowed"),
        ("PUT", "/api/health", 405, "method_not_allowed"),
        ("GET", "/api/tables?limit=0", 422, "bad_request"),
    ):
        reply = client.request(method, path)
        assert reply.status_code == status, (path, reply.text)
        assert reply.json()["type"] == "error" and reply.json()["code"] == code


def test_a_server_fault_is_a_json_500(make_client: Any) -> None:
    client = make_client()
    app = client.app
    faulty = TestClient(app, raise_server_exceptions=False)

    def broken(**_: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    app.state.manager.store.list_tables = broken  # type: ignore[attr-defined]
    reply = faulty.get("/api/games")
    assert reply.status_code == 500
    assert reply.json() == {
        "type": "error",
        "code": "internal_error",
        "message": "the server failed to answer this request",
    }
