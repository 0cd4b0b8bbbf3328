"""Quotas and limits: per-client rates, waiting tables, connection caps, the hello
deadline, expiry, tables leaving memory, a lazy start-up, renames after the end,
invite links, security headers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from conftest import config
from fastapi.testclient import TestClient
from server_helpers import create_table, hello, play_to_the_end, start
from starlette.websockets import WebSocketDisconnect

from rummykit.server import create_app
from rummykit.server.store import ActionRow, Store, TableRow


def wait_for(predicate: Callable[[], bool], limit: float = 20.0) -> None:
    """Poll until ``predicate`` holds (bounded; the sweep runs in the background)."""
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


def test_creating_tables_is_rate_limited_per_client(make_client: Any) -> None:
    client = make_client(create_rate=0.01, create_burst=3)
    for _ in range(3):
        create_table(client)
    reply = client.post("/api/tables", json={"variant": "gin"})
    assert reply.status_code == 429
    assert reply.json()["code"] == "rate_limited" and "tables created" in reply.json()["message"]
    assert int(reply.headers["Retry-After"]) >= 1
    # Another address has its own bucket.
    other = TestClient(client.app, client=("10.0.0.2", 1234))
    assert other.post("/api/tables", json={"variant": "gin"}).status_code == 201


def test_rest_actions_and_reads_are_rate_limited(make_client: Any) -> None:
    client = make_client(act_rate=0.01, act_burst=2, read_rate=0.01, read_burst=4)
    table_id, (token,) = create_table(client)
    auth = {"Authorization": f"Bearer {token}"}
    codes = [client.post(f"/api/tables/{table_id}/join", headers=auth).status_code for _ in "abc"]
    assert codes == [200, 200, 429]
    codes = [client.get("/api/health").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]
    # Pages and static files are not counted.
    assert client.get("/").status_code == 200


def test_waiting_tables_per_client_and_in_total(make_client: Any) -> None:
    client = make_client(max_waiting_tables_per_client=2, max_waiting_tables=3)
    create_table(client)
    create_table(client)
    reply = client.post("/api/tables", json={"variant": "gin"})
    assert reply.status_code == 429 and reply.json()["code"] == "too_many_tables"
    second = TestClient(client.app, client=("10.0.0.3", 1))
    assert second.post("/api/tables", json={"variant": "gin"}).status_code == 201
    third = TestClient(client.app, client=("10.0.0.4", 1))
    reply = third.post("/api/tables", json={"variant": "gin"})
    assert reply.status_code == 429 and "the server has 3" in reply.json()["message"]


def test_websockets_are_capped_per_table_and_per_client(make_client: Any) -> None:
    client = make_client(max_connections_per_table=2, max_connections_per_client=3)
    table_id, _ = create_table(client)
    other_id, _ = create_table(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as first,
        client.websocket_connect(f"/ws/tables/{table_id}") as _second,
    ):
        hello(first)
        with client.websocket_connect(f"/ws/tables/{table_id}") as third:
            refused = third.receive_json()
            assert refused["code"] == "too_many_connections" and "table" in refused["message"]
            with pytest.raises(WebSocketDisconnect):
                third.receive_json()
        with client.websocket_connect(f"/ws/tables/{other_id}") as fine:
            hello(fine)
            with client.websocket_connect(f"/ws/tables/{other_id}") as fourth:
                refused = fourth.receive_json()
                assert refused["code"] == "too_many_connections"
                assert "one address" in refused["message"]
    # Closed connections are counted no more.
    with client.websocket_connect(f"/ws/tables/{table_id}") as again:
        assert hello(again)["type"] == "welcome"


def test_pings_do_not_extend_the_hello_deadline(make_client: Any) -> None:
    client = make_client(hello_timeout=0.6)
    table_id, _ = create_table(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        pytest.raises(WebSocketDisconnect),
    ):
        for number in range(100):  # 20 s at most
            ws.send_json({"type": "ping", "id": number})
            message = ws.receive_json()
            if message["type"] == "error":
                assert message["code"] == "hello_required"
            time.sleep(0.2)


def test_idle_waiting_tables_expire(make_client: Any) -> None:
    client = make_client(waiting_table_ttl=0.2)
    table_id, _ = create_table(client)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    wait_for(lambda: table_id not in manager.tables)
    assert client.get(f"/api/tables/{table_id}").status_code == 404
    assert manager.store.load(table_id) is None


def test_finished_tables_leave_memory_and_come_back_on_demand(make_client: Any) -> None:
    client = make_client(finished_table_seconds=0.1)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table_id, (token,) = create_table(client, seed=8, options={"target": 1})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        play_to_the_end(ws, start(ws)["view"])
    wait_for(lambda: table_id not in manager.tables)
    snapshot = client.get(f"/api/tables/{table_id}").json()
    assert snapshot["table"]["status"] == "finished"
    wait_for(lambda: table_id not in manager.tables)


def test_idle_started_tables_leave_memory(make_client: Any) -> None:
    client = make_client(idle_table_seconds=0.1)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table_id, (token,) = create_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        seq = start(ws)["seq"]
    wait_for(lambda: table_id not in manager.tables)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert hello(ws, token)["seq"] >= seq


def _stored_table(table_id: str, *, status: str, updated_at: float) -> TableRow:
    return TableRow(
        id=table_id,
        variant="gin",
        preset="gin",
        rules=_gin_rules(),
        seed=5,
        seats=[
            {"kind": "human", "name": "Ann", "token_hash": "0" * 64, "joined": True},
            {"kind": "bot", "name": "Bot", "level": "random", "joined": True},
        ],
        status=status,
        created_at=updated_at,
        updated_at=updated_at,
    )


def _gin_rules() -> dict[str, Any]:
    from rummykit.server.variants import get_adapter

    return get_adapter("gin").make_rules("gin", {})


def test_start_up_resumes_only_recent_tables(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.create_schema()
    now = time.time()
    rows = [
        _stored_table("recent", status="playing", updated_at=now),
        _stored_table("old", status="playing", updated_at=now - 86400),
        _stored_table("done", status="finished", updated_at=now),
    ]
    for row in rows:
        store.run_batch([store.insert_table(row)])
    store.run_batch(
        [store.append_action("old", ActionRow(1, 0, {"kind": "pass"}, "human", now - 86400))]
    )
    store.dispose()
    with TestClient(create_app(config(sqlite_url, resume_window=3600))) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        wait_for(lambda: manager.residency.resumed == 1)
        assert set(manager.tables) == {"recent"}
        assert client.get("/api/tables/old").json()["seq"] == 1  # loaded on demand
        assert "old" in manager.tables


def test_stale_waiting_tables_in_the_database_expire_at_start_up(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.create_schema()
    now = time.time()
    for table_id, updated in (("stale", now - 7200), ("fresh", now)):
        store.run_batch(
            [store.insert_table(_stored_table(table_id, status="waiting", updated_at=updated))]
        )
    store.dispose()
    with TestClient(create_app(config(sqlite_url, waiting_table_ttl=3600))) as client:
        assert client.get("/api/tables/stale").status_code == 404
        assert client.get("/api/tables/fresh").status_code == 200


def test_a_finished_game_keeps_its_names(client: TestClient) -> None:
    table_id, (token,) = create_table(client, seed=8, options={"target": 1})
    auth = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        play_to_the_end(ws, start(ws)["view"])
    reply = client.post(f"/api/tables/{table_id}/join", json={"name": "Mallory"}, headers=auth)
    assert reply.status_code == 409 and reply.json()["code"] == "game_over"
    # Joining again without a new name (or with the same one) is harmless.
    assert client.post(f"/api/tables/{table_id}/join", headers=auth).status_code == 200
    assert (
        client.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}, headers=auth).status_code
        == 200
    )
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert hello(ws, token, name="Mallory")["type"] == "welcome"
    names = [
        seat["name"]
        for seat in client.get(f"/api/games/{table_id}/replay").json()["table"]["seats"]
    ]
    games = client.get("/api/games").json()
    assert "Mallory" not in names and names[0] == "Ann"
    assert all(seat["name"] != "Mallory" for game in games for seat in game["seats"])


def test_invite_links_ignore_the_host_header(make_client: Any) -> None:
    client = make_client()
    reply = client.post("/api/tables", json={"variant": "gin"}, headers={"Host": "evil.example"})
    url = reply.json()["invites"][0]["url"]
    assert url.startswith("http://testserver/t/") and "evil" not in url
    public = make_client(public_url="https://rummy.example/")
    reply = public.post("/api/tables", json={"variant": "gin"}, headers={"Host": "evil.example"})
    assert reply.json()["invites"][0]["url"].startswith("https://rummy.example/t/")


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/", "/static/js/main.js", "/api/health", "/api/nothing"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy
        assert "script-src 'self'" in policy
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_replays_are_built_once_and_sent_compressed(client: TestClient) -> None:
    table_id, (token,) = create_table(client, seed=8, options={"target": 1})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        play_to_the_end(ws, start(ws)["view"])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    zipped = client.get(f"/api/games/{table_id}/replay", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    plain = client.get(f"/api/games/{table_id}/replay", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.json() == plain.json() and plain.json()["table"]["id"] == table_id
    assert manager.replays.builds == 1

    async def many() -> None:
        await asyncio.gather(*(manager.replays.compressed(table_id) for _ in range(5)))

    manager.replays.forget(table_id)
    client.portal.call(many)  # type: ignore[union-attr]
    assert manager.replays.builds == 2  # five requests at once: one build


def test_every_limit_is_a_serve_option_with_the_config_default() -> None:
    import dataclasses
    import inspect

    from rummykit.cli import serve
    from rummykit.serve_options import ServerLimits
    from rummykit.server import ServerConfig

    defaults = ServerConfig()
    parameters = inspect.signature(serve).parameters
    assert "limits" not in parameters
    for field in dataclasses.fields(ServerLimits):
        assert parameters[field.name].default == getattr(defaults, field.name), field.name
    assert parameters["replay_cache_mb"].default * 2**20 == defaults.replay_cache_bytes
    assert parameters["public_url"].default is None and defaults.public_url is None


def test_serve_passes_its_limit_options_to_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import rummykit.server
    from rummykit.cli import app

    made: list[Any] = []
    monkeypatch.setattr(rummykit.server, "create_app", made.append)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    options = ["--database-url", "sqlite://", "--create-burst", "3", "--hello-timeout", "2.5"]
    result = CliRunner().invoke(app, ["serve", *options])
    assert result.exit_code == 0, result.output
    [config] = made
    assert (config.create_burst, config.hello_timeout, config.act_burst) == (3, 2.5, 40)


def test_a_negative_limit_is_refused_on_the_command_line_and_in_code() -> None:
    """0 switches a limit off; below 0 is a mistake, said before the server starts."""
    from typer.testing import CliRunner

    from rummykit.cli import app
    from rummykit.errors import InvalidOptionError
    from rummykit.server import ServerConfig

    result = CliRunner().invoke(app, ["serve", "--database-url", "sqlite://", "--act-rate", "-1"])
    assert result.exit_code == 2 and "--act-rate" in result.output
    with pytest.raises(InvalidOptionError) as caught:
        ServerConfig(hello_timeout=-0.5)
    assert caught.value.option == "hello_timeout"
    assert ServerConfig(create_rate=0).create_rate == 0  # off


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--port", "70000"], "--port"),
        (["--log-level", "loud"], "--log-level"),
        (["--max-message-bytes", "0"], "--max-message-bytes"),
        (["--seat-timeout", "-3"], "--seat-timeout"),
        (["--bot-delay", "-1"], "--bot-delay"),
        (["--replay-cache-mb", "-1"], "--replay-cache-mb"),
        (["--rate-limit", "0"], "--rate-limit"),
    ],
)
def test_serve_refuses_impossible_settings_before_starting(
    options: list[str], named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from rummykit.cli import app

    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: started.append(kwargs))
    result = CliRunner().invoke(
        app, ["serve", "--database-url", "sqlite://", *options], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2, result.output
    assert named in result.output and not started


def test_serve_passes_its_log_level_to_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import rummykit.server
    from rummykit.cli import app

    started: list[Any] = []
    monkeypatch.setattr(rummykit.server, "create_app", lambda config: config)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: started.append(kwargs))
    options = ["serve", "--database-url", "sqlite://", "--log-level", "debug", "--port", "0"]
    result = CliRunner().invoke(app, options)
    assert result.exit_code == 0, result.output
    [kwargs] = started
    assert (kwargs["log_level"], kwargs["access_log"], kwargs["port"]) == ("debug", True, 0)
