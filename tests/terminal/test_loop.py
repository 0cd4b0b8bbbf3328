"""The terminal loop, written once: driven here by a toy game and scripted lines."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from toy import AddsOne, Toy, ToyScreen

from rummykit.terminal import TerminalSession, prompt_for
from rummykit.terminal.loop import help_text


class Typed:
    """Typed lines in order, then ``quit``; remembers every prompt."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "quit"


def run(lines: Iterable[str]) -> tuple[Toy, list[str], Typed]:
    game = Toy()
    typed = Typed(lines)
    out: list[str] = []
    TerminalSession(game, ToyScreen(game), {1: AddsOne()}, read=typed, say=out.append).run()
    return game, out, typed


def test_a_refused_command_gets_its_reason_and_the_same_prompt_again() -> None:
    game, out, typed = run(["add 7", "frob", "", "add 2"])
    assert "  Not allowed: seat 0 cannot add 7 (too_much)" in out
    assert "  unknown command 'frob'" in out
    # Four prompts for the first turn (the blank line too), then the next turn's.
    assert typed.prompts[:5] == ["add? > "] * 5
    assert out[out.index("  unknown command 'frob'") + 1] == "Bot 1 adds 1."
    assert game.count == 3


def test_a_command_of_several_actions_is_played_whole_or_not_at_all() -> None:
    game, out, _ = run(["both", "quit"])
    # The toy's second action is refused (after the first, in a trial copy).
    assert "  Not allowed: seat 1 cannot add 9 (too_much)" in out
    assert (game.count, game.current_player) == (0, 0)


def test_replies_help_and_hint_play_nothing() -> None:
    game, out, typed = run(["look", "hint", "help", "?"])
    text = "\n".join(out)
    assert "  the count is 0" in out and "  add 2" in out
    assert text.count("  help       this text") == 2
    assert "  quit       leave the game (end of input does too)" in text
    assert (game.count, len(typed.prompts)) == (0, 5)


@pytest.mark.parametrize("how", ["quit", "exit", "EXIT", "eof", "interrupt"])
def test_quit_end_of_input_and_interrupt_leave_the_game(how: str) -> None:
    def read(prompt: str) -> str:
        if how == "eof":
            raise EOFError
        if how == "interrupt":
            raise KeyboardInterrupt
        return how

    game = Toy()
    out: list[str] = []
    session = TerminalSession(game, ToyScreen(game), {1: AddsOne()}, read=read, say=out.append)
    assert session.run() is game
    assert out[-1] == "You left the game." and not game.is_over


def test_hands_are_revealed_and_the_game_ends_with_the_score_sheet() -> None:
    game, out, _ = run(["add 2", "add 2", "add 1", "add 1"])
    assert game.is_over
    assert out[:3] == ["Toy to 5. Type 'help' for the commands.", "", "=== Hand 1 ==="]
    assert out.count("You take the hand.") == 1 and out.count("Bot 1 takes the hand.") == 1
    assert out.count("=== Hand 2 ===") == 1 and "=== Hand 3 ===" not in out
    assert out[-5:] == [
        "Bot 1 takes the hand.",
        "",
        "Game over. Score sheet:",
        "hand 1: seat 0\nhand 2: seat 1",
        "You and Bot 1 share the win!",
    ]


@pytest.mark.parametrize(
    ("winners", "sentence"),
    [
        ((), "The game is a tie."),
        ((0,), "You win the game!"),
        ((2,), "Bot 2 wins the game."),
        ((2, 0), "You and Bot 2 share the win!"),
        ((1, 2), "Bot 1 and Bot 2 share the win."),
        ((1, 2, 3), "Bot 1, Bot 2 and Bot 3 share the win."),
    ],
)
def test_the_winners_sentence_agrees_with_its_subject(
    winners: tuple[int, ...], sentence: str
) -> None:
    game = Toy()
    session = TerminalSession(game, ToyScreen(game), {})
    assert session._winners_sentence(winners) == sentence


def test_prompts_and_help_columns() -> None:
    assert prompt_for(["draw", "take", "draw"]) == "draw or take? > "
    assert (
        help_text("Commands:\n  x    y").splitlines()[-1]
        == "  quit leave the game (end of input does too)"
    )
