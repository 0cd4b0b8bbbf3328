"""Carousel tables on the server (rules/carousel.md): a hand against bots, layout checks
and refusals, views, the placement hint, and replays from the action log."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, hello, receive_until, start
from variant_helpers import ask, create_variant_table, next_turn, play, sync

from rummykit.cards import parse_cards
from rummykit.core import IllegalActionError
from rummykit.games.carousel import CarouselRules, best_placement
from rummykit.games.carousel.views import CarouselTableGame
from rummykit.server.variants import get_adapter

MELD_SEED = 6
"""With 3 seats, seat 0 plays first holding 3S 4S 5S (a new meld)."""

ONE_HAND = {"target": 1}
"""The first hand with any points ends the game."""


def test_adapter_offers_seats_and_every_option() -> None:
    adapter = get_adapter("carousel")
    assert (adapter.min_seats, adapter.max_seats) == (2, 5)
    options = {option.name: option for option in adapter.rule_options()}
    assert set(options) == set(CarouselRules().to_dict())
    assert options["decks"].to_json()["choices"] == ["auto", "1", "2", "3"]
    assert adapter.make_rules("carousel", {"decks": "auto"})["decks"] is None
    assert adapter.make_rules("carousel", {"decks": "1", "knock_limit": 7})["decks"] == 1
    with pytest.raises(ValueError, match="knock_limit"):
        adapter.make_rules("carousel", {"knock_limit": -1})
    with pytest.raises(ValueError, match="2-5 players"):
        adapter.new_game(adapter.make_rules("carousel", {}), seats=6, seed=1)


def choose(view: dict[str, Any], advice: dict[str, Any] | None) -> dict[str, Any]:
    """The solver's placement when melding is open, else draw, knock or end the turn."""
    kinds = {action["kind"]: action for action in view["legal_actions"]}
    if advice and advice["placement"]:
        return dict(advice["placement"]["action"])
    for kind in ("draw", "knock", "end_turn"):
        if kind in kinds:
            return dict(kinds[kind])
    raise AssertionError(f"no move in {view['legal_actions']}")


def test_a_table_against_two_bots_plays_a_hand_to_the_end(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "carousel", seed=MELD_SEED, options=ONE_HAND)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        assert view["variant"] == "carousel" and len(view["players"]) == 3
        moves = 0
        while True:
            view = next_turn(ws, view)
            if view["is_over"]:
                break
            advice = None
            if view["may_meld"] and not view["melded"]:
                advice = ask(ws, {"type": "hint"}, f"h{moves}")["hint"]
            view = play(ws, view, choose(view, advice), f"m{moves}")
            moves += 1
            assert moves < 300
    result = view["last_result"]
    assert result["hand"] == 1 and result["reason"] in ("knock", "went_out", "stock_exhausted")
    assert view["score_sheet"]["rows"][0]["points"] == result["points"]
    final = view["score_sheet"]["final"]
    assert final is not None and final["winners"]
    replay = client.get(f"/api/games/{table_id}/replay").json()
    assert replay["record"]["variant"] == "carousel"
    assert replay["steps"][-1]["state"]["scores"] == view["scores"]


def test_layout_check_then_a_meld(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "carousel", seed=MELD_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        assert view["table"] == [] and view["draws"] == 1 and view["may_meld"] is True
        good = {"kind": "meld", "layout": ["3S 4S 5S"]}
        checked = ask(ws, {"type": "check", "action": good}, "c1")
        assert checked["type"] == "checked" and checked["ok"] is True
        assert checked["cards"] == ["3S", "4S", "5S"] and checked["value"] == 12
        assert checked["hand_value_after"] == view["hand_value"] - 12
        wrong = ask(ws, {"type": "check", "action": {"kind": "meld", "layout": ["3S 4S"]}}, "c2")
        assert wrong["ok"] is False and wrong["error"]["code"] == "illegal_action"
        assert "3S" in wrong["error"]["message"]
        view = play(ws, view, good, "meld")
        assert view["table"] == [["3S", "4S", "5S"]] and view["melded"] is True
        assert len(view["hand"]) == 8 and view["players"][0]["hand_size"] == 8


NO = None
"""No engine rule code to compare (any is fine, or none for a malformed action)."""


def illegal_cases() -> list[tuple[str, dict[str, Any], str, str | None]]:
    return [
        ("knock before the turn may end", {"kind": "knock"}, "illegal_action", "turn_not_finished"),
        ("end the turn at once", {"kind": "end_turn"}, "illegal_action", "turn_not_finished"),
        (
            "a meld of cards not held",
            {"kind": "meld", "layout": ["KH KD KC"]},
            "illegal_action",
            NO,
        ),
        ("a layout not a list", {"kind": "meld", "layout": "3S 4S 5S"}, "invalid_action", NO),
        ("an unknown kind", {"kind": "shuffle"}, "invalid_action", NO),
    ]


@pytest.mark.parametrize(("why", "action", "code", "rule"), illegal_cases())
def test_illegal_actions_get_a_clear_error_and_change_nothing(
    client: TestClient, why: str, action: dict[str, Any], code: str, rule: str | None
) -> None:
    table_id, token = create_variant_table(client, "carousel", seed=MELD_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        start(ws)
        before = sync(ws)
        answer = act(ws, action, "bad")
        assert answer["type"] == "error" and answer["code"] == code, why
        if rule is not None:
            assert answer["rule"] == rule
        assert len(answer["message"]) > 15
        after = sync(ws)
        assert after["seq"] == before["seq"] == 0 and after["view"] == before["view"]


def test_spectators_see_the_table_and_counts_never_a_hand(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "carousel", seed=MELD_SEED)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        hello(ws, token)
        hello(spectator)
        start(ws)
        watching = receive_until(spectator, lambda m: m["type"] == "snapshot")["view"]
        play(ws, watching, {"kind": "draw"}, "d")
        drawn = receive_until(spectator, lambda m: m["type"] == "update")
    assert drawn["events"][0]["kind"] == "draw" and "card" not in drawn["events"][0]
    for view in (watching, drawn["view"]):
        assert view["seat"] is None and "hand" not in view and "hand_value" not in view
        assert view["legal_actions"] == [] and view["may_meld"] is False
        assert [p["hand_size"] for p in view["players"]][1:] == [10, 10]


def test_hint_is_the_solvers_best_placement(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "carousel", seed=MELD_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        advice = ask(ws, {"type": "hint"}, "h")["hint"]
    expected = best_placement([], parse_cards(" ".join(view["hand"])), decks=2)
    assert expected is not None
    placement = advice["placement"]
    assert placement["value"] == expected.value and placement["count"] == expected.count
    assert placement["action"]["kind"] == "meld"


Log = list[tuple[int, dict[str, Any]]]


def played_game(seed: int, steps: int) -> tuple[CarouselTableGame, Log]:
    adapter = get_adapter("carousel")
    rules = adapter.make_rules("carousel", {})
    game = adapter.new_game(rules, seats=3, seed=seed)
    assert isinstance(game, CarouselTableGame)
    bots = [adapter.make_bot("random", rules, seed=seat) for seat in range(3)]
    log: Log = []
    for _ in range(steps):
        seat = game.current_seat
        if seat is None:
            break
        applied = game.apply(seat, game.bot_action(seat, bots[seat]))
        log.append((seat, applied.action))
    return game, log


@pytest.mark.parametrize("seed", [1, 2])
def test_replaying_the_log_rebuilds_every_view(seed: int) -> None:
    game, log = played_game(seed, 120)
    assert any(action["kind"] == "meld" for _seat, action in log)
    adapter = get_adapter("carousel")
    again = adapter.replay(adapter.make_rules("carousel", {}), seats=3, seed=seed, actions=log)
    for seat in (None, 0, 1, 2):
        assert json.dumps(again.view(seat), sort_keys=True) == json.dumps(
            game.view(seat), sort_keys=True
        )
    assert again.reveal() == game.reveal()


def test_out_of_turn_is_refused_by_the_adapter() -> None:
    game, _log = played_game(3, 10)
    seat = game.current_seat
    assert seat is not None
    before = json.dumps(game.view(seat), sort_keys=True)
    with pytest.raises(IllegalActionError) as error:
        game.apply((seat + 1) % 3, {"kind": "draw"})
    assert error.value.code == "not_your_turn"
    assert game.check((seat + 1) % 3, {"kind": "draw"})["error"]["rule"] == "not_your_turn"
    assert json.dumps(game.view(seat), sort_keys=True) == before


def test_a_restarted_server_rebuilds_the_table_from_its_log(
    make_client: Callable[..., TestClient], sqlite_url: str
) -> None:
    first = make_client(sqlite_url)
    table_id, token = create_variant_table(first, "carousel", seed=MELD_SEED)
    with first.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        view = play(ws, view, {"kind": "meld", "layout": ["3S 4S 5S"]}, "m")
        view = play(ws, view, {"kind": "end_turn"}, "e")
        view = next_turn(ws, view)
        before = sync(ws)
    first.__exit__(None, None, None)
    second = make_client(sqlite_url)
    snapshot = second.get(
        f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert snapshot["seq"] == before["seq"] and snapshot["view"] == before["view"]
