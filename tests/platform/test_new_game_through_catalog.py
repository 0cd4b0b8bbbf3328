"""A game registered through the catalog runs everywhere, with nothing of the platform
naming it: the catalog, the command line's list of games, the table server (lobby and a
whole table played over the websocket), the tournament runner and records.

The game (``tiny_game.py``) is loaded as a user's plugin file, as ``--load`` would.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.catalog import get_variant, make_bot, unregister_variant, variant_names
from rummykit.cli import app
from rummykit.sim.registry import load_plugin
from rummykit.sim.tournament import run_tournament

PLUGIN = Path(__file__).with_name("tiny_game.py")
NAME = "high-cards"


@pytest.fixture(scope="module", autouse=True)
def tiny_game() -> Iterator[None]:
    load_plugin(str(PLUGIN))
    yield
    unregister_variant(NAME)


def test_the_catalog_finds_the_game_and_plays_it_between_bots() -> None:
    assert NAME in variant_names()
    variant = get_variant(NAME)
    assert variant.bot_levels() == ("random", "heuristic")
    rules = variant.make_rules(options={"target": 3})
    bots = [make_bot(NAME, "heuristic", seed=1), make_bot(NAME, "random", seed=2)]
    outcome = variant.play(bots, rules=rules, seed=5, first_dealer=0)
    assert sum(outcome.shares) == pytest.approx(1.0)
    assert max(outcome.points) == 3


def test_records_replay_through_the_generic_match_layer() -> None:
    variant = get_variant(NAME)
    game = variant.new_game(variant.default_rules(), players=3, seed=9)
    bot = make_bot(NAME, "random", seed=4)
    while not game.is_over:
        game.apply(bot.act(game.observation(game.current_player), game.legal_actions()))
    again = variant.game_from_record(game.to_record())
    assert again.to_record() == game.to_record()
    assert again.result == game.result
    copy = game.clone()
    assert copy.to_record() == game.to_record() and copy is not game


def test_bad_options_are_refused_by_their_declaration() -> None:
    variant = get_variant(NAME)
    with pytest.raises(ValueError, match="target must be a whole number 1-20"):
        variant.make_rules(options={"target": 0})
    with pytest.raises(ValueError, match="unknown high-cards option"):
        variant.make_rules(options={"colour": "red"})


def test_the_command_line_lists_the_game() -> None:
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert NAME in result.output and "High Cards" in result.output


def test_a_tournament_plays_the_game() -> None:
    result = run_tournament(
        NAME, ["heuristic", "random"], games=6, seed=3, workers=1, progress=False
    )
    assert result.games_played == 12
    # Every card is played in the end, so the order cannot matter: a game of luck.
    assert {standing.name for standing in result.standings} == {"heuristic", "random"}
    assert sum(standing.wins for standing in result.standings) == pytest.approx(12)


def test_the_server_hosts_a_table_of_the_game(tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the server tests need the 'server' extra")
    from fastapi.testclient import TestClient

    from rummykit.server import ServerConfig, create_app

    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'tables.db'}",
        bot_delay=0.0,
        allow_seed=True,
        rate_per_second=1000.0,
        rate_burst=1000,
    )
    with TestClient(create_app(config)) as client:
        games = {v["name"]: v for v in client.get("/api/variants").json()}
        assert games[NAME]["title"] == "High Cards (test only)"
        assert {o["name"] for o in games[NAME]["options"]} == {"hand_size", "target"}
        response = client.post(
            "/api/tables",
            json={
                "variant": NAME,
                "seed": 7,
                "options": {"target": 2},
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            },
        )
        assert response.status_code == 201, response.text
        data = response.json()
        table, token = data["table"]["id"], data["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "v": 1, "token": token})
            _until(ws, lambda m: m["type"] == "welcome")
            ws.send_json({"type": "start", "id": "s"})
            view = _until(ws, lambda m: m["type"] == "snapshot")["view"]
            for move in range(200):
                while not (view["legal_actions"] or view["is_over"]):
                    view = _until(ws, lambda m: m["type"] in ("update", "snapshot"))["view"]
                if view["is_over"]:
                    break
                ws.send_json({"type": "act", "id": move, "action": view["legal_actions"][0]})
                answer = _until(ws, lambda m, move=move: m.get("id") == move)
                assert answer["type"] == "ack", answer
                view = _until(ws, lambda m, seq=answer["seq"]: m.get("seq") == seq)["view"]
            assert view["is_over"] and max(view["scores"]) == 2
        listed = client.get("/api/games").json()
        assert any(game["variant"] == NAME for game in _games(listed))


def _games(listed: Any) -> list[dict[str, Any]]:
    return list(listed["games"] if isinstance(listed, dict) else listed)


def _until(ws: Any, predicate: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("expected message never came")


def test_installed_packages_register_games_through_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A package that names a module under the ``rummykit.games`` entry-point group has
    its game in the catalog on the first look-up."""
    import importlib.metadata

    from rummykit.catalog import ENTRY_POINT_GROUP, registry

    loaded: list[str] = []

    class Entry:
        name = "high-cards"

        def load(self) -> None:
            loaded.append(self.name)

    def entry_points(*, group: str) -> list[Entry]:
        return [Entry()] if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_STARTED", [])
    monkeypatch.setattr(registry, "_DONE", [])
    assert NAME in variant_names()
    assert loaded == ["high-cards"]
