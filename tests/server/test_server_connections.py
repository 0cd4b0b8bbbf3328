"""Connections to a real ``rummykit serve`` on loopback: request heads and bodies have
deadlines and bounds, so slow or oversized clients cannot hold the server's memory or
its connections. Raw sockets, bounded in count and time; no timing is asserted, only
what the server did (closed, refused) before the client gave up."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import free_port, server_process


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """A server with short deadlines: its port and process id."""
    folder: Path = tmp_path_factory.mktemp("connections")
    port = free_port()
    with server_process(
        f"sqlite:///{folder / 'tables.db'}",
        port,
        folder / "server.log",
        "--header-timeout",
        "1",
        "--body-timeout",
        "1",
        "--keep-alive-timeout",
        "1",
    ) as process:
        yield port, process.pid


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setblocking(True)
    return sock


def receive(sock: socket.socket, wait: float) -> bytes | None:
    """The next bytes from the server within ``wait``: ``b""`` once it has closed (or
    reset) the connection, ``None`` when nothing came in time."""
    ready, _, _ = select.select([sock], [], [], wait)
    if not ready:
        return None
    try:
        return sock.recv(65536)
    except (ConnectionResetError, OSError):
        return b""


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """True if the server closed the connection (or answered and closed) within ``wait``."""
    while True:
        data = receive(sock, wait)
        if data is None:
            return False
        if not data:
            return True


def read_answer(sock: socket.socket, wait: float) -> bytes:
    """The server's whole answer: its head and the ``content-length`` bytes after it (a
    loaded machine may send the body in a later packet than the head), or what came
    before the server closed or ``wait`` passed."""
    answer = b""
    while True:
        head, sep, body = answer.partition(b"\r\n\r\n")
        if sep:
            length = next(
                (
                    int(line.split(b":", 1)[1])
                    for line in head.lower().split(b"\r\n")
                    if line.startswith(b"content-length:")
                ),
                0,
            )
            if len(body) >= length:
                return answer
        data = receive(sock, wait)
        if not data:
            return answer
        answer += data


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_slow_loris_headers_are_cut_off(server: tuple[int, int]) -> None:
    port, _ = server
    socks = [connect(port) for _ in range(5)]
    try:
        for sock in socks:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        closed = set()
        for number in range(40):  # a header line every 0.25 s: 10 s at most
            for index, sock in enumerate(socks):
                if index in closed:
                    continue
                try:
                    sock.sendall(f"X-Slow-{number}: 1\r\n".encode())
                except OSError:
                    closed.add(index)
                    continue
                if closed_by_server(sock, 0.0):
                    closed.add(index)
            if len(closed) == len(socks):
                break
            time.sleep(0.25)
        assert len(closed) == len(socks), "a slow request head kept its connection"
    finally:
        for sock in socks:
            sock.close()


def test_a_silent_connection_is_closed(server: tuple[int, int]) -> None:
    port, _ = server
    with connect(port) as sock:
        assert closed_by_server(sock, 15)


def test_a_huge_request_head_is_refused(server: tuple[int, int]) -> None:
    port, _ = server
    with connect(port) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        line = b"X-Pad: " + b"a" * 8000 + b"\r\n"
        refused = False
        for _ in range(64):  # 512 KB at most
            try:
                sock.sendall(line)
            except OSError:
                refused = True
                break
            if closed_by_server(sock, 0.0):
                refused = True
                break
        assert refused or closed_by_server(sock, 5)


def test_a_declared_huge_body_is_refused_before_it_is_sent(server: tuple[int, int]) -> None:
    port, _ = server
    with connect(port) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n"
        )
        answer = read_answer(sock, 10)
        assert answer, "no answer without the body"
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"code":"body_too_large"' in answer.replace(b" ", b"")
        assert b"connection: close" in answer.lower()


def test_a_streamed_body_is_cut_off_at_the_limit(server: tuple[int, int]) -> None:
    port, pid = server
    before = rss_kib(pid)
    with connect(port) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
        sent = 0
        answered = False
        while sent < 64 * 2**20:  # 64 MB at most
            ready, _, _ = select.select([sock], [], [], 0)
            if ready:
                answered = True
                break
            try:
                sock.sendall(chunk)
            except OSError:
                answered = True
                break
            sent += len(chunk)
        assert answered, "the server read 64 MB of a body over its limit"
        assert sent < 16 * 2**20
    assert rss_kib(pid) - before < 16 * 1024


def test_a_trickled_body_is_refused(server: tuple[int, int]) -> None:
    port, _ = server
    with connect(port) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = read_answer(sock, 15)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


def test_the_server_still_answers(server: tuple[int, int]) -> None:
    port, _ = server
    with connect(port) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        ready, _, _ = select.select([sock], [], [], 10)
        assert ready and sock.recv(65536).startswith(b"HTTP/1.1 200")
