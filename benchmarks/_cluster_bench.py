"""The cluster mode of ``bench_server.py`` (``--nodes N``): several ``rummykit serve``
nodes on one PostgreSQL database and one Redis, on this machine's loopback.

Three measurements, each on fresh nodes and a fresh database schema:

1. **paced over N nodes**: ``--clients`` tables (e.g. 1000), each player moving about
   once a second (``--think-ms``, default 1000 here), tables created round-robin on
   the nodes and players spread at random over them (so most are relayed): the ack
   latency percentiles;
2. **full speed, N nodes against one**: the closed loop of ``bench_server.py`` with
   ``--full-speed-clients`` players, first on one plain server on the same database
   engine, then on N cluster nodes: moves per second of each and their ratio;
3. **takeover**: tables created on every node, their players all on the nodes that
   survive; node 1 is killed (``kill -9``) and each of its tables' players, relayed,
   is disconnected, reconnects and plays on: the time from the kill to the first
   acknowledged move on each of node 1's tables (the lease is ``--lease-seconds``).

Figures are information, never pass/fail; the machine's load average is printed with
them, since the nodes, PostgreSQL, Redis and this client all share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_server import (
    create_table,
    free_port,
    fresh_database,
    load_average,
    percentile,
    report,
    run,
    start_server,
    stop_server,
)

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets import connect  # type: ignore[no-redef,attr-defined]


LOGS: list[Path] = []


def start_nodes(count: int, database: str, redis_url: str, lease: float) -> list[Any]:
    nodes = []
    for _ in range(count):
        port = free_port()
        log = Path(tempfile.gettempdir()) / f"rummykit-bench-node-{port}.log"
        LOGS.append(log)
        process = start_server(
            port, database, "--redis-url", redis_url, "--lease-seconds", str(lease), log=log
        )
        nodes.append((port, process))
    return nodes


def _warnings(since: int) -> str:
    """What the nodes started since ``since`` logged (lease losses, ended relays)."""
    lines = [
        line
        for log in LOGS[since:]
        for line in log.read_text(errors="replace").splitlines()
        if " " in line and not line.startswith(("rummykit table server", "INFO"))
    ]
    logs = ", ".join(str(log) for log in LOGS[since:])
    return f"   node log lines: {len(lines)} (in {logs})"


def _bases(nodes: list[Any]) -> list[str]:
    return [f"http://127.0.0.1:{port}" for port, _ in nodes]


def paced(args: argparse.Namespace, folder: Path) -> None:
    since = len(LOGS)
    with fresh_database(args, folder, 100) as database:
        nodes = start_nodes(args.nodes, database, args.redis_url, args.lease_seconds)
        try:
            totals = asyncio.run(
                run(args, _bases(nodes), [p.pid for _, p in nodes], args.paced_think_ms)
            )
        finally:
            for _, process in nodes:
                stop_server(process)
    print(f"-- paced, {args.nodes} nodes:")
    report(args, totals)
    print(_warnings(since))


def full_speed(args: argparse.Namespace, folder: Path) -> None:
    clients, args.clients = args.clients, args.full_speed_clients
    rates = []
    try:
        for count in (1, args.nodes):
            with fresh_database(args, folder, 200 + count) as database:
                if count == 1:  # the single server as it runs without a cluster
                    port = free_port()
                    nodes = [(port, start_server(port, database))]
                else:
                    nodes = start_nodes(count, database, args.redis_url, args.lease_seconds)
                try:
                    totals = asyncio.run(run(args, _bases(nodes), [p.pid for _, p in nodes], 0))
                finally:
                    for _, process in nodes:
                        stop_server(process)
            print(f"-- full speed, {count} node(s){' (no cluster)' if count == 1 else ''}:")
            report(args, totals)
            rates.append(len(totals.ack) / (totals.elapsed or args.duration))
    finally:
        args.clients = clients
    print(f"-- full speed: {args.nodes} nodes / 1 node = {rates[1] / max(rates[0], 1e-9):.2f}x")


async def _takeover_player(
    ws_url: str, table: tuple[str, str], state: dict[str, Any], victim: bool, seed: int
) -> None:
    """Plays its table at about a move a second; reconnects whenever its connection
    closes; records, for a table of the killed node, the first ack after the kill."""
    table_id, token = table
    rng = random.Random(seed)
    while not state["stop"]:
        try:
            async with connect(f"{ws_url}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
                await ws.send(json.dumps({"type": "start", "id": "start"}))
                pending = False
                sent_at = 0.0
                while not state["stop"]:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                    killed = state["killed_at"]
                    if message["type"] == "ack" and message.get("id") == "move":
                        pending = False
                        # Only a move sent after the kill counts (an ack relayed just
                        # after it may be the dead node's last).
                        if victim and killed is not None and sent_at > killed:
                            state["first"].setdefault(table_id, time.perf_counter() - killed)
                    view = message.get("view")
                    if not view or view["is_over"] or not view["legal_actions"] or pending:
                        continue
                    if not (victim and killed is not None and table_id not in state["first"]):
                        await asyncio.sleep(rng.uniform(0.5, 1.5))  # after the kill: at once
                    pending = True
                    sent_at = time.perf_counter()
                    action = rng.choice(view["legal_actions"])
                    await ws.send(json.dumps({"type": "act", "id": "move", "action": action}))
        except Exception:  # closed by a dying node or a relay that ended: reconnect
            await asyncio.sleep(0.2)


async def _takeover_run(args: argparse.Namespace, nodes: list[Any]) -> dict[str, Any]:
    bases = _bases(nodes)
    loop = asyncio.get_running_loop()
    count = args.takeover_tables
    tables = await asyncio.gather(
        *(
            loop.run_in_executor(None, create_table, bases[i % len(bases)], args.bot)
            for i in range(count)
        )
    )
    state: dict[str, Any] = {"stop": False, "killed_at": None, "first": {}}
    survivors = ["ws" + base[len("http") :] for base in bases[1:]]
    tasks = [
        asyncio.ensure_future(
            _takeover_player(survivors[i % len(survivors)], table, state, i % len(bases) == 0, i)
        )
        for i, table in enumerate(tables)
    ]
    await asyncio.sleep(5)
    victims = sum(1 for i in range(count) if i % len(bases) == 0)
    state["killed_at"] = time.perf_counter()
    os.kill(nodes[0][1].pid, signal.SIGKILL)
    deadline = time.perf_counter() + 60
    while len(state["first"]) < victims and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    state["stop"] = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"victims": victims, "first": list(state["first"].values())}


def takeover(args: argparse.Namespace, folder: Path) -> None:
    with fresh_database(args, folder, 300) as database:
        nodes = start_nodes(args.nodes, database, args.redis_url, args.lease_seconds)
        try:
            load = load_average()
            result = asyncio.run(_takeover_run(args, nodes))
        finally:
            for _, process in nodes[1:]:
                stop_server(process)
            nodes[0][1].wait(timeout=10)
    first = result["first"]
    print(
        f"-- takeover after kill -9 of node 1 (lease {args.lease_seconds:g} s, "
        f"{args.takeover_tables} tables over {args.nodes} nodes, load average {load:.2f}):"
    )
    if not first:
        print(f"   none of node 1's {result['victims']} tables played again within 60 s")
        return
    print(
        f"   {len(first)}/{result['victims']} of node 1's tables played on; kill -> first ack: "
        f"first {min(first):.2f} s, p50 {percentile(first, 0.5):.2f} s, "
        f"p99 {percentile(first, 0.99):.2f} s, max {max(first):.2f} s",
        flush=True,
    )


def cluster_main(args: argparse.Namespace) -> None:
    if not args.database_url or not args.database_url.startswith("postgresql"):
        raise SystemExit("--nodes needs a PostgreSQL --database-url (on this machine)")
    args.paced_think_ms = 1000.0 if args.think_ms == "0" else float(args.think_ms)
    parts = {"paced": paced, "full": full_speed, "takeover": takeover}
    chosen = [part.strip() for part in str(args.parts).split(",")]
    if not set(chosen) <= set(parts):
        raise SystemExit(f"--parts takes some of {', '.join(parts)}")
    with tempfile.TemporaryDirectory() as folder:
        for part in chosen:
            parts[part](args, Path(folder))
