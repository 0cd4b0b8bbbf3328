"""Rami tables on the server (rules/rami.md): a round against bots, refusals, views,
the opening check and the hint, and replays from the action log."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, hello, receive_until, start
from variant_helpers import ask, create_variant_table, next_turn, play, sync

from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.games.rami import RamiRules, best_opening, parse_card_token
from rummykit.games.rami.views import RamiTableGame
from rummykit.server.variants import get_adapter

OPENING_SEED = 75
"""With 4 seats, seat 0 plays first and can open with 9C 9D 9H + TC TD TH = 57."""

ONE_ROUND = {"end_mode": "rounds", "rounds": 1}


def test_adapter_offers_presets_seats_and_every_option() -> None:
    adapter = get_adapter("rami")
    assert (adapter.min_seats, adapter.max_seats) == (2, 6)
    assert set(adapter.presets) == {"rami51", "rami40", "rami51-house", "rami40-house"}
    assert adapter.presets["rami40-house"] == {
        "opening_threshold": 40,
        "jokers": "per_deck",
        "unopened_penalty": "flat:100",
    }
    options = {option.name: option for option in adapter.rule_options()}
    assert set(options) == set(RamiRules().to_dict())
    assert options["decks"].kind == "choice" and "auto" in options["decks"].to_json()["choices"]
    assert options["unopened_penalty"].kind == "text"
    # The lobby sends choices as strings; the adapter gives the rules their numbers.
    rules = adapter.make_rules("rami40", {"decks": "3", "jokers": "2"})
    assert (rules["decks"], rules["jokers"], rules["opening_threshold"]) == (3, 2, 40)
    with pytest.raises(ValueError, match="unknown rami preset"):
        adapter.make_rules("rami99", {})
    with pytest.raises(ValueError, match="unopened_penalty"):
        adapter.make_rules("rami51", {"unopened_penalty": "lots"})
    with pytest.raises(ValueError, match="2-6 players"):
        adapter.new_game(rules, seats=7, seed=1)


def test_a_table_against_three_bots_plays_a_round_to_the_end(client: TestClient) -> None:
    table_id, token = create_variant_table(
        client, "rami", preset="rami51", bots=3, seed=OPENING_SEED, options=ONE_ROUND
    )
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        assert view["variant"] == "rami" and len(view["players"]) == 4
        moves = 0
        while True:
            view = next_turn(ws, view)
            if view["is_over"]:
                break
            # The hint carries the heuristic bot's move for this seat: play it.
            advice = ask(ws, {"type": "hint"}, f"h{moves}")
            assert advice["type"] == "hint", advice
            view = play(ws, view, advice["hint"]["suggestion"]["action"], f"m{moves}")
            moves += 1
            assert moves < 400
    result = view["last_result"]
    assert result["round"] == 1 and len(result["hands"]) == 4
    assert view["score_sheet"]["rows"][0]["penalties"] == result["penalties"]
    assert view["score_sheet"]["final"]["winners"]
    listed = client.get("/api/games").json()
    assert listed[0]["id"] == table_id and listed[0]["variant"] == "rami"


def test_opening_check_and_an_opening_below_the_threshold(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "rami", bots=3, seed=OPENING_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        view = play(ws, view, {"kind": "draw_stock"}, "draw")
        hand = view["hand"]

        def cards(*faces: str) -> str:
            return " ".join(next(c for c in hand if c.split("@")[0] == face) for face in faces)

        nines, tens = cards("9C", "9D", "9H"), cards("TC", "TD", "TH")
        short = ask(ws, {"type": "check", "action": {"kind": "open", "combos": [nines]}}, "c1")
        assert short["type"] == "checked" and short["ok"] is False
        assert (short["total"], short["threshold"], short["reaches"]) == (27, 51, False)
        assert short["error"]["rule"] == "opening_below_threshold"
        assert "51" in short["error"]["message"]
        bad = ask(
            ws, {"type": "check", "action": {"kind": "open", "combos": [cards("9C", "TD")]}}, "c2"
        )
        assert bad["combos"][0]["valid"] is False and bad["combos"][0]["reason"]
        both = {"kind": "open", "combos": [nines, tens]}
        good = ask(ws, {"type": "check", "action": both}, "c3")
        assert good["ok"] is True and good["total"] == 57 and good["reaches"] is True
        assert [part["value"] for part in good["combos"]] == [27, 30]
        # Checks change nothing; a refused opening changes nothing either.
        before = sync(ws)
        refused = act(ws, {"kind": "open", "combos": [nines]}, "o1")
        assert refused["type"] == "error" and refused["code"] == "illegal_action"
        assert refused["rule"] == "opening_below_threshold"
        again = sync(ws)
        assert again["seq"] == before["seq"] and again["view"] == before["view"]
        view = play(ws, view, both, "open")
        assert view["opened"] is True and len(view["table"]) == 2
        assert [combo["owner"] for combo in view["table"]] == [0, 0]
        assert view["table"][1]["value"] == 30 and view["players"][0]["opened"] is True


def illegal_cases() -> list[tuple[str, dict[str, Any], str]]:
    return [
        ("discard before drawing", {"kind": "discard", "card": "2S"}, "illegal_action"),
        ("lay off before opening", {"kind": "layoff", "card": "2S", "target": 0}, "illegal_action"),
        ("an unknown kind", {"kind": "fly"}, "invalid_action"),
        ("a card that is no card", {"kind": "discard", "card": "ZZ"}, "invalid_action"),
        ("end play in the draw phase", {"kind": "end_play"}, "illegal_action"),
    ]


@pytest.mark.parametrize(("why", "action", "code"), illegal_cases())
def test_illegal_actions_get_a_clear_error_and_change_nothing(
    client: TestClient, why: str, action: dict[str, Any], code: str
) -> None:
    table_id, token = create_variant_table(client, "rami", bots=3, seed=OPENING_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        start(ws)
        before = sync(ws)
        answer = act(ws, action, "bad")
        assert answer["type"] == "error" and answer["code"] == code, why
        assert len(answer["message"]) > 15, answer
        after = sync(ws)
        assert after["seq"] == before["seq"] == 0 and after["view"] == before["view"]


def test_spectators_see_the_table_and_counts_never_a_hand(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "rami", bots=3, seed=OPENING_SEED)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        hello(ws, token)
        hello(spectator)
        view = start(ws)["view"]
        watching = receive_until(spectator, lambda m: m["type"] == "snapshot")["view"]
        play(ws, view, {"kind": "draw_stock"}, "d")
        drawn = receive_until(spectator, lambda m: m["type"] == "update")
    assert drawn["events"][0]["kind"] == "draw_stock" and "card" not in drawn["events"][0]
    for view in (watching, drawn["view"]):
        assert view["seat"] is None and "hand" not in view and "taken_card" not in view
        assert view["legal_actions"] == [] and view["moves"] == []
        assert [p["hand_size"] for p in view["players"]][1:] == [13, 13, 13]
    # No card of any hand appears anywhere in what a spectator receives.
    adapter = get_adapter("rami")
    game = adapter.new_game(adapter.make_rules("rami51", {}), seats=4, seed=OPENING_SEED)
    seen = json.dumps(game.view(None))
    for seat in range(4):
        assert not [card for card in game.view(seat)["hand"] if f'"{card}"' in seen]


def test_hint_before_opening_is_the_best_opening(client: TestClient) -> None:
    table_id, token = create_variant_table(client, "rami", bots=3, seed=OPENING_SEED)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        view = play(ws, view, {"kind": "draw_stock"}, "d")
        advice = ask(ws, {"type": "hint"}, "h")["hint"]
    expected = best_opening([parse_card_token(c) for c in view["hand"]], RamiRules())
    assert expected is not None and advice["opening"]["value"] == expected.value
    assert advice["opening"]["penalty_left"] == expected.penalty_left
    assert advice["suggestion"]["action"]["kind"] == "open"


def played_game(seed: int, steps: int) -> tuple[RamiTableGame, list[tuple[int, dict[str, Any]]]]:
    adapter = get_adapter("rami")
    rules = adapter.make_rules("rami40-house", {})
    game = adapter.new_game(rules, seats=3, seed=seed)
    assert isinstance(game, RamiTableGame)
    bots = [adapter.make_bot("random", rules, seed=seat) for seat in range(3)]
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(steps):
        seat = game.current_seat
        if seat is None:
            break
        applied = game.apply(seat, game.bot_action(seat, bots[seat]))
        log.append((seat, applied.action))
    return game, log


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replaying_the_log_rebuilds_every_view(seed: int) -> None:
    game, log = played_game(seed, 150)
    adapter = get_adapter("rami")
    again = adapter.replay(adapter.make_rules("rami40-house", {}), seats=3, seed=seed, actions=log)
    for seat in (None, 0, 1, 2):
        assert json.dumps(again.view(seat), sort_keys=True) == json.dumps(
            game.view(seat), sort_keys=True
        )
    assert again.reveal() == game.reveal()


def test_refused_actions_leave_the_adapter_game_unchanged() -> None:
    game, _log = played_game(4, 20)
    seat = game.current_seat
    assert seat is not None
    before = json.dumps(game.view(seat), sort_keys=True)
    with pytest.raises(IllegalActionError) as error:
        game.apply((seat + 1) % 3, {"kind": "draw_stock"})
    assert error.value.code == "not_your_turn"
    with pytest.raises(InvalidActionError):
        game.apply(seat, {"kind": "open", "combos": "nonsense"})
    assert game.check(seat, {"kind": "meld", "combos": ["AS AS AS"]})["ok"] is False
    assert json.dumps(game.view(seat), sort_keys=True) == before


def test_a_restarted_server_rebuilds_the_table_from_its_log(
    make_client: Callable[..., TestClient], sqlite_url: str
) -> None:
    first = make_client(sqlite_url)
    table_id, token = create_variant_table(first, "rami", bots=3, seed=OPENING_SEED)
    with first.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        view = start(ws)["view"]
        view = play(ws, view, {"kind": "draw_stock"}, "d")
        view = play(ws, view, {"kind": "end_play"}, "e")
        view = play(ws, view, {"kind": "discard", "card": view["hand"][0]}, "x")
        view = next_turn(ws, view)
        before = sync(ws)
    first.__exit__(None, None, None)
    second = make_client(sqlite_url)
    snapshot = second.get(
        f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert snapshot["seq"] == before["seq"] and snapshot["view"] == before["view"]


def test_every_listed_move_is_legal_and_a_joker_swap_plays() -> None:
    """The view's ``moves`` (what the browser offers on a click) are all accepted by the
    engine; the first joker swap offered is played through the adapter."""
    adapter = get_adapter("rami")
    rules = adapter.make_rules("rami51", {})
    game = adapter.new_game(rules, seats=4, seed=1)
    bots = [adapter.make_bot("heuristic", rules, seed=seat) for seat in range(4)]
    swapped = None
    for _ in range(400):
        seat = game.current_seat
        if seat is None:
            break
        moves = game.view(seat)["moves"]
        for move in moves:
            assert game.check(seat, move)["ok"], move
        swap = next((move for move in moves if move["kind"] == "swap_joker"), None)
        if swap is not None:
            jokers_before = sum(combo["has_joker"] for combo in game.view(seat)["table"])
            applied = game.apply(seat, swap)
            swapped = applied.events[0]
            assert swapped.kind == "swap_joker" and swapped.detail["target"] == swap["target"]
            assert sum(combo["has_joker"] for combo in game.view(seat)["table"]) >= jokers_before
            break
        game.apply(seat, game.bot_action(seat, bots[seat]))
    assert swapped is not None, "no joker swap was offered"


def test_questions_need_a_seat_a_started_game_and_a_well_formed_action(
    client: TestClient,
) -> None:
    table_id, token = create_variant_table(client, "rami", bots=3, seed=OPENING_SEED)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        hello(ws, token)
        hello(spectator)
        early = ask(ws, {"type": "hint"}, "early")
        assert early["type"] == "error" and early["code"] == "not_started"
        start(ws)
        watching = ask(spectator, {"type": "hint"}, "w")
        assert watching["type"] == "error" and watching["code"] == "not_seated"
        bad = ask(ws, {"type": "check", "action": {"kind": "open", "combos": 7}}, "bad")
        assert bad["type"] == "error" and bad["code"] == "invalid_action"
        missing = ask(ws, {"type": "check"}, "none")
        assert missing["type"] == "error" and missing["code"] == "bad_message"
