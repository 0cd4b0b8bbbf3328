"""An owner node dies (``kill -9``) or stalls past its lease (``SIGSTOP``): another node
takes the table over from the event log, the players' clients reconnect by themselves,
every acknowledged move is in the log, and the stalled node, woken up, writes nothing."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

from cluster_helpers import LEASE, DisconnectedError, Player, play_round, sync
from server_helpers import post


def _two_player_table(port: int, seed: int) -> tuple[str, list[str]]:
    created = post(
        port,
        "/api/tables",
        {"variant": "gin", "seed": seed, "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    return created["table"]["id"], [invite["token"] for invite in created["invites"]]


def _check_log(nodes: Any, table_id: str, players: list[Player]) -> list[Any]:
    """Every acknowledged move is in the log at its seq, and the log has no hole."""
    stored = nodes.stored_actions(table_id)
    assert [seq for seq, _, _ in stored] == list(range(1, len(stored) + 1))
    by_seq = {seq: action for seq, _, action in stored}
    for player in players:
        for seq, action in player.acked.items():
            assert seq in by_seq, f"acknowledged move {seq} is missing"
            assert all(by_seq[seq].get(key) == value for key, value in action.items())
    return stored


def test_kill_9_of_the_owner_mid_hand(cluster_nodes: Any) -> None:
    cluster_nodes.start(2)
    ports = cluster_nodes.ports
    table_id, tokens = _two_player_table(ports[0], seed=91)
    # Seat 0 on the owner, seat 1 relayed: after the owner's death both reach node 2.
    players = [Player(ports, table_id, tokens[0]), Player(ports[::-1], table_id, tokens[1])]
    players[0].ws.send(json.dumps({"type": "start", "id": "s"}))
    for player in players:
        player.until(lambda m: m["type"] == "snapshot")
    play_round(players, 10)
    before = max(player.seq for player in players)

    killed_at = time.monotonic()
    os.kill(cluster_nodes.processes[0].pid, signal.SIGKILL)
    cluster_nodes.processes[0].wait(timeout=10)
    # Both clients lose their connection (the relayed one when node 2 sees node 1's
    # heartbeat stop) and reconnect to node 2, which takes the table over.
    for player in players:
        try:
            player.until(lambda m: False, timeout=LEASE * 4)
        except DisconnectedError:
            player.connect()
    assert all(player.port == ports[1] for player in players)
    assert time.monotonic() - killed_at < LEASE + 10
    for player in players:
        assert player.seq == before  # the takeover replayed every acknowledged move
    play_round(players, 10)
    last = max(player.seq for player in players)
    for player in players:
        sync(player, last)
    stored = _check_log(cluster_nodes, table_id, players)
    assert len(stored) == last >= before + 10
    assert cluster_nodes.health(1)["cluster"]["leases"] >= 1
    for player in players:
        player.close()


def test_a_node_paused_past_its_lease_writes_nothing_after(cluster_nodes: Any) -> None:
    cluster_nodes.start(2)
    ports = cluster_nodes.ports
    table_id, tokens = _two_player_table(ports[0], seed=92)
    # Both players through node 2 (relayed to node 1, the owner); a third connection
    # straight to node 1 for seat 0 sends a move while node 1 is paused.
    players = [Player([ports[1]], table_id, tokens[0]), Player([ports[1]], table_id, tokens[1])]
    players[0].ws.send(json.dumps({"type": "start", "id": "s"}))
    for player in players:
        player.until(lambda m: m["type"] == "snapshot")
    play_round(players, 6)
    mover = next(player for player in players if player.view and player.view["legal_actions"])
    stale = Player([ports[0]], table_id, tokens[players.index(mover)])
    legal = stale.wait_turn()["legal_actions"]
    assert len(legal) >= 2

    owner = cluster_nodes.processes[0]
    os.kill(owner.pid, signal.SIGSTOP)
    try:
        # Sent to the paused node: it reads it only when it wakes up.
        stale.ws.send(json.dumps({"type": "act", "id": "stale", "action": legal[-1]}))
        for player in players:
            try:
                player.until(lambda m: False, timeout=LEASE * 4)
            except DisconnectedError:
                player.connect()
        # Node 2 owns the table now; the game goes on there with a different move.
        assert mover.view is not None and mover.view["legal_actions"]
        seq = mover.move(first_move := legal[0])
        for player in players:
            sync(player, seq)
        play_round(players, 4)
    finally:
        os.kill(owner.pid, signal.SIGCONT)
    # Woken up, node 1 refuses the move it had been sent (its lease is gone) ...
    answer = _answer(stale, "stale")
    assert answer is None or (answer["type"], answer["code"]) == ("error", "moved"), answer
    time.sleep(LEASE)
    # ... and the log holds node 2's moves only.
    stored = _check_log(cluster_nodes, table_id, players)
    assert all(seq not in stale.acked for seq, _, _ in stored)
    assert all(stored[seq - 1][2].get(k) == v for k, v in first_move.items())
    for player in [*players, stale]:
        player.close()


def _answer(player: Player, request_id: str) -> dict[str, Any] | None:
    """The answer to a request, or ``None`` if the connection closed without one."""
    try:
        return player.until(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == request_id, timeout=15
        )
    except DisconnectedError:
        return None


def test_a_node_stopping_gracefully_hands_its_tables_on(cluster_nodes: Any) -> None:
    cluster_nodes.start(2)
    ports = cluster_nodes.ports
    attended, tokens = _two_player_table(ports[0], seed=93)
    _two_player_table(ports[0], seed=94)  # nobody connects to this one
    player = Player([ports[1], ports[1]], attended, tokens[0])  # relayed to node 1
    stopping = cluster_nodes.processes[0]
    stopping.send_signal(signal.SIGTERM)
    stopping.wait(timeout=20)
    # The attended table's lease was given up: the player is back at once, on node 2.
    started = time.monotonic()
    try:
        player.until(lambda m: False, timeout=LEASE * 4)
    except DisconnectedError:
        player.connect()
    assert time.monotonic() - started < LEASE
    # The other one is taken over when its lease runs out.
    deadline = time.monotonic() + LEASE * 4
    while cluster_nodes.health(1)["cluster"]["taken_over"] < 1:
        assert time.monotonic() < deadline, "the unattended table was not taken over"
        time.sleep(0.2)
    assert cluster_nodes.health(1)["tables"] == 2
    player.close()
