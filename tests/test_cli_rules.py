"""``rummykit rules``: the packaged rules pages printed in the terminal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rummykit.cli import app

runner = CliRunner()


def test_alone_it_lists_the_games_with_their_presets() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["gin", "rami", "carousel"]
    assert "rami40" in lines[1] and "Gin Rummy" in lines[0]


def test_a_whole_page() -> None:
    result = runner.invoke(app, ["rules", "carousel"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Carousel: the rules rummykit plays")
    assert "**§carousel-3.8 " in result.output and "## 8. Refusal codes" in result.output
    # Not a terminal: the markdown without anchors or link targets.
    assert "<a id=" not in result.output and "](#" not in result.output


@pytest.mark.parametrize("asked", ["gin-3.2", "3.2"])
def test_one_rule(asked: str) -> None:
    result = runner.invoke(app, ["rules", "gin", asked])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("**§gin-3.2 The upcard offer.**")
    assert "§gin-3.3" not in result.output


def test_a_section_of_a_presets_game() -> None:
    result = runner.invoke(app, ["rules", "rami40", "4"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("## 4. A turn")
    assert "**§rami-4.5 Opening.**" in result.output and "## 5." not in result.output


def test_on_a_terminal_rich_renders_the_markdown() -> None:
    result = runner.invoke(app, ["rules", "gin", "3.2"], env={"FORCE_COLOR": "1", "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "\x1b[" in result.output and "**" not in result.output
    assert "§gin-3.2 The upcard offer." in result.output


def test_no_color_keeps_the_layout_without_colour() -> None:
    env = {"FORCE_COLOR": "1", "NO_COLOR": "1", "COLUMNS": "80"}
    result = runner.invoke(app, ["rules", "gin", "8"], env=env)
    assert result.exit_code == 0, result.output
    assert "\x1b[3" not in result.output  # no foreground colour
    assert "knock_limit" in result.output and "|---|" not in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["rules", "poker"], "no rules page for 'poker'"),
        (["rules", "gin", "12"], "no section gin-12"),
        (["rules", "gin", "3.9"], "no rule gin-3.9"),
    ],
)
def test_unknown_games_and_sections_are_usage_errors(args: list[str], says: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert says in " ".join(result.output.replace("│", " ").split())


def test_the_pages_in_another_language() -> None:
    result = runner.invoke(app, ["rules", "gin", "3.1", "--lang", "hi"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("**§gin-3.1 खेल का क्रम।**")
    refused = runner.invoke(app, ["rules", "gin", "--lang", "xx"])
    assert refused.exit_code == 2 and "the pages are in en, hi" in refused.output
