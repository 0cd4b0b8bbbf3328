"""The terminal games' ``rules`` command: the game's rules page, a section or a rule."""

from __future__ import annotations

from collections.abc import Iterable

from toy import AddsOne, Toy, ToyScreen
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.terminal import TerminalSession


def session_output(lines: Iterable[str], game_name: str | None) -> tuple[Toy, list[str]]:
    typed = [*lines, "quit"]
    game = Toy()
    out: list[str] = []
    TerminalSession(
        game,
        ToyScreen(game),
        {1: AddsOne()},
        read=lambda prompt: typed.pop(0),
        say=out.append,
        game_name=game_name,
    ).run()
    return game, out


def test_rules_shows_a_rule_a_section_or_the_page_and_plays_nothing() -> None:
    game, out = session_output(["rules 3.5", "rules gin-4", "rules"], "gin")
    assert game.count == 0 and game.results == []
    rule, section, whole = out[-4:-1]
    assert rule.startswith("**§gin-3.5 The card you took from the pile.**")
    assert section.startswith("## 4. Knocking, gin and big gin") and "§gin-4.4" in section
    assert whole.startswith("# Gin Rummy: the rules rummykit plays") and "## 9." in whole


def test_a_preset_name_opens_its_games_rules() -> None:
    _, out = session_output(["rules 4.5"], "rami40")
    assert out[-2].startswith("**§rami-4.5 Opening.**")


def test_an_unknown_section_says_what_there_is_and_asks_again() -> None:
    _, out = session_output(["rules 42", "rules 3.9"], "gin")
    # Said by the screen (the toy's adds the code), in its language.
    said = "  no section gin-42 on the gin page; its sections are gin-1 to gin-9 (unknown_rule)"
    assert said in out
    assert any(
        line.startswith("  no rule gin-3.9 on the gin page; section gin-3 has") for line in out
    )


def test_help_lists_rules_only_for_a_game_with_a_page() -> None:
    _, with_page = session_output(["help"], "carousel")
    _, without = session_output(["help", "rules"], None)
    assert "\n  rules [3.2] this game's rules: all, a section" in with_page[-2]
    assert "rules" not in without[-3]
    assert without[-2] == "  This game has no rules page."


def test_the_rules_command_in_a_real_game_from_the_command_line() -> None:
    result = CliRunner().invoke(
        app, ["play", "gin", "--seed", "3"], input="rules 3.2\nhelp\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "§gin-3.2 The upcard offer." in result.output
    assert "rules [3.2]" in result.output and "You left the game." in result.output
