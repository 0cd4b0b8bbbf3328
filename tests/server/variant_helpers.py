"""Helpers for the Rami and Carousel table tests: tables of several seats, questions."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import act, receive_until, update_number, wait_my_turn


def create_variant_table(
    client: TestClient,
    variant: str,
    *,
    preset: str | None = None,
    bots: int = 2,
    level: str = "heuristic",
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """A table with one person (seat 0) and ``bots`` bots; its id and the person's token."""
    body: dict[str, Any] = {
        "variant": variant,
        "seed": seed,
        "seats": [{"kind": "human", "name": "Ann"}]
        + [{"kind": "bot", "level": level, "name": f"Bot {i + 1}"} for i in range(bots)],
    }
    if preset is not None:
        body["preset"] = preset
    if options:
        body["options"] = options
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["table"]["id"], data["invites"][0]["token"]


def ask(ws: Any, message: dict[str, Any], request_id: str) -> dict[str, Any]:
    """Send a question (``check`` or ``hint``); return its answer or error."""
    ws.send_json({**message, "id": request_id})
    return receive_until(ws, lambda m: m.get("id") == request_id and m["type"] != "update")


def play(ws: Any, view: dict[str, Any], action: dict[str, Any], request_id: str) -> dict[str, Any]:
    """Play an action that must be accepted; return the view of its update."""
    answer = act(ws, action, request_id)
    assert answer["type"] == "ack", answer
    return dict(receive_until(ws, update_number(answer["seq"]))["view"])


def next_turn(ws: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The view once this seat is to act again (or the game is over)."""
    return wait_my_turn(ws, view)


def sync(ws: Any) -> dict[str, Any]:
    """Ask for a snapshot and return it."""
    ws.send_json({"type": "sync"})
    return receive_until(ws, lambda m: m["type"] == "snapshot")
