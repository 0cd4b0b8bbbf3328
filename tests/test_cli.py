"""The command line: ``rummykit play`` takes any registered bot, ``python -m rummykit`` works."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.sim.registry import available_bots

runner = CliRunner()


@pytest.mark.parametrize(
    ("variant", "extra", "prompt"),
    [
        ("gin", [], "Your hand (10)"),
        ("rami51", ["--players", "3"], "(51 needed to open)"),
        ("carousel", ["--players", "3"], "draws this turn"),
    ],
)
def test_play_accepts_every_registered_bot(variant: str, extra: list[str], prompt: str) -> None:
    # The built-in levels (other tests may leave bots of their own registered meanwhile).
    names = ("random", "heuristic", "easy", "medium", "hard", "expert")
    assert set(names) <= set(available_bots(variant))
    for name in names:
        result = runner.invoke(
            app, ["play", variant, "--bot", name, "--seed", "4", *extra], input="quit\n"
        )
        assert result.exit_code == 0, (name, result.output)
        assert prompt in result.output and "You left the game." in result.output


def test_play_names_the_choices_for_an_unknown_bot() -> None:
    result = runner.invoke(app, ["play", "gin", "--bot", "nosuch"], input="quit\n")
    assert result.exit_code == 2
    assert "unknown gin bot 'nosuch'" in result.output and "heuristic" in result.output


def test_python_dash_m_runs_the_command_line() -> None:
    for module in ("rummykit", "rummykit.cli"):
        done = subprocess.run(
            [sys.executable, "-m", module, "play", "gin", "--seed", "1"],
            input="quit\n",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Your hand (10)" in done.stdout
