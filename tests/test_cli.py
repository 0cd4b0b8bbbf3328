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


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["gin", "-o", "knock_limit=7", "--target", "50"], "Gin Rummy to 50"),
        (["gin", "--knock-limit", "3", "--big-gin-bonus", "0", "--ace-high"], "Gin Rummy to 100"),
        (["carousel", "--target", "80", "-o", "max-draws=2"], "Carousel to 80"),
        (["rami40-house", "--players", "2", "-o", "unopened_penalty=flat:100"], "opening 40"),
        (["rami51", "-o", "end_mode=rounds", "-o", "rounds=3"], "rami51: opening 51, 4 players"),
    ],
)
def test_play_takes_every_rule_option(args: list[str], shown: str) -> None:
    result = runner.invoke(app, ["play", *args, "--seed", "2"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert shown in result.output and "You left the game." in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gin", "-o", "nosuch=1"], "unknown option 'nosuch'"),
        (["gin", "-o", "knock_limit=ten"], "knock_limit takes a whole number, not 'ten'"),
        (["gin", "-o", "knock_limit"], "write an option as NAME=VALUE"),
        (["carousel", "-o", "decks=9"], "decks must be"),
        (["rami51", "--target", "200"], "--target is not an option of this game"),
        (["rami51", "--players", "7"], "rami is for 2-6 players"),
        (["carousel", "--players", "6"], "carousel is for 2-5 players"),
        (["poker"], "unknown variant 'poker'"),
    ],
)
def test_play_explains_a_bad_option(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args], input="quit\n")
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())
