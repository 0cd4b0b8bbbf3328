"""Abuse benchmark of the table server: what hostile or careless clients can make it do.

Everything goes to loopback only, to servers this script starts itself (``rummykit
serve`` on a free 127.0.0.1 port, each with a fresh SQLite file in a temporary
folder), and every loop is bounded in count and time. It prints:

1. **Huge bodies**: the server's memory (RSS of its process) before and after a client
   declares a 300 MB ``POST /api/tables`` body and streams it, and after a chunked
   (``Transfer-Encoding``) body streamed until the server stops it: bytes sent before
   the refusal, the answer, the growth.
2. **Replays under load**: a long finished Rami game (random bots through the engine,
   stored through the store: thousands of moves), its replay's first build and its size
   plain and gzipped; then ``/api/health`` latency p50/p90/p99 while clients loop on
   that replay (this server lifts the read rate, so what is measured is the replay
   path itself, not the rate limit that would refuse most of those requests).
3. **Quotas**: table creations from one client as fast as it can for a few seconds
   (how many were created, how many refused with which code).
4. **Restart**: the time from starting a server over 10,000 stored tables (finished,
   playing and waiting, inserted through the store) to its first ``/api/health``
   answer, and its memory a few seconds later.
5. **Malformed input**: a list of malformed requests and messages (REST and websocket)
   and the answer to each: the count of 500s and of connections closed without an
   ``error`` must be 0.
6. **Slow clients**: connections sending a header line every few seconds, and how many
   the server has closed when the script gives up on them.

Figures are printed, never judged: a shared machine's timings vary.

Run (from the repository root, with the ``server`` and ``server-test`` extras)::

    .venv/bin/python benchmarks/bench_abuse.py
    .venv/bin/python benchmarks/bench_abuse.py --quick
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from rummykit.server.live_table import hash_token
from rummykit.server.store import ActionRow, Store, TableRow
from rummykit.server.variants import get_adapter

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextlib.contextmanager
def server(database: Path, *extra: str) -> Iterator[tuple[int, subprocess.Popen[bytes], float]]:
    """``rummykit serve`` on a free loopback port: (port, process, seconds to answer)."""
    port = free_port()
    command = [
        sys.executable,
        "-c",
        "from rummykit.cli import main; main()",
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{database}",
        "--allow-seed",
        "--log-level",
        "error",
        *extra,
    ]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            if process.poll() is not None:
                raise SystemExit("the server did not start")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/api/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() - started > 60:
                    raise SystemExit("the server did not answer within 60 s") from None
                time.sleep(0.02)
        yield port, process, time.monotonic() - started
    finally:
        process.kill()
        process.wait(timeout=10)


def request(
    port: int, method: str, path: str, body: bytes | None = None, **headers: str
) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


# -- 1. huge bodies ---------------------------------------------------------------------


def huge_bodies(port: int, pid: int) -> None:
    print("\n1. Huge request bodies (POST /api/tables)")
    for label, head in (
        ("Content-Length: 300 MB", b"Content-Length: 300000000\r\n"),
        ("chunked, 300 MB", b"Transfer-Encoding: chunked\r\n"),
    ):
        before = rss_mb(pid)
        sent, answer = stream_body(port, head, chunked=b"chunked" in head)
        after = rss_mb(pid)
        print(
            f"   {label:24} sent {sent / 2**20:7.2f} MB before the answer "
            f"{answer!r:34} RSS {before:6.1f} -> {after:6.1f} MB ({after - before:+.1f})"
        )


def stream_body(port: int, head: bytes, *, chunked: bool) -> tuple[int, str]:
    """Send a 300 MB body until the server answers or closes; bytes sent, status line."""
    total = 300_000_000
    block = b"x" * 0x10000
    piece = (b"10000\r\n" + block + b"\r\n") if chunked else block
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: bench\r\n" + head + b"\r\n")
        sent = 0
        deadline = time.monotonic() + 60
        while sent < total and time.monotonic() < deadline:
            ready, _, _ = select.select([sock], [], [], 0)
            if ready:
                break
            try:
                sock.sendall(piece)
            except OSError:
                break
            sent += len(piece)
        try:
            sock.settimeout(5)
            status = sock.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
        except OSError as error:
            status = f"({type(error).__name__})"
    return sent, status


# -- 2. replays under load ---------------------------------------------------------------


def long_rami_game(
    seats: int, rounds: int, seed: int
) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    """A finished Rami game played by random bots through the table game."""
    host = get_adapter("rami")
    rules = host.make_rules("rami51", {"end_mode": "rounds", "rounds": rounds})
    game = host.new_game(rules, seats=seats, seed=seed)
    bots = [host.make_bot("random", rules, seed=seed + i, players=seats) for i in range(seats)]
    actions = []
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        applied = game.apply(seat, game.bot_action(seat, bots[seat]))
        actions.append((seat, applied.action))
    return rules, actions


def store_game(
    store: Store,
    table_id: str,
    variant: str,
    rules: dict[str, Any],
    seed: int,
    actions: list[tuple[int, Any]],
    *,
    status: str,
    seats: int,
    when: float,
) -> None:
    seat_rows = [
        {"kind": "human", "name": "Ann", "token_hash": hash_token(table_id * 3), "joined": True}
    ]
    seat_rows += [
        {"kind": "bot", "name": f"Bot {i}", "level": "random", "joined": True}
        for i in range(1, seats)
    ]
    row = TableRow(
        id=table_id,
        variant=variant,
        preset=variant if variant == "gin" else "rami51",
        rules=rules,
        seed=seed,
        seats=seat_rows,
        status="waiting" if not actions else "playing",
        created_at=when,
        updated_at=when,
    )
    operations: list[Any] = [store.insert_table(row)]
    for number, (seat, action) in enumerate(actions, start=1):
        last = number == len(actions)
        operations.append(
            store.append_action(
                table_id,
                ActionRow(number, seat, action, "bot", when),
                status=status if last and status == "finished" else None,
            )
        )
    store.run_batch(operations)


def replays_under_load(folder: Path, clients: int, seconds: float) -> None:
    print("\n2. Replays under load")
    database = folder / "replay.db"
    store = Store(f"sqlite:///{database}")
    store.create_schema()
    started = time.monotonic()
    rules, actions = long_rami_game(seats=4, rounds=32, seed=17)
    store_game(
        store, "longgame", "rami", rules, 17, actions, status="finished", seats=4, when=time.time()
    )
    store.dispose()
    print(
        f"   a Rami game of {len(actions)} moves played and stored in "
        f"{time.monotonic() - started:.1f} s"
    )
    with server(database, "--read-rate", "0") as (port, _process, _):
        path = "/api/games/longgame/replay"
        first = time.monotonic()
        status, zipped, headers = request(port, "GET", path, **{"Accept-Encoding": "gzip"})
        built = time.monotonic() - first
        status2, plain, _ = request(port, "GET", path)
        print(
            f"   first replay (built in a worker thread): {built:.2f} s, "
            f"status {status}/{status2}, "
            f"{len(plain) / 2**20:.1f} MB plain, {len(zipped) / 2**20:.2f} MB gzipped "
            f"({headers.get('content-encoding')})"
        )
        again = time.monotonic()
        request(port, "GET", path, **{"Accept-Encoding": "gzip"})
        print(f"   second replay (cached): {1000 * (time.monotonic() - again):.1f} ms")
        stop = threading.Event()
        fetched = Counter[int]()

        def loop() -> None:
            while not stop.is_set():
                code, _, _ = request(port, "GET", path, **{"Accept-Encoding": "gzip"})
                fetched[code] += 1

        threads = [threading.Thread(target=loop, daemon=True) for _ in range(clients)]
        for thread in threads:
            thread.start()
        latencies = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            begin = time.perf_counter()
            request(port, "GET", "/api/health")
            latencies.append(1000 * (time.perf_counter() - begin))
            time.sleep(0.02)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        cuts = statistics.quantiles(latencies, n=100)
        print(
            f"   /api/health while {clients} clients loop on the replay for {seconds:g} s: "
            f"p50 {cuts[49]:.1f} ms, p90 {cuts[89]:.1f} ms, p99 {cuts[98]:.1f} ms "
            f"({len(latencies)} probes; replays fetched: {dict(fetched)})"
        )


# -- 3. quotas -------------------------------------------------------------------------------


def quotas(port: int, seconds: float, title: str) -> None:
    print(f"\n3. Table creation from one client, {title}")
    body = json.dumps({"variant": "gin"}).encode()
    answers = Counter[str]()
    deadline = time.monotonic() + seconds
    attempts = 0
    while time.monotonic() < deadline and attempts < 3000:
        attempts += 1
        status, data, _headers = request(
            port, "POST", "/api/tables", body, **{"Content-Type": "application/json"}
        )
        code = "created" if status == 201 else json.loads(data)["code"]
        answers[f"{status} {code}"] += 1
    print(f"   {attempts} attempts in {seconds:g} s: {dict(answers)}")


# -- 4. restart ------------------------------------------------------------------------------


def restart(folder: Path, count: int) -> None:
    print(f"\n4. Restart over {count} stored tables")
    database = folder / "restart.db"
    store = Store(f"sqlite:///{database}")
    store.create_schema()
    host = get_adapter("gin")
    rules = host.make_rules("gin", {})
    game = host.new_game(rules, seats=2, seed=5)
    bots = [host.make_bot("random", rules, seed=i, players=2) for i in range(2)]
    played: list[tuple[int, Any]] = []
    while len(played) < 40 and not game.is_over:
        seat = game.current_seat
        assert seat is not None
        played.append((seat, game.apply(seat, game.bot_action(seat, bots[seat])).action))
    now = time.time()
    begin = time.monotonic()
    kinds = Counter[str]()
    for number in range(count):
        kind = "finished" if number % 10 < 7 else "playing" if number % 10 < 9 else "waiting"
        kinds[kind] += 1
        actions = [] if kind == "waiting" else played
        store_game(
            store,
            f"t{number:06d}",
            "gin",
            rules,
            5,
            actions,
            status=kind,
            seats=2,
            when=now - number,
        )
    store.dispose()
    print(
        f"   stored {dict(kinds)} ({len(played)} moves each when started) in "
        f"{time.monotonic() - begin:.1f} s"
    )
    with server(folder / "empty.db") as (_, _, empty):
        pass
    with server(database) as (port, process, took):
        print(
            f"   first /api/health answer {took:.2f} s after starting the process "
            f"(over an empty database: {empty:.2f} s)"
        )
        time.sleep(5)
        _, data, _ = request(port, "GET", "/api/health")
        print(
            f"   5 s later: {json.loads(data)['tables']} tables in memory (resumed in the "
            f"background), RSS {rss_mb(process.pid):.0f} MB"
        )
        status, _, _ = request(port, "GET", "/api/tables/t000003")
        print(f"   an old table read on demand: status {status}")


# -- 5. malformed input ------------------------------------------------------------------------


DEEP = "[" * 4000 + "]" * 4000


def malformed(port: int) -> None:
    print("\n5. Malformed input")
    created = json.loads(
        request(
            port,
            "POST",
            "/api/tables",
            json.dumps(
                {"variant": "gin", "seed": 4, "seats": [{"kind": "human"}, {"kind": "human"}]}
            ).encode(),
            **{"Content-Type": "application/json"},
        )[1]
    )
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    for header in auth:
        request(port, "POST", f"/api/tables/{table_id}/join", **header)
    started = json.loads(request(port, "POST", f"/api/tables/{table_id}/start", **auth[0])[1])
    mover = started["view"]["current_player"]
    actions: list[Any] = [
        {"kind": ["x"]},
        {"kind": {"a": 1}},
        {"kind": None},
        {"kind": 3.5},
        {"kind": "lay_off", "melds": [[1, 2]], "layoffs": [[None, -5]]},
        {"kind": "lay_off", "melds": 7},
        {"kind": "lay_off", "layoffs": [["7H", 10**30]]},
        {"kind": "knock", "card": ["9S"]},
        {"kind": "knock", "card": "9S", "melds": [{"x": 1}]},
        {"kind": "discard", "card": 12},
        {"kind": "discard", "card": "QQ"},
        {"kind": "discard"},
        {"kind": "big_gin", "melds": "7H"},
        "pass",
        [1, 2],
        None,
        5,
    ]
    answers = Counter[str]()
    failures = 0
    rest: list[tuple[str, str, bytes]] = [
        ("POST", "/api/tables", DEEP.encode()),
        ("POST", "/api/tables", b'{"variant": ' + b"[" * 100 + b"]" * 100 + b"}"),
        ("POST", "/api/tables", b"{not json"),
        ("POST", "/api/tables", b'"a string"'),
        ("POST", "/api/tables", json.dumps({"variant": ["gin"]}).encode()),
        (
            "POST",
            "/api/tables",
            json.dumps({"seats": [{"kind": "human", "name": {"x": 1}}]}).encode(),
        ),
        ("POST", "/api/tables", json.dumps({"options": {"target": [1]}}).encode()),
        ("DELETE", "/api/tables", b""),
        ("GET", "/api/nothing", b""),
        ("GET", "/api/tables?limit=-1", b""),
        ("GET", "/api/games/" + "x" * 40 + "/replay", b""),
    ]
    for seat in (mover, 1 - mover):
        for action in actions:
            rest.append(
                (
                    "POST",
                    f"/api/tables/{table_id}/actions",
                    json.dumps({"action": action}).encode() + b"#" + str(seat).encode(),
                )
            )
    for method, path, body in rest:
        headers: dict[str, str] = {"Content-Type": "application/json"}
        if b"#" in body:
            body, seat_text = body.rsplit(b"#", 1)
            headers.update(auth[int(seat_text)])
        status, data, _ = request(port, method, path, body or None, **headers)
        try:
            code = json.loads(data)["code"]
        except (ValueError, KeyError, TypeError):
            code = "(not the JSON envelope)"
            failures += 1
        failures += status >= 500
        answers[f"REST {status} {code}"] += 1
    silent = 0
    messages: list[str] = [
        DEEP,
        '{"type": "check", "action": ' + "[" * 40 + "]" * 40 + "}",
        "{oops",
        "[1]",
        '{"type": 5}',
        '{"type": "cheat"}',
        '{"type": "act", "action": "pass"}',
        '{"type": "act", "seat": [0], "action": {}}',
    ]
    for seat in (mover, 1 - mover):
        for kind in ("check", "act"):
            messages += [json.dumps({"type": kind, "action": action}) for action in actions]
        with connect(f"ws://{HOST}:{port}/ws/tables/{table_id}", max_size=2**24) as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "token": tokens[seat]}))
            json.loads(ws.recv(timeout=10))
            for text in messages:
                time.sleep(0.06)  # under the websocket rate limit (20 a second)
                ws.send(text)
                try:
                    while True:
                        reply = json.loads(ws.recv(timeout=10))
                        if reply["type"] in ("error", "checked", "ack"):
                            break
                except Exception:
                    silent += 1
                    break
                code = reply.get("code", reply["type"])
                failures += code == "internal_error"
                answers[f"websocket {code}"] += 1
        messages = messages[:8]
    tried = sum(answers.values())
    print(
        f"   {tried} malformed inputs tried; 500s or non-envelope answers: {failures}; "
        f"connections closed without an error: {silent}"
    )
    for answer, number in sorted(answers.items()):
        print(f"     {number:4d} x {answer}")


# -- 6. slow clients ---------------------------------------------------------------------------


def slow_clients(port: int, count: int, interval: float, seconds: float) -> None:
    print(f"\n6. Slow clients: {count} connections, a header line every {interval:g} s")
    socks = []
    for _ in range(count):
        sock = socket.create_connection((HOST, port), timeout=5)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: bench\r\n")
        socks.append(sock)
    closed_at: dict[int, float] = {}
    begin = time.monotonic()
    number = 0
    while time.monotonic() - begin < seconds and len(closed_at) < count:
        for index, sock in enumerate(socks):
            if index in closed_at:
                continue
            try:
                ready, _, _ = select.select([sock], [], [], 0)
                if ready and not sock.recv(4096):
                    raise ConnectionError
                sock.sendall(f"X-Slow-{number}: 1\r\n".encode())
            except OSError:
                closed_at[index] = time.monotonic() - begin
        number += 1
        time.sleep(interval)
    for sock in socks:
        sock.close()
    times = sorted(closed_at.values())
    last = f", the last after {times[-1]:.1f} s" if times else ""
    print(f"   closed by the server: {len(closed_at)} of {count} within {seconds:g} s{last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer tables")
    args = parser.parse_args()
    print(f"bench_abuse on {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        with server(folder / "main.db") as (port, process, _):
            huge_bodies(port, process.pid)
            malformed(port)
            quotas(port, 3 if args.quick else 8, "default limits")
        with server(folder / "quota.db", "--create-rate", "0") as (port, _, _):
            quotas(port, 3, "create rate lifted (the waiting-table quota alone)")
            slow_clients(port, 20, 2.0, 20 if args.quick else 30)
        replays_under_load(folder, clients=3, seconds=5 if args.quick else 20)
        restart(folder, 2000 if args.quick else 10_000)


if __name__ == "__main__":
    main()
