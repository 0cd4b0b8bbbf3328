"""Two players of one table on different nodes, and a spectator on a third: each sees
every move, in order, whichever node owns the table (the others relay through Redis)."""

from __future__ import annotations

from typing import Any

from cluster_helpers import Player, play_round, sync
from server_helpers import post


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
