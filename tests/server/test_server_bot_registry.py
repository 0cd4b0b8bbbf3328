"""Bot levels come from the bot registry: a bot registered for a variant (a plugin's, at
any time, or one ``rummykit serve --load`` imports) is offered in the lobby and plays at a
table; a slow one thinks in a thread."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    act,
    choose,
    free_port,
    hello,
    post,
    receive_until,
    server_process,
    start,
    update_number,
    wait_my_turn,
)

from rummykit.server.variants import ADAPTERS
from rummykit.sim.registry import available_bots, make_bot, register_bot, unregister_bot

VARIANTS = ("gin", "rami", "carousel")

HUMAN_MOVES = {
    "gin": None,  # server_helpers.choose
    "rami": ("draw_stock", "end_play", "discard"),
    "carousel": ("draw", "end_turn"),
}
"""What the person at seat 0 plays to move the game on (the first legal of these)."""


class CountingBot:
    """A registered test bot: the variant's random bot, counting (and maybe slowing)
    its decisions."""

    def __init__(self, inner: Any, calls: list[str], name: str, pause: float) -> None:
        self.inner = inner
        self.calls = calls
        self.name = name
        self.pause = pause

    def act(self, observation: Any, legal: Any) -> Any:
        if self.pause:
            time.sleep(self.pause)  # a solver thinking
        self.calls.append(self.name)
        return self.inner.act(observation, legal)


def register_counting(variant: str, name: str, pause: float = 0.0) -> list[str]:
    """Register ``name`` for ``variant`` (a factory as a plugin would write it); the
    list of its decisions."""
    calls: list[str] = []

    def factory(*, seed: int, rules: Any, players: int) -> CountingBot:
        inner = make_bot(variant, "random", seed=seed, rules=rules, players=players)
        return CountingBot(inner, calls, name, pause)

    register_bot(variant, name, factory, description="test bot")
    return calls


@pytest.fixture
def registered() -> Iterator[Callable[..., list[str]]]:
    """Register test bots; unregistered afterwards."""
    names: list[tuple[str, str]] = []

    def add(variant: str, name: str, pause: float = 0.0) -> list[str]:
        names.append((variant, name))
        return register_counting(variant, name, pause)

    yield add
    for variant, name in names:
        unregister_bot(variant, name)


def human_move(variant: str, view: dict[str, Any]) -> dict[str, Any]:
    kinds = HUMAN_MOVES[variant]
    if kinds is None:
        return choose(view)
    for kind in kinds:
        for action in view["legal_actions"]:
            if action["kind"] == kind:
                return dict(action)
    raise AssertionError(f"none of {kinds} in {view['legal_actions']}")


def play_until(
    ws: Any, variant: str, view: dict[str, Any], done: Callable[[], bool], limit: int = 400
) -> dict[str, Any]:
    """Play seat 0's moves (the bots answer) until ``done()``; the last view."""
    for number in range(limit):
        view = wait_my_turn(ws, view)
        if done() or view["is_over"]:
            return view
        answer = act(ws, human_move(variant, view), f"h{number}")
        assert answer["type"] == "ack", answer
        view = receive_until(ws, update_number(answer["seq"]))["view"]
    raise AssertionError("the bot never played enough")


def lobby_variant(client: TestClient, name: str) -> dict[str, Any]:
    variants: list[dict[str, Any]] = client.get("/api/variants").json()
    return next(v for v in variants if v["name"] == name)


def test_levels_are_the_registered_bots_weakest_first_default_heuristic(
    client: TestClient,
) -> None:
    for name in VARIANTS:
        adapter = ADAPTERS[name]
        assert set(adapter.bot_levels) == set(available_bots(name))
        assert adapter.bot_levels[:2] == ("random", "heuristic")
        listed = lobby_variant(client, name)
        assert listed["bot_levels"] == list(adapter.bot_levels)
        assert listed["default_bot_level"] == "heuristic"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_newly_registered_bot_is_offered_and_plays_at_a_table(
    client: TestClient, registered: Callable[..., list[str]], variant: str
) -> None:
    assert "plugged" not in lobby_variant(client, variant)["bot_levels"]
    calls = registered(variant, "plugged")
    listed = lobby_variant(client, variant)
    # A plugin's bot comes after the built-in levels; the default stays heuristic.
    assert listed["bot_levels"][-1] == "plugged"
    assert listed["default_bot_level"] == "heuristic"
    response = client.post(
        "/api/tables",
        json={
            "variant": variant,
            "seed": 5,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "plugged"}],
        },
    )
    assert response.status_code == 201, response.text
    data = response.json()
    seats = data["table"]["seats"]
    assert seats[1]["level"] == "plugged" and seats[1]["name"] == "Bot (plugged)"
    with client.websocket_connect(f"/ws/tables/{data['table']['id']}") as ws:
        hello(ws, data["invites"][0]["token"])
        view = start(ws)["view"]
        play_until(ws, variant, view, lambda: len(calls) >= 3)
    assert len(calls) >= 3


def test_an_unspecified_bot_seat_is_heuristic_whatever_is_registered(
    client: TestClient,
) -> None:
    # The built-in levels include `expert`, the strongest: it must not become the default.
    assert "expert" in ADAPTERS["gin"].bot_levels
    response = client.post(
        "/api/tables", json={"variant": "gin", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    )
    assert response.status_code == 201, response.text
    assert response.json()["table"]["seats"][1]["level"] == "heuristic"
    levels = ADAPTERS["gin"].bot_levels
    assert levels[:6] == ("random", "heuristic", "easy", "medium", "hard", "expert")


def test_a_slow_registered_bot_thinks_in_a_worker_thread(
    make_client: Callable[..., TestClient], registered: Callable[..., list[str]]
) -> None:
    # 20 ms a decision, ten times the 2 ms above which a bot leaves the event loop.
    calls = registered("gin", "slowpoke", pause=0.02)
    client = make_client(bot_thread_after=0.002)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    response = client.post(
        "/api/tables",
        json={
            "variant": "gin",
            "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "slowpoke"}],
        },
    )
    data = response.json()
    with client.websocket_connect(f"/ws/tables/{data['table']['id']}") as ws:
        hello(ws, data["invites"][0]["token"])
        view = start(ws)["view"]
        play_until(ws, "gin", view, lambda: len(calls) >= 4)
    assert ("gin", "slowpoke") in manager.bots.threaded


PLUGIN = '''
"""A bot plugin, as its author would write it."""
from rummykit.bots import RandomBot
from rummykit.sim.registry import register_bot


def make_coin(*, seed, rules, players):
    return RandomBot(seed)


register_bot("gin", "coin", make_coin, description="a plugin's bot")
'''


def test_serve_load_offers_a_plugins_bots(tmp_path: Path) -> None:
    plugin = tmp_path / "coin_plugin.py"
    plugin.write_text(PLUGIN)
    port = free_port()
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with server_process(url, port, tmp_path / "server.log", "--load", str(plugin)):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=10) as reply:
            variants = json.loads(reply.read())
        gin = next(v for v in variants if v["name"] == "gin")
        assert gin["bot_levels"][-1] == "coin" and gin["default_bot_level"] == "heuristic"
        created = post(
            port,
            "/api/tables",
            {"variant": "gin", "seats": [{"kind": "human"}, {"kind": "bot", "level": "coin"}]},
        )
        assert created["table"]["seats"][1]["level"] == "coin"
