"""Fixtures for the table server tests: databases, app clients, websocket helpers.

Persistence tests run on SQLite always and on PostgreSQL too when
``RUMMYKIT_TEST_DATABASE_URL`` is set; each PostgreSQL test gets its own schema,
dropped afterwards, so runs never collide.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'server' extra")
pytest.importorskip("sqlalchemy", reason="the server tests need the 'server' extra")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from rummykit.server import ServerConfig, create_app

POSTGRES_URL = os.environ.get("RUMMYKIT_TEST_DATABASE_URL")

BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


@contextmanager
def postgres_schema_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped on exit."""
    assert POSTGRES_URL is not None
    schema = f"rk_test_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_URL)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
    else:
        with postgres_schema_url() as url:
            yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file (for tests that are not about the database)."""
    return f"sqlite:///{tmp_path / 'tables.db'}"


def config(url: str, **changes: Any) -> ServerConfig:
    """A test configuration: no bot delay, chosen seeds allowed, rate limits no
    scripted player reaches (the rate limit tests set their own)."""
    values: dict[str, Any] = {
        "database_url": url,
        "bot_delay": 0.0,
        "allow_seed": True,
        "rate_per_second": 1000.0,
        "rate_burst": 1000,
        "create_rate": 0.0,
        "act_rate": 0.0,
        "read_rate": 0.0,
    }
    values.update(changes)
    return ServerConfig(**values)


@pytest.fixture
def make_client(sqlite_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start app clients (lifespan running); all are closed after the test."""
    clients: list[TestClient] = []

    def start(url: str | None = None, **changes: Any) -> TestClient:
        client = TestClient(create_app(config(url or sqlite_url, **changes)))
        client.__enter__()
        clients.append(client)
        return client

    yield start
    for client in reversed(clients):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """One app client on a fresh SQLite database."""
    return make_client()


@pytest.fixture
def cluster_nodes(tmp_path: Path) -> Iterator[Any]:
    """An empty cluster on a fresh PostgreSQL schema and the tests' Redis (nodes are
    started by the test); skipped, saying why, without either."""
    from cluster_helpers import cluster, postgres_required

    postgres_required()
    with postgres_schema_url() as url, cluster(url, tmp_path) as nodes:
        yield nodes


@pytest.fixture(scope="module")
def base_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """For a browser test module: a table server of its own, on SQLite, for the whole
    module (its bots a little slow, so animations show); its base URL."""
    from browser_helpers import serving

    with serving(tmp_path_factory.mktemp(request.module.__name__)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """For a browser test module: Debian's Chromium under Playwright, shared by its tests."""
    from browser_helpers import chromium

    with chromium() as launched:
        yield launched
