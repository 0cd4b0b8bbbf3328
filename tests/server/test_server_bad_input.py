"""Bad input: each gets a clear error reply, nothing changes, everyone else is served."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, create_table, hello, receive_until, start
from starlette.websockets import WebSocketDisconnect


@contextmanager
def two_tables(client: TestClient) -> Iterator[tuple[Any, Any, str, list[str], dict[str, Any]]]:
    """A table with two people (the first one to act and the other), plus a bystander
    at another table whose service must go on undisturbed."""
    table_id, tokens = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    other_id, (other_token,) = create_table(client, seed=99)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{other_id}") as bystander,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        view0 = start(ws0)["view"]
        view1 = receive_until(ws1, lambda m: m["type"] == "snapshot")["view"]
        hello(bystander, other_token)
        start(bystander)
        first, second = (ws0, ws1) if view0["legal_actions"] else (ws1, ws0)
        view = view0 if view0["legal_actions"] else view1
        yield first, second, table_id, tokens, view
        # Everyone else is still served: the bystander's table answers at once.
        bystander.send_json({"type": "ping", "id": "still-there"})
        assert receive_until(bystander, lambda m: m["type"] == "pong")["id"] == "still-there"


def state_of(client: TestClient, table_id: str) -> tuple[int, str]:
    snapshot = client.get(f"/api/tables/{table_id}").json()
    return snapshot["seq"], json.dumps(snapshot["view"], sort_keys=True)


def error_reply(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "error")


def test_malformed_json(client: TestClient) -> None:
    with two_tables(client) as (first, _second, table_id, _tokens, _view):
        before = state_of(client, table_id)
        first.send_text('{"type": "act", "action": ')
        reply = error_reply(first)
        assert reply["code"] == "bad_json" and "not valid JSON" in reply["message"]
        first.send_text("[1, 2, 3]")
        assert error_reply(first)["code"] == "bad_message"
        first.send_bytes(b"\xff\xfe")
        assert error_reply(first)["code"] == "bad_json"
        assert state_of(client, table_id) == before


def test_unknown_message_type(client: TestClient) -> None:
    with two_tables(client) as (first, _second, table_id, _tokens, _view):
        before = state_of(client, table_id)
        first.send_json({"type": "cheat", "id": 3})
        reply = error_reply(first)
        assert reply["code"] == "unknown_type" and reply["id"] == 3
        assert "cheat" in reply["message"] and "act" in reply["message"]
        first.send_json({"no_type": True})
        assert error_reply(first)["code"] == "bad_message"
        assert state_of(client, table_id) == before


def test_out_of_turn_action(client: TestClient) -> None:
    with two_tables(client) as (_first, second, table_id, _tokens, _view):
        before = state_of(client, table_id)
        reply = act(second, {"kind": "pass"}, request_id="early")
        assert reply["type"] == "error" and reply["code"] == "not_your_turn"
        assert "turn" in reply["message"]
        assert state_of(client, table_id) == before


def test_illegal_and_invalid_actions(client: TestClient) -> None:
    with two_tables(client) as (first, _second, table_id, _tokens, view):
        before = state_of(client, table_id)
        reply = act(first, {"kind": "draw_stock"}, request_id=1)
        assert reply["code"] == "illegal_action" and reply["rule"] == "wrong_phase"
        assert "offer" in reply["message"]
        reply = act(first, {"kind": "discard", "card": "QQ"}, request_id=2)
        assert reply["code"] == "invalid_action" and "QQ" in reply["message"]
        reply = act(first, {"kind": "teleport"}, request_id=3)
        assert reply["code"] == "invalid_action"
        first.send_json({"type": "act", "id": 4, "action": "pass"})
        assert error_reply(first)["code"] == "bad_message"
        # Take the upcard, then try to discard it at once: a rule with its own code.
        upcard = view["upcard"]
        assert act(first, {"kind": "take_upcard"}, request_id=5)["type"] == "ack"
        mid = state_of(client, table_id)
        reply = act(first, {"kind": "discard", "card": upcard}, request_id=6)
        assert reply["code"] == "illegal_action" and reply["rule"] == "discard_taken_card"
        assert upcard in reply["message"]
        assert state_of(client, table_id) == mid != before


def test_forged_and_foreign_tokens(client: TestClient) -> None:
    with two_tables(client) as (first, _second, table_id, tokens, view):
        before = state_of(client, table_id)
        other_id, (other_token,) = create_table(client)
        for token in ("forged-token-forged-token-forged", other_token, 12345):
            with client.websocket_connect(f"/ws/tables/{table_id}") as intruder:
                reply = hello(intruder, token)  # type: ignore[arg-type]
                assert reply["type"] == "error" and reply["code"] == "bad_token"
                with pytest.raises(WebSocketDisconnect):
                    intruder.receive_json()
        # A seat's own token opens only that seat: no acting for the other seat.
        claimed = 1 - view["seat"]
        first.send_json({"type": "act", "id": "x", "seat": claimed, "action": {"kind": "pass"}})
        reply = error_reply(first)
        assert reply["code"] == "not_your_seat" and f"seat {claimed}" in reply["message"]
        # Spectators cannot act; acting before hello is refused.
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            watcher.send_json({"type": "act", "action": {"kind": "pass"}})
            assert error_reply(watcher)["code"] == "hello_required"
            hello(watcher)
            watcher.send_json({"type": "act", "action": {"kind": "pass"}})
            assert error_reply(watcher)["code"] == "not_seated"
        with client.websocket_connect(f"/ws/tables/{table_id}") as old:
            assert hello(old, tokens[0], v=99)["code"] == "unsupported_version"
        with client.websocket_connect("/ws/tables/no-such-table") as lost:
            assert error_reply(lost)["code"] == "not_found"
        assert state_of(client, table_id) == before
        assert other_id != table_id


def test_oversized_message(make_client: Any) -> None:
    client = make_client(max_message_bytes=1000)
    with two_tables(client) as (first, _second, table_id, _tokens, _view):
        before = state_of(client, table_id)
        first.send_json({"type": "act", "id": 1, "action": {"kind": "pass", "pad": "x" * 5000}})
        reply = error_reply(first)
        assert reply["code"] == "too_large" and "1000" in reply["message"]
        assert state_of(client, table_id) == before
        assert act(first, {"kind": "pass"}, request_id=2)["type"] == "ack"


def test_flood_is_rate_limited(make_client: Any) -> None:
    client = make_client(rate_per_second=5.0, rate_burst=10)
    with two_tables(client) as (first, second, table_id, _tokens, _view):
        before = state_of(client, table_id)
        for index in range(60):
            first.send_json({"type": "act", "id": index, "action": {"kind": "draw_stock"}})
        replies = [receive_until(first, lambda m: m["type"] == "error") for _ in range(11)]
        codes = {reply["code"] for reply in replies}
        assert "rate_limited" in codes
        limited = next(reply for reply in replies if reply["code"] == "rate_limited")
        assert "too many messages" in limited["message"]
        assert state_of(client, table_id) == before
        # The other player at the same table is not limited.
        second.send_json({"type": "ping", "id": "ok"})
        assert receive_until(second, lambda m: m["type"] == "pong")["id"] == "ok"


def test_endless_flood_closes_only_that_connection(make_client: Any) -> None:
    client = make_client(rate_per_second=1.0, rate_burst=3)
    with two_tables(client) as (first, second, _table_id, _tokens, _view):
        for index in range(260):
            first.send_json({"type": "ping", "id": index})
        with pytest.raises(WebSocketDisconnect):
            for _ in range(400):
                first.receive_json()
        second.send_json({"type": "ping", "id": "ok"})
        assert receive_until(second, lambda m: m["type"] == "pong")["id"] == "ok"


def test_server_refusals_are_rummykit_errors_with_their_code() -> None:
    """One error tree: a program catching ``RummykitError`` also catches the server's
    refusals, which keep their wire code and fields (and survive pickling)."""
    import pickle

    from rummykit.errors import RummykitError
    from rummykit.server.protocol import ServerError, load_json

    with pytest.raises(RummykitError) as caught:
        load_json("{", "the body")
    assert isinstance(caught.value, ServerError)
    assert caught.value.code == "bad_json"
    error = ServerError("illegal_action", "not now", rule="discard_taken_card", rule_id="gin-3.5")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.message, copy.rule, copy.rule_id) == (
        "illegal_action",
        "not now",
        "discard_taken_card",
        "gin-3.5",
    )
    assert copy.to_json() == error.to_json()
