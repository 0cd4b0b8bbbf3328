"""Fuzzing the table server's inputs, every game: any JSON value as a message, any
action shape, over the websocket (``act`` and ``check``, from the seat to act and from
the other) and over REST. Every answer is a documented error or a legal result, the
connection stays open, and a refused input leaves the table as it was: its move count
and every seat's view. Bounded: a modest number of examples per game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import hello, receive_until

DOCUMENTED = {
    "bad_json",
    "bad_message",
    "bad_request",
    "unknown_type",
    "too_large",
    "body_too_large",
    "invalid_action",
    "illegal_action",
    "not_your_turn",
    "not_your_seat",
    "not_started",
    "game_over",
}
"""Error codes of docs/protocol.md that malformed or ill-timed input may get."""

GAMES: dict[str, dict[str, Any]] = {
    "gin": {
        "kinds": [
            "take_upcard",
            "pass",
            "draw_stock",
            "draw_discard",
            "discard",
            "knock",
            "big_gin",
            "lay_off",
        ],
        "fields": ["card", "melds", "layoffs"],
    },
    "rami": {
        "kinds": [
            "draw_stock",
            "take_discard",
            "open",
            "meld",
            "layoff",
            "swap_joker",
            "end_play",
            "discard",
        ],
        "fields": ["card", "combos", "target", "joker_target", "joker_cards", "then"],
    },
    "carousel": {"kinds": ["draw", "meld", "end_turn", "knock"], "fields": ["layout"]},
}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
card_like = st.sampled_from(
    ["7H", "AS", "TD", "JK", "JK=5S", "7H@1", "JK@2", "QQ", "", "7h", "9S 9D 9H", "1", "XX@9"]
)
index_like = st.integers(-3, 1002) | st.sampled_from([True, 1.5, "1"])
plausible = st.one_of(
    card_like,
    st.lists(card_like, max_size=4),
    st.lists(st.lists(card_like, max_size=3) | card_like, max_size=3),
    st.lists(st.tuples(card_like, index_like).map(list), max_size=3),
    index_like,
    json_values,
)


def actions(game: str) -> st.SearchStrategy[Any]:
    spec = GAMES[game]
    kind = st.sampled_from(spec["kinds"]) | json_values
    fields = st.dictionaries(st.sampled_from(spec["fields"]), plausible, max_size=3)
    shaped = st.builds(lambda k, f: {"kind": k, **f}, kind, fields)
    nested = st.builds(lambda k, then: {"kind": k, "then": then}, kind, shaped)
    return shaped | nested | json_values


@pytest.fixture
def tables(make_client: Any) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """One started table per game with two people, both connected."""
    client = make_client()
    with ExitStack() as stack:
        seated: dict[str, Any] = {}
        for game in GAMES:
            created = client.post(
                "/api/tables",
                json={"variant": game, "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]},
            ).json()
            table_id = created["table"]["id"]
            tokens = [invite["token"] for invite in created["invites"]]
            sockets = [
                stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
                for _ in tokens
            ]
            for ws, token in zip(sockets, tokens, strict=True):
                hello(ws, token)
            sockets[0].send_json({"type": "start", "id": "s"})
            receive_until(sockets[0], lambda m: m.get("id") == "s")
            seated[game] = {"id": table_id, "tokens": tokens, "sockets": sockets}
        yield client, seated


def state(client: TestClient, table: dict[str, Any]) -> tuple[Any, ...]:
    seen = []
    for token in table["tokens"]:
        snapshot = client.get(
            f"/api/tables/{table['id']}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        seen.append((snapshot["seq"], json.dumps(snapshot["view"], sort_keys=True)))
    return tuple(seen)


counter = iter(range(10**9))


def websocket_answer(ws: Any, message: Any) -> dict[str, Any]:
    request_id = f"f{next(counter)}"
    if isinstance(message, dict):
        message = {**message, "id": request_id}
    ws.send_text(json.dumps(message))
    if not isinstance(message, dict):
        reply = receive_until(ws, lambda m: m["type"] == "error")
    elif message.get("type") == "sync":  # a snapshot carries no id
        reply = receive_until(ws, lambda m: m["type"] in ("snapshot", "error"))
    else:
        reply = receive_until(ws, lambda m: m.get("id") == request_id)
    ws.send_json({"type": "ping", "id": request_id + "p"})
    receive_until(ws, lambda m: m["type"] == "pong" and m["id"] == request_id + "p")
    return reply


def check_answer(reply: dict[str, Any], accepted: set[str]) -> bool:
    """True when the input was accepted (the table may have moved on)."""
    if reply["type"] == "error":
        assert reply["code"] in DOCUMENTED, reply
        return False
    assert reply["type"] in accepted, reply
    return reply["type"] == "ack"


FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(data=st.data())
def test_fuzzed_actions(game: str, tables: tuple[TestClient, dict[str, Any]], data: Any) -> None:
    client, seated = tables
    table = seated[game]
    action = data.draw(actions(game), label="action")
    seat = data.draw(st.sampled_from([0, 1]), label="seat")
    channel = data.draw(st.sampled_from(["act", "check", "rest"]), label="channel")
    before = state(client, table)
    if channel == "rest":
        reply = client.post(
            f"/api/tables/{table['id']}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {table['tokens'][seat]}"},
        )
        assert reply.status_code < 500, reply.text
        moved = reply.status_code == 200
        if not moved:
            assert reply.json()["code"] in DOCUMENTED, reply.text
    else:
        reply = websocket_answer(table["sockets"][seat], {"type": channel, "action": action})
        moved = check_answer(reply, {"ack", "checked"})
    if not moved:
        assert state(client, table) == before


@FUZZ
@given(
    message=json_values
    | st.dictionaries(
        st.sampled_from(["type", "v", "token", "name", "action", "seat"]),
        json_values | st.sampled_from(["act", "check", "hello", "ping", "sync", "hint"]),
    )
)
def test_fuzzed_messages(tables: tuple[TestClient, dict[str, Any]], message: Any) -> None:
    client, seated = tables
    table = seated["gin"]
    before = state(client, table)
    ws = table["sockets"][0]
    reply = websocket_answer(ws, message)
    moved = check_answer(reply, {"ack", "checked", "pong", "snapshot", "hint", "welcome"})
    if not moved:
        assert state(client, table) == before
