"""The websocket protocol: welcome, start, play a whole match, per-seat views, rematch."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import (
    act,
    choose,
    create_table,
    hello,
    play_to_the_end,
    receive_until,
    start,
    update_number,
    wait_my_turn,
)


def test_play_a_whole_match_against_a_bot(client: TestClient) -> None:
    table_id, (token,) = create_table(client, seed=21, options={"target": 40})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, token, name="Ann")
        assert welcome["type"] == "welcome" and welcome["role"] == "player"
        assert welcome["seat"] == 0 and welcome["v"] == 1
        assert welcome["table"]["status"] == "waiting" and welcome["view"] is None
        view = start(ws)["view"]
        seq = 0
        moves = 0
        while True:
            view = wait_my_turn(ws, view)
            if view["is_over"]:
                break
            answer = act(ws, choose(view), request_id=moves)
            assert answer["type"] == "ack", answer
            assert answer["seq"] > seq
            seq = answer["seq"]
            update = receive_until(ws, update_number(seq))
            assert update["actor"] == 0 and update["by"] == "human" and "action" in update
            view = update["view"]
            moves += 1
            assert moves < 600
    final = view["score_sheet"]["final"]
    assert final is not None and max(view["scores"]) >= 40
    listed = client.get("/api/games").json()
    assert [row["id"] for row in listed] == [table_id]
    assert listed[0]["summary"]["result"]["totals"] == final["totals"]


def test_each_player_sees_only_their_own_hand_and_spectators_none(client: TestClient) -> None:
    table_id, tokens = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        assert hello(ws0, tokens[0])["seat"] == 0
        assert hello(ws1, tokens[1])["seat"] == 1
        watching = hello(spectator)
        assert watching["role"] == "spectator" and watching["seat"] is None
        views = [start(ws0)["view"]]
        views.append(receive_until(ws1, lambda m: m["type"] == "snapshot")["view"])
        public = receive_until(spectator, lambda m: m["type"] == "snapshot")["view"]
        hands = [set(views[0]["hand"]), set(views[1]["hand"])]
        assert len(hands[0]) == len(hands[1]) == 10 and not hands[0] & hands[1]
        text = [str(views[0]), str(views[1]), str(public)]
        assert not any(f"'{card}'" in text[0] for card in hands[1])
        assert not any(f"'{card}'" in text[1] for card in hands[0])
        assert not any(f"'{card}'" in text[2] for card in hands[0] | hands[1])
        assert "hand" not in public and public["players"][0]["hand_size"] == 10
        # The player to act moves; everyone gets an update, each with their own view.
        mover = 0 if views[0]["legal_actions"] else 1
        sockets = [ws0, ws1]
        answer = act(sockets[mover], {"kind": "take_upcard"})
        assert answer["type"] == "ack"
        seq = answer["seq"]
        other = receive_until(sockets[1 - mover], lambda m: m["type"] == "update")
        seen = receive_until(spectator, lambda m: m["type"] == "update")
        assert other["seq"] == seen["seq"] == seq
        assert "action" not in other and other["events"][0]["kind"] == "take_upcard"
        assert other["view"]["players"][mover]["hand_size"] == 11
        assert other["view"]["players"][mover]["known_cards"] == [views[0]["upcard"]]


def test_rematch_makes_a_new_table_with_the_same_seats(client: TestClient) -> None:
    table_id, (token,) = create_table(client, seed=8, options={"target": 1})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        ws.send_json({"type": "rematch", "id": "r0"})
        early = receive_until(ws, lambda m: m["type"] == "error")
        assert early["code"] == "not_finished"
        play_to_the_end(ws, start(ws)["view"])
        ws.send_json({"type": "rematch", "id": "r1"})
        note = receive_until(ws, lambda m: m["type"] == "rematch")
        ack = receive_until(ws, lambda m: m["type"] == "ack" and m["id"] == "r1")
        new_id = ack["table_id"]
        assert note["table_id"] == new_id and note["by"] == 0
    with client.websocket_connect(f"/ws/tables/{new_id}") as ws:
        welcome = hello(ws, token)
        assert welcome["seat"] == 0 and welcome["table"]["rematch_of"] == table_id
        assert welcome["table"]["status"] == "waiting"
        assert start(ws)["view"]["hand_number"] == 1
    assert client.get(f"/api/tables/{table_id}").json()["table"]["rematch_id"] == new_id


def test_ping_and_sync(client: TestClient) -> None:
    table_id, (token,) = create_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}
        hello(ws, token)
        ws.send_json({"type": "sync", "id": 8})
        snapshot = receive_until(ws, lambda m: m["type"] == "snapshot")
        assert snapshot["seat"] == 0 and snapshot["table"]["id"] == table_id
