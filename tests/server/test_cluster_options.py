"""The cluster's options of ``rummykit serve``: listed in its help, with the defaults of
the server's configuration, and refused without a PostgreSQL database."""

from __future__ import annotations

import inspect

from typer.testing import CliRunner

from rummykit.cli import app, serve
from rummykit.server import ServerConfig

runner = CliRunner()


def test_the_cluster_options_default_to_a_single_server() -> None:
    parameters = inspect.signature(serve).parameters
    defaults = ServerConfig()
    assert parameters["redis_url"].default is None and defaults.redis_url is None
    assert parameters["lease_seconds"].default == defaults.lease_seconds


def test_serve_help_explains_the_cluster_options() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in ("--redis-url", "--lease-seconds", "RUMMYKIT_REDIS_URL", "Cluster"):
        assert text in result.output


def test_a_cluster_needs_postgresql() -> None:
    result = runner.invoke(
        app, ["serve", "--redis-url", "redis://127.0.0.1:6379/0", "--database-url", "sqlite://"]
    )
    assert result.exit_code == 2
    assert "PostgreSQL" in result.output
