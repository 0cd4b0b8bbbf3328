"""Load benchmark of the table server: N websocket players, each at its own Gin table
against a bot, playing random legal moves.

It starts ``rummykit serve`` as a subprocess on a free loopback port with a fresh
database (a SQLite file, or ``--database-url`` of a PostgreSQL on this machine), or uses
``--url`` of a server already running on this machine. It creates the tables over REST,
connects every player over a websocket and measures, for every move:

* **ack**: from sending the move to its ``ack``, which the server sends only after the
  move is committed to the database;
* **turn**: from sending the move to the ``update`` that gives the player the turn
  again, i.e. after the bot's reply has been committed and broadcast too (what a person
  waits for).

Two load models, because they answer different questions:

* ``--think-ms 0``, a **closed loop at full speed**: every player sends its next move
  the instant it has the turn. The server is saturated by construction, so this
  measures *throughput* (moves per second); its latency is mostly queueing behind the
  other players' moves (Little's law: latency ~ players / throughput) and says little
  about what a person would feel.
* ``--think-ms T`` (T > 0), a **paced load**: each player, like a person, thinks for a
  uniformly random 0.5 T to 1.5 T after getting the turn, then moves. The offered load
  is about ``clients / T`` moves per second, below what the server can do, so this
  measures *latency* at that many concurrent tables.

``--think-ms 0,1000`` runs both, each on a fresh server and database, and prints one
line per run with the machine's load average. The server runs with ``--bot-delay 0``
(bots answer at once, which is harder on it than the default 0.6 s). The benchmark
client is itself one Python process on the same machine: its CPU share is printed too,
because at full speed it competes with the server for the cores, and so is how late a
10 ms timer fires in it, which is the scheduling noise of a shared machine (the server
suffers it too). On Linux it also prints the CPU shares of PostgreSQL and Redis and how
many cores the whole machine kept busy: when that nears the core count, the machine, not
the server, is the limit. Figures are information, never pass/fail.

Everything is bounded: ``--clients`` connections (default 200, at most 2000),
``--duration`` seconds of measured play (default 20, at most 600) after ``--warmup``
seconds (default 3) that are not counted, at most ``--max-actions`` moves per player,
loopback only.

Run (from the repository root, with the ``server`` and ``server-test`` extras)::

    .venv/bin/python benchmarks/bench_server.py                       # 200 players, full speed
    .venv/bin/python benchmarks/bench_server.py --think-ms 0,500,1000,2000
    .venv/bin/python benchmarks/bench_server.py --clients 50 --duration 10 --repeat 3
    .venv/bin/python benchmarks/bench_server.py \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets import connect  # type: ignore[no-redef,attr-defined]

LOOPBACK = ("localhost", "::1")


@dataclass
class Totals:
    """What all players measured during one run (only the measured window counts)."""

    think_ms: float
    ack: list[float] = field(default_factory=list)
    turn: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    updates: int = 0
    connected: int = 0
    elapsed: float = 0.0
    server_cpu: float | None = None
    """Seconds of CPU the server process used in the measured window (own server)."""
    client_cpu: float = 0.0
    """Seconds of CPU this benchmark process used in the measured window."""
    load_before: float = 0.0
    load_after: float = 0.0
    lateness: list[float] = field(default_factory=list)
    """How late a 10 ms timer in this (client) process fired: the machine's own noise."""
    services_cpu: dict[str, float] = field(default_factory=dict)
    """Seconds of CPU the database and Redis processes of this machine used in the
    measured window (Linux; empty elsewhere)."""
    machine_cpu: float | None = None
    """Seconds of CPU the whole machine spent busy in the measured window (Linux)."""


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def load_average() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def start_server(
    port: int, database_url: str, *extra: str, log: Path | None = None
) -> subprocess.Popen[bytes]:
    """``rummykit serve`` from the rummykit this interpreter imports (PYTHONPATH is
    passed on, so a source tree on it is what gets measured); its messages go to
    ``log`` if given (a pipe nobody reads would stop a server that logs much)."""
    command = [
        sys.executable,
        "-c",
        "from rummykit.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--database-url",
        database_url,
        "--bot-delay",
        "0",
        "--rate-limit",
        "1000",
        # Every player connects from this one address: lift the per-client limits.
        *("--create-rate", "0", "--act-rate", "0", "--read-rate", "0"),
        *("--max-waiting-tables-per-client", "0", "--max-waiting-tables", "0"),
        *("--max-connections-per-client", "0", "--max-connections-per-table", "0"),
        "--log-level",
        "warning",
        *extra,
    ]
    if log is None:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    else:
        with log.open("ab") as output:
            process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            said = log.read_text() if log else process.stderr.read().decode()  # type: ignore[union-attr]
            raise SystemExit(f"the server did not start: {said}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("the server did not answer within 30 s") from None
            time.sleep(0.1)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of a process, from /proc (None elsewhere)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVICES = {"postgres": "PostgreSQL", "redis-server": "Redis"}


def services_cpu() -> dict[str, float]:
    """CPU seconds used so far by this machine's PostgreSQL and Redis processes, by
    service, from /proc (empty elsewhere). A backend that exits inside the window is
    missed: the figure is a lower bound."""
    totals: dict[str, float] = {}
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            name = SERVICES.get((folder / "comm").read_text().strip())
        except OSError:
            continue
        if name is not None:
            seconds = cpu_seconds(int(folder.name))
            if seconds is not None:
                totals[name] = totals.get(name, 0.0) + seconds
    return totals


def machine_busy() -> float | None:
    """CPU seconds the whole machine has spent busy since boot (Linux), all cores."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


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
    compression: bool,
    started: asyncio.Event,
) -> None:
    """One person at one table: wait for the turn, think, move; record the latencies
    of moves sent inside the measured window."""
    table_id, token = table
    rng = random.Random(index)
    async with connect(
        f"{ws_base}/ws/tables/{table_id}",
        max_size=2**22,
        compression="deflate" if compression else None,
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        await ws.send(json.dumps({"type": "start", "id": "start"}))
        totals.connected += 1
        await started.wait()
        view: dict[str, Any] | None = None
        pending: str | None = None
        sent_at = 0.0
        sent = 0
        acked = False
        # One deadline for the whole run (cheaper than a timeout per message, so the
        # client takes less CPU from the server it measures).
        with _ignore_timeout():
            async with asyncio.timeout_at(clock["stop_loop"]):
                while sent < max_actions:
                    message = json.loads(await ws.recv())
                    kind = message["type"]
                    now = time.perf_counter()
                    if kind in ("snapshot", "update", "welcome"):
                        totals.updates += 1
                        if message.get("view"):
                            view = message["view"]
                    elif kind == "ack" and pending is not None and message.get("id") == pending:
                        if clock["begin"] <= sent_at < clock["stop"]:
                            totals.ack.append(now - sent_at)
                        acked = True
                    elif kind == "error":
                        totals.errors[message["code"]] = totals.errors.get(message["code"], 0) + 1
                        if pending is not None and message.get("id") == pending:
                            pending = None
                    if view is not None and view["is_over"]:
                        totals.finished += 1
                        break
                    if view is None or not view["legal_actions"]:
                        continue
                    if pending is not None:
                        if not acked:
                            continue  # the view of our own move came before its ack
                        if clock["begin"] <= sent_at < clock["stop"]:
                            totals.turn.append(now - sent_at)
                        pending = None
                    if time.perf_counter() >= clock["stop"]:
                        break
                    if think > 0:
                        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                    action = rng.choice(view["legal_actions"])
                    view = None  # wait for the update this move causes
                    pending = f"{index}-{sent}"
                    acked = False
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "id": pending, "action": action}))
                    sent += 1


class _ignore_timeout:  # noqa: N801 (used as a context manager, like contextlib's)
    """Swallow the end-of-run timeout of :func:`asyncio.timeout_at`."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: object, trace: object) -> bool:
        return kind is TimeoutError


async def probe(totals: Totals, clock: dict[str, float]) -> None:
    """Sleep 10 ms again and again and record how late each wake-up is. On a shared
    machine the operating system's scheduling alone delays processes by this much;
    the server, another process on the same cores, is delayed likewise."""
    while time.perf_counter() < clock["stop"]:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        late = time.perf_counter() - before - 0.01
        if clock["begin"] <= before < clock["stop"]:
            totals.lateness.append(max(0.0, late))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _cpu_total(pids: list[int]) -> float | None:
    values = [cpu_seconds(pid) for pid in pids]
    return None if not values or None in values else sum(v for v in values if v is not None)


async def run(
    args: argparse.Namespace,
    base: str | list[str],
    server_pid: int | list[int] | None,
    think_ms: float,
) -> Totals:
    """One measured run. With several servers (a cluster's nodes), table ``i`` is created
    on node ``i mod N`` and its player connects to a node drawn at random (as an ordinary
    load balancer would spread them): about ``1 - 1/N`` of the players are relayed."""
    bases = [base] if isinstance(base, str) else base
    pids = [] if server_pid is None else [server_pid] if isinstance(server_pid, int) else server_pid
    loop = asyncio.get_running_loop()
    print(f"creating {args.clients} tables ...", file=sys.stderr)
    tables = await asyncio.gather(
        *(
            loop.run_in_executor(None, create_table, bases[index % len(bases)], args.bot)
            for index in range(args.clients)
        )
    )
    spread = random.Random(1)
    ws_bases = ["ws" + bases[spread.randrange(len(bases))][len("http") :] for _ in tables]
    totals = Totals(think_ms=think_ms)
    started = asyncio.Event()
    never = time.perf_counter() + 1e9
    clock = {"begin": never, "stop": never, "stop_loop": loop.time() + 1e9}
    tasks = [
        asyncio.ensure_future(
            player(
                index,
                ws_bases[index],
                table,
                totals,
                clock=clock,
                max_actions=args.max_actions,
                think=think_ms / 1000,
                compression=not args.no_compression,
                started=started,
            )
        )
        for index, table in enumerate(tables)
    ]
    deadline = time.monotonic() + 60
    while totals.connected < args.clients and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(
        f"{totals.connected} players connected; think {think_ms:g} ms; "
        f"warm-up {args.warmup:g} s, then {args.duration:g} s measured ...",
        file=sys.stderr,
    )
    now = time.perf_counter()
    clock["begin"] = now + args.warmup
    clock["stop"] = clock["begin"] + args.duration
    # Players stop at the end of the window, or when the reply to a move sent inside it
    # has come (a few seconds of grace, so slow replies are counted, not dropped).
    clock["stop_loop"] = loop.time() + args.warmup + args.duration + 10 + 1.5 * think_ms / 1000
    started.set()
    prober = asyncio.ensure_future(probe(totals, clock))
    await asyncio.sleep(args.warmup)
    totals.load_before = load_average()
    cpu_before = _cpu_total(pids)
    client_before = own_cpu()
    services_before, machine_before = services_cpu(), machine_busy()
    await asyncio.sleep(args.duration)
    totals.elapsed = args.duration
    cpu_after = _cpu_total(pids)
    totals.client_cpu = own_cpu() - client_before
    services_after, machine_after = services_cpu(), machine_busy()
    totals.services_cpu = {
        name: seconds - services_before.get(name, 0.0) for name, seconds in services_after.items()
    }
    if machine_before is not None and machine_after is not None:
        totals.machine_cpu = machine_after - machine_before
    totals.load_after = load_average()
    if cpu_before is not None and cpu_after is not None:
        totals.server_cpu = cpu_after - cpu_before
    await prober
    _done, late = await asyncio.wait(tasks, timeout=15 + 1.5 * think_ms / 1000)
    for task in late:
        task.cancel()
    for task in _done:
        if not task.cancelled() and task.exception() is not None:
            error = type(task.exception()).__name__
            totals.errors[error] = totals.errors.get(error, 0) + 1
    return totals


@contextmanager
def fresh_database(args: argparse.Namespace, folder: Path, number: int) -> Iterator[str]:
    """A database of its own for one run: a new SQLite file, or for PostgreSQL a new
    schema, dropped afterwards (a server resumes every unfinished table it finds, so
    the tables of an earlier run would be measured too)."""
    if not args.database_url or args.database_url.startswith("sqlite"):
        yield f"sqlite:///{folder / f'bench-{number}.db'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"rk_bench_{secrets.token_hex(4)}"
    admin = create_engine(args.database_url)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(args.database_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()


def one_run(args: argparse.Namespace, think_ms: float, folder: Path, number: int) -> Totals:
    if args.url:
        return asyncio.run(run(args, args.url.rstrip("/"), None, think_ms))
    port = free_port()
    extra = ("--no-ws-compression",) if args.no_compression else ()
    with fresh_database(args, folder, number) as database:
        process = start_server(port, database, *extra)
        try:
            return asyncio.run(run(args, f"http://127.0.0.1:{port}", process.pid, think_ms))
        finally:
            stop_server(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="players (tables)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument("--max-actions", type=int, default=100_000, help="per player")
    parser.add_argument(
        "--think-ms",
        default="0",
        help="mean think time before a move; 0 is full speed; a list (0,1000) runs each",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per think time")
    parser.add_argument("--bot", default="random", help="the bots' level (random, heuristic)")
    parser.add_argument("--url", help="a server already running on this machine (loopback)")
    parser.add_argument(
        "--database-url",
        help="the server's database (default: a fresh SQLite file per run); a PostgreSQL "
        "URL on this machine gets a fresh schema per run, dropped afterwards",
    )
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="no permessage-deflate (server started with --no-ws-compression)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="cluster mode: start this many nodes (needs a PostgreSQL --database-url and "
        "Redis); measures paced acks over the nodes, full speed N nodes against 1, and "
        "a takeover after kill -9 (see benchmarks/_cluster_bench.py)",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0", help="cluster mode")
    parser.add_argument("--lease-seconds", type=float, default=5.0, help="cluster mode")
    parser.add_argument(
        "--full-speed-clients", type=int, default=200, help="cluster mode: closed-loop players"
    )
    parser.add_argument(
        "--takeover-tables", type=int, default=200, help="cluster mode: tables at the kill"
    )
    parser.add_argument(
        "--parts", default="paced,full,takeover", help="cluster mode: which measurements"
    )
    args = parser.parse_args()
    if args.nodes > 1:
        from _cluster_bench import cluster_main

        cluster_main(args)
        return
    try:
        thinks = [float(value) for value in str(args.think_ms).split(",")]
    except ValueError:
        parser.error("--think-ms takes numbers separated by commas")
    if not 1 <= args.clients <= 2000 or not 0 < args.duration <= 600 or not 0 <= args.warmup <= 60:
        parser.error("1-2000 clients, at most 600 s measured and 60 s of warm-up")
    if not 1 <= args.repeat <= 10 or any(not 0 <= think <= 10_000 for think in thinks):
        parser.error("1-10 repeats; think times of 0-10000 ms")
    if args.url and not is_loopback(urlparse(args.url).hostname or ""):
        parser.error("--url must be a loopback address")
    database_host = urlparse((args.database_url or "sqlite://").replace("+psycopg", "")).hostname
    if (
        args.database_url
        and not args.database_url.startswith("sqlite")
        and not is_loopback(database_host or "")
    ):
        parser.error("--database-url must be on this machine (loopback)")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for think in thinks:
            for _ in range(args.repeat):
                totals = one_run(args, think, Path(folder), len(results))
                results.append(totals)
                report(args, totals)
    summary(args, results)


def _ms(values: list[float], fraction: float) -> float:
    return 1000 * percentile(values, fraction)


def report(args: argparse.Namespace, totals: Totals) -> None:
    elapsed = totals.elapsed or args.duration
    count = len(totals.ack)
    model = "full speed (closed loop)" if totals.think_ms == 0 else f"think {totals.think_ms:g} ms"
    sqlite = not args.database_url or args.database_url.startswith("sqlite")
    database = "SQLite" if sqlite else "PostgreSQL"
    print(
        f"== {model}: {totals.connected}/{args.clients} tables, {elapsed:g} s measured, "
        f"{database}, compression {'off' if args.no_compression else 'on'}, "
        f"{os.cpu_count()} CPU(s), load average {totals.load_before:.2f} -> {totals.load_after:.2f}"
    )
    print(f"   player moves acknowledged   {count}  ({count / elapsed:.0f}/s)")
    print(f"   updates received            {totals.updates}")
    for name, values in (("ack ", totals.ack), ("turn", totals.turn)):
        if values:
            print(
                f"   {name} latency (ms)           p50 {_ms(values, 0.5):.1f}  "
                f"p90 {_ms(values, 0.9):.1f}  p99 {_ms(values, 0.99):.1f}  "
                f"max {1000 * max(values):.1f}"
            )
    if totals.server_cpu is not None:
        print(
            f"   server CPU                  {100 * totals.server_cpu / elapsed:.0f}% of one core, "
            f"{1000 * totals.server_cpu / max(1, count):.2f} ms per player move "
            "(and the bot's reply)"
        )
    print(f"   benchmark client CPU        {100 * totals.client_cpu / elapsed:.0f}% of one core")
    for name, seconds in sorted(totals.services_cpu.items()):
        print(f"   {name + ' CPU':<27} {100 * seconds / elapsed:.0f}% of one core")
    if totals.machine_cpu is not None:
        print(
            f"   whole machine busy          {totals.machine_cpu / elapsed:.2f} of "
            f"{os.cpu_count()} cores (everything above, and whatever else runs here)"
        )
    if totals.lateness:
        print(
            f"   10 ms timer lateness (ms)   p50 {_ms(totals.lateness, 0.5):.1f}  "
            f"p99 {_ms(totals.lateness, 0.99):.1f}  (in the client: scheduling noise, "
            "and at full speed the client's own load)"
        )
    print(f"   errors                      {totals.errors or 'none'}", flush=True)


def summary(args: argparse.Namespace, results: list[Totals]) -> None:
    print()
    print(
        "| load | moves/s | ack p50 | ack p99 | turn p99 | server CPU | client CPU "
        "| timer late p99 | load avg |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for totals in results:
        elapsed = totals.elapsed or args.duration
        model = "full speed" if totals.think_ms == 0 else f"think {totals.think_ms:g} ms"
        server = "-" if totals.server_cpu is None else f"{100 * totals.server_cpu / elapsed:.0f}%"
        print(
            f"| {model} | {len(totals.ack) / elapsed:.0f} | {_ms(totals.ack, 0.5):.1f} ms | "
            f"{_ms(totals.ack, 0.99):.1f} ms | {_ms(totals.turn, 0.99):.1f} ms | {server} | "
            f"{100 * totals.client_cpu / elapsed:.0f}% | {_ms(totals.lateness, 0.99):.1f} ms | "
            f"{totals.load_before:.2f}-{totals.load_after:.2f} |"
        )


if __name__ == "__main__":
    main()
