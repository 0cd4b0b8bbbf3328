"""Helpers for the table server tests: create tables, speak the websocket protocol."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient


def create_table(
    client: TestClient,
    *,
    seats: list[dict[str, Any]] | None = None,
    seed: int | None = 11,
    options: dict[str, Any] | None = None,
) -> tuple[str, list[str]]:
    """Create a gin table; returns its id and the tokens of its human seats, in order."""
    body: dict[str, Any] = {
        "variant": "gin",
        "seats": seats or [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
    }
    if seed is not None:
        body["seed"] = seed
    if options:
        body["options"] = options
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["table"]["id"], [invite["token"] for invite in data["invites"]]


def receive_until(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], limit: int = 500
) -> dict[str, Any]:
    """Read messages until one satisfies ``predicate``; return it."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("expected message never came")


def update_number(seq: int) -> Callable[[dict[str, Any]], bool]:
    """A predicate for :func:`receive_until`: the update of action ``seq``."""
    return lambda message: message["type"] == "update" and message["seq"] == seq


def hello(ws: Any, token: str | None = None, **extra: Any) -> dict[str, Any]:
    """Send hello; return the welcome."""
    message: dict[str, Any] = {"type": "hello", "v": 1, **extra}
    if token is not None:
        message["token"] = token
    ws.send_json(message)
    return receive_until(ws, lambda m: m["type"] in ("welcome", "error"))


def start(ws: Any) -> dict[str, Any]:
    """Start the table; return the first snapshot after the start."""
    ws.send_json({"type": "start", "id": "start"})
    return receive_until(ws, lambda m: m["type"] == "snapshot")


def my_turn(view: dict[str, Any] | None) -> bool:
    """True when the view lists legal actions (it is this seat's turn)."""
    return bool(view and view["legal_actions"])


def wait_my_turn(ws: Any, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read updates until this seat is to act (or the game is over); return the view."""
    while view is None or not (my_turn(view) or view["is_over"]):
        message = receive_until(ws, lambda m: m["type"] in ("update", "snapshot", "welcome"))
        view = message["view"]
    return view


def act(ws: Any, action: dict[str, Any], request_id: Any = "a") -> dict[str, Any]:
    """Send an action; return the ack or error answering it."""
    ws.send_json({"type": "act", "id": request_id, "action": action})
    return receive_until(ws, lambda m: m["type"] in ("ack", "error") and m.get("id") == request_id)


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A quick, deterministic way to move a hand on: knock if possible, else the
    first draw, else the discard that leaves the least deadwood."""
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock"):
        for action in legal:
            if action["kind"] == kind:
                return dict(action)
    for kind in ("pass", "draw_stock", "lay_off"):
        for action in legal:
            if action["kind"] == kind:
                return dict(action)
    return least_deadwood_discard(view)


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    """Draw, else pass, else discard the card leaving the least deadwood (no knocking,
    so the hand goes on)."""
    legal = view["legal_actions"]
    for kind in ("draw_stock", "pass"):
        for action in legal:
            if action["kind"] == kind:
                return dict(action)
    return least_deadwood_discard(view)


def least_deadwood_discard(view: dict[str, Any]) -> dict[str, Any]:
    """The legal discard that leaves the least deadwood (ties: the lowest card)."""
    after = view["discard_deadwood"]
    discards = [a for a in view["legal_actions"] if a["kind"] == "discard"]
    return dict(min(discards, key=lambda a: (after.get(a["card"], 99), a["card"])))


def play_move(ws: Any, view: dict[str, Any], request_id: Any = "m") -> dict[str, Any]:
    """Make the :func:`choose` move; return the view of the update it caused."""
    answer = act(ws, choose(view), request_id)
    assert answer["type"] == "ack", answer
    seq = answer["seq"]
    return receive_until(ws, update_number(seq))["view"]


def play_to_the_end(ws: Any, view: dict[str, Any] | None, limit: int = 2000) -> dict[str, Any]:
    """Play :func:`choose` moves (bots answer) until the game is over; return the view."""
    for _ in range(limit):
        view = wait_my_turn(ws, view)
        if view["is_over"]:
            return view
        view = play_move(ws, view)
    raise AssertionError("the game did not end")


# -- a real server in a subprocess ---------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server_process(
    database_url: str, port: int, log_path: Path, *extra: str, bot_delay: float = 0.0
) -> Iterator[subprocess.Popen[bytes]]:
    """``rummykit serve`` in a subprocess, ready to answer; killed on exit if alive."""
    command = [
        sys.executable,
        "-c",
        "from rummykit.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--database-url",
        database_url,
        "--bot-delay",
        str(bot_delay),
        "--allow-seed",
        "--log-level",
        "warning",
        *extra,
    ]
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise AssertionError(f"server exited: {log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"server did not start: {log_path.read_text()}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data
