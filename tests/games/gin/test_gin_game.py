"""The terminal Gin game driven by scripted input (issue: terminal game)."""

from __future__ import annotations

import pytest

from rummykit.bots import RandomBot
from rummykit.cards import format_card
from rummykit.games.gin import GinAction
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.terminal import GinTerminalGame


def as_command(action: GinAction) -> str:
    """The words a person would type for an engine action."""
    if action.kind == "take_upcard" or action.kind == "draw_discard":
        return "take"
    if action.kind == "draw_stock":
        return "draw"
    if action.kind in ("discard", "knock"):
        return f"{action.kind} {format_card(action.card or 0)}"
    if action.kind == "big_gin":
        return "gin"
    if action.kind == "lay_off":
        return "show"
    return action.kind


def test_invalid_input_gets_a_reason_and_a_new_prompt() -> None:
    out: list[str] = []
    lines = iter(["frobnicate", "discard", "discard ZZ", "sort sideways", "help", "quit"])
    game = GinTerminalGame(
        RandomBot(1), seed=11, input_fn=lambda prompt: next(lines), output_fn=out.append
    )
    game.run()
    text = "\n".join(out)
    assert "unknown command 'frobnicate'" in text
    assert "name one card" in text
    assert "bad card token 'ZZ' at position 1" in text
    assert "sort rank" in text
    assert "discard 7H" in text  # the help text
    assert "You left the game." in text


def test_illegal_move_is_explained_and_the_state_is_kept() -> None:
    out: list[str] = []
    # Seed 11 deals seat 0 as the non-dealer or dealer; either way an upcard offer or a
    # draw comes first, and a discard there is illegal.
    lines = iter(["discard AS", "quit"])
    game = GinTerminalGame(
        RandomBot(1), seed=11, input_fn=lambda prompt: next(lines), output_fn=out.append
    )
    before = game.match.hand.clone()
    game.run()
    assert any("Not allowed: seat 0 cannot discard AS now" in line for line in out)
    assert game.match.hand.hands == before.hands
    assert game.match.hand.discard_pile == before.discard_pile


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_match_through_typed_commands(seed: int) -> None:
    """A scripted player types every move (chosen by a heuristic) until the match ends."""
    out: list[str] = []
    advisor = GinHeuristicBot()
    game: GinTerminalGame

    def read(prompt: str) -> str:
        match = game.match
        action = advisor.act(match.observation(0), match.legal_actions())
        return as_command(action)

    game = GinTerminalGame(GinHeuristicBot(), seed=seed, input_fn=read, output_fn=out.append)
    match = game.run()
    assert match.is_over
    text = "\n".join(out)
    assert "Match over. Score sheet:" in text
    assert "game bonus" in text and "line bonus" in text and "total" in text
    result = match.result
    assert result is not None
    assert f"{result.totals[0]:>7} {result.totals[1]:>7}" in text
    # Every scored hand was revealed with its reason and points.
    scored = [r for r in match.results if r.winner is not None]
    assert text.count("score(s)") == len(scored)
    assert any(w in text for w in ("knocked", "went GIN", "went BIG GIN"))
