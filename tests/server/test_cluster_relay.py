"""Two players of one table on different nodes, and a spectator on a third: each sees
every move, in order, whichever node owns the table (the others relay through Redis)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from cluster_helpers import Player, play_round, sync
from server_helpers import choose, post


def test_players_on_different_nodes_see_each_others_moves_in_order(cluster_nodes: Any) -> None:
    cluster_nodes.start(3)
    ports = cluster_nodes.ports
    created = post(
        ports[0],
        "/api/tables",
        {"variant": "gin", "seed": 77, "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    # Seat 0 on the owner (the node that created the table), seat 1 relayed from the
    # second node, a spectator relayed from the third.
    players = [Player([ports[0]], table_id, tokens[0]), Player([ports[1]], table_id, tokens[1])]
    spectator = Player([ports[2]], table_id)
    players[1].ws.send('{"type": "start", "id": "s"}')
    for player in players:
        player.until(lambda m: m["type"] == "snapshot")
    play_round(players, 30)
    last = max(player.seq for player in players)
    sync(spectator, last)
    for player in players:
        sync(player, last)

    # Nobody reconnected, and each saw every update after its welcome exactly once.
    assert [player.connections for player in [*players, spectator]] == [1, 1, 1]
    for watcher in [*players, spectator]:
        assert watcher.updates == list(range(1, last + 1))
    # The spectator's view shows no hand.
    assert spectator.view is not None and spectator.view.get("hand") in (None, [])
    # The log holds exactly the acknowledged moves, in order.
    acked = {**players[0].acked, **players[1].acked}
    stored = cluster_nodes.stored_actions(table_id)
    assert [seq for seq, _, _ in stored] == sorted(acked) == list(range(1, last + 1))
    for seq, _, action in stored:
        assert {k: v for k, v in acked[seq].items() if k in action} == {
            k: v for k, v in action.items() if k in acked[seq]
        }
    owner, relay, watcher_node = (cluster_nodes.health(i)["cluster"] for i in range(3))
    assert owner["leases"] >= 1 and owner["relayed_in"] == 2
    assert relay["relayed_out"] == 1 and watcher_node["relayed_out"] == 1
    for player in [*players, spectator]:
        player.close()
    assert "Traceback" not in cluster_nodes.log_text()


def _request(port: int, method: str, path: str, token: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_a_tables_rest_routes_answer_on_every_node(cluster_nodes: Any) -> None:
    cluster_nodes.start(2)
    owner, other = cluster_nodes.ports
    created = post(owner, "/api/tables", {"variant": "gin", "seed": 5})
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    base = f"/api/tables/{table_id}"
    # Joined, started and played through the node that does not own the table.
    assert _request(other, "POST", f"{base}/join", token, {"name": "Ann"})["seat"] == 0
    snapshot = _request(other, "POST", f"{base}/start", token, {})
    assert snapshot["table"]["status"] == "playing"
    action = snapshot["view"]["legal_actions"][0]
    played = _request(other, "POST", f"{base}/actions", token, {"action": action})
    assert played["seq"] >= 1
    # The owner tells the same story, and is still the only node holding the table.
    seen = _request(owner, "GET", base, token)
    assert seen["seq"] >= played["seq"] and seen["table"]["seats"][0]["name"] == "Ann"
    assert cluster_nodes.health(1)["tables"] == 0
    # The lobby's list, read from the shared database, is the same on every node.
    for port in (owner, other):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=10) as answer:
            listed = {row["id"]: row for row in json.loads(answer.read())}
        assert listed[table_id]["status"] == "playing"
    with pytest.raises(urllib.error.HTTPError) as refused:
        _request(other, "GET", base, "not-a-token-of-this-table")
    assert refused.value.code == 403


def test_a_rematch_offered_through_relays_reaches_both_players(cluster_nodes: Any) -> None:
    cluster_nodes.start(3)
    ports = cluster_nodes.ports
    body = {
        "variant": "gin",
        "seed": 8,
        "options": {"target": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }
    created = post(ports[0], "/api/tables", body)
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    # Both players relayed (the owner is node 1), from two different nodes.
    players = [Player([ports[1]], table_id, tokens[0]), Player([ports[2]], table_id, tokens[1])]
    players[0].ws.send('{"type": "start", "id": "s"}')
    for player in players:
        player.until(lambda m: m["type"] == "snapshot")
    for _ in range(400):
        mover = next((p for p in players if p.view and p.view["legal_actions"]), None)
        if mover is None:
            break
        mover.move(choose(mover.view))
        for other in players:
            sync(other, mover.seq)
    assert all(player.view and player.view["is_over"] for player in players)
    players[0].ws.send('{"type": "rematch", "id": "r"}')
    ack = players[0].until(lambda m: m["type"] == "ack" and m.get("id") == "r")
    note = players[1].until(lambda m: m["type"] == "rematch")
    assert note["table_id"] == ack["table_id"] != table_id
    # The same tokens open the new table, from any node.
    again = [
        Player([ports[2]], ack["table_id"], tokens[0]),
        Player([ports[1]], ack["table_id"], tokens[1]),
    ]
    again[1].ws.send('{"type": "start", "id": "s"}')
    for player in again:
        snapshot = player.until(lambda m: m["type"] == "snapshot")
        assert snapshot["table"]["status"] == "playing"
    for player in players + again:
        player.close()
