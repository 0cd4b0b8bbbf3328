"""Load benchmark of the table server: N websocket players, each at its own Gin table
against a bot, playing random legal moves as fast as the server answers.

It starts ``rummykit serve`` as a subprocess on a free loopback port with a fresh SQLite
file (or uses ``--url`` of a server already running on this machine), creates the tables
over REST, connects every player over a websocket, and measures, for every action, the
time from sending it to receiving its acknowledgement (which the server sends only after
the action is committed to the database). It prints actions per second and the p50,
p90, p99 and maximum latencies. Figures are information, never pass/fail.

Everything is bounded: ``--clients`` connections (default 200), ``--duration`` seconds
of play (default 30), at most ``--max-actions`` actions per player, loopback only.

Run (from the repository root, with the ``server`` and ``server-test`` extras)::

    .venv/bin/python benchmarks/bench_server.py                    # 200 players, 30 s
    .venv/bin/python benchmarks/bench_server.py --clients 50 --duration 10
    .venv/bin/python benchmarks/bench_server.py --think-ms 500     # people-like pace
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets import connect  # type: ignore[no-redef,attr-defined]


@dataclass
class Totals:
    """What all players measured."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    updates: int = 0
    connected: int = 0
    elapsed: float = 0.0
    server_cpu: float | None = None
    """Seconds of CPU the server process used during play (Linux, own server only)."""
    bot_actions: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, database: Path, *extra: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-c",
        "from rummykit.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{database}",
        "--bot-delay",
        "0",
        "--rate-limit",
        "1000",
        "--log-level",
        "warning",
        *extra,
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise SystemExit(f"the server did not start: {process.stderr.read().decode()}")  # type: ignore[union-attr]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("the server did not answer within 30 s") from None
            time.sleep(0.1)


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of a process, from /proc (None elsewhere)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def create_table(base: str, level: str) -> tuple[str, str]:
    body = {"variant": "gin", "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]}
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data = json.loads(response.read())
    return data["table"]["id"], data["invites"][0]["token"]


async def player(
    index: int,
    ws_base: str,
    table: tuple[str, str],
    totals: Totals,
    *,
    clock: dict[str, float],
    max_actions: int,
    think: float,
    started: asyncio.Event,
) -> None:
    table_id, token = table
    rng = random.Random(index)
    async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        await ws.send(json.dumps({"type": "start", "id": "start"}))
        totals.connected += 1
        await started.wait()
        view: dict[str, Any] | None = None
        pending: tuple[str, float] | None = None
        sent = 0
        while time.monotonic() < clock["stop"] and sent < max_actions:
            timeout = max(0.05, clock["stop"] - time.monotonic())
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind in ("snapshot", "update", "welcome"):
                totals.updates += 1
                if message.get("view"):
                    view = message["view"]
            elif kind == "ack" and pending is not None and message.get("id") == pending[0]:
                totals.latencies.append(time.perf_counter() - pending[1])
                pending = None
            elif kind == "error":
                totals.errors[message["code"]] = totals.errors.get(message["code"], 0) + 1
                if pending is not None and message.get("id") == pending[0]:
                    pending = None
            if view is not None and view["is_over"]:
                totals.finished += 1
                break
            if pending is None and view is not None and view["legal_actions"]:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                request_id = f"{index}-{sent}"
                action = rng.choice(view["legal_actions"])
                view = None  # wait for the update this action causes
                pending = (request_id, time.perf_counter())
                await ws.send(json.dumps({"type": "act", "id": request_id, "action": action}))
                sent += 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(args: argparse.Namespace, base: str, server_pid: int | None) -> Totals:
    ws_base = "ws" + base[len("http") :]
    loop = asyncio.get_running_loop()
    print(f"creating {args.clients} tables ...", file=sys.stderr)
    tables = await asyncio.gather(
        *(loop.run_in_executor(None, create_table, base, args.bot) for _ in range(args.clients))
    )
    totals = Totals()
    started = asyncio.Event()
    clock = {"stop": float("inf")}
    tasks = [
        asyncio.ensure_future(
            player(
                index,
                ws_base,
                table,
                totals,
                clock=clock,
                max_actions=args.max_actions,
                think=args.think_ms / 1000,
                started=started,
            )
        )
        for index, table in enumerate(tables)
    ]
    deadline = time.monotonic() + 60
    while totals.connected < args.clients and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(f"{totals.connected} players connected; playing {args.duration:g} s ...", file=sys.stderr)
    begin = time.monotonic()
    cpu_before = cpu_seconds(server_pid)
    clock["stop"] = begin + args.duration
    started.set()
    _done, late = await asyncio.wait(tasks, timeout=args.duration + 10)
    for task in late:
        task.cancel()
    totals.elapsed = time.monotonic() - begin
    cpu_after = cpu_seconds(server_pid)
    if cpu_before is not None and cpu_after is not None:
        totals.server_cpu = cpu_after - cpu_before
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="players (tables)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    parser.add_argument("--max-actions", type=int, default=10_000, help="per player")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before a move")
    parser.add_argument("--bot", default="random", help="the bots' level (random, heuristic)")
    parser.add_argument("--url", help="a server already running on this machine (loopback)")
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="start the server with --no-ws-compression (no permessage-deflate)",
    )
    args = parser.parse_args()
    if args.clients < 1 or args.clients > 2000 or args.duration > 600:
        parser.error("at most 2000 clients and 600 s")
    process = None
    with tempfile.TemporaryDirectory() as folder:
        if args.url:
            host = urlparse(args.url).hostname or ""
            if not (host == "localhost" or host.startswith("127.") or host == "::1"):
                parser.error("--url must be a loopback address")
            base = args.url.rstrip("/")
        else:
            port = free_port()
            extra = ("--no-ws-compression",) if args.no_compression else ()
            process = start_server(port, Path(folder) / "bench.db", *extra)
            base = f"http://127.0.0.1:{port}"
        try:
            totals = asyncio.run(run(args, base, None if process is None else process.pid))
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
    report(args, totals)


def report(args: argparse.Namespace, totals: Totals) -> None:
    elapsed = totals.elapsed or args.duration
    latencies = [1000 * value for value in totals.latencies]
    count = len(latencies)
    print(f"server: rummykit serve (SQLite, bot delay 0), {os.cpu_count()} CPU(s), loopback")
    print(f"players (tables) connected      {totals.connected} of {args.clients}")
    print(f"play time                       {elapsed:.1f} s")
    print(f"player actions acknowledged     {count}  ({count / elapsed:.0f} actions/s)")
    print(f"updates received                {totals.updates}  ({totals.updates / elapsed:.0f}/s)")
    print(f"matches finished                {totals.finished}")
    if count:
        print(
            "latency action -> ack (ms)      "
            f"p50 {percentile(latencies, 0.50):.1f}  p90 {percentile(latencies, 0.90):.1f}  "
            f"p99 {percentile(latencies, 0.99):.1f}  max {max(latencies):.1f}  "
            f"mean {statistics.fmean(latencies):.1f}"
        )
    if totals.server_cpu is not None:
        print(
            f"server CPU                      {totals.server_cpu:.1f} s "
            f"({100 * totals.server_cpu / elapsed:.0f}% of one core); "
            f"{1000 * totals.server_cpu / max(1, count):.2f} ms per player action "
            "(each one answered by a bot move)"
        )
    print(f"errors                          {totals.errors or 'none'}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine load average (1 min)    {load:.2f}")


if __name__ == "__main__":
    main()
