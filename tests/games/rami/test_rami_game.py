"""The terminal Rami game driven by scripted input (issue: Rami 40 and Rami 51 end to end)."""

from __future__ import annotations

import pytest

from rummykit.cards import format_card, format_cards
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot
from rummykit.games.rami.round import RamiAction, preset
from rummykit.games.rami.terminal import RamiTerminalGame, run_rami_terminal


def as_command(action: RamiAction) -> str:
    """The words a person would type for an engine action."""
    kind = action.kind
    if kind == "draw_stock":
        return "draw"
    if kind == "take_discard":
        return "take" + ("" if action.then is None else " " + as_command(action.then))
    if kind == "open":
        return "open " + " | ".join(format_cards(combo) for combo in action.combos or ())
    if kind == "meld":
        return "meld " + format_cards((action.combos or ((),))[0])
    if kind == "layoff":
        return f"add {format_card(action.card or 0)} to {action.target}"
    if kind == "swap_joker":
        text = f"swap {format_card(action.card or 0)} from {action.target}"
        if action.joker_target is not None:
            return text + f" to {action.joker_target}"
        if action.joker_cards is not None:
            return text + " with " + format_cards(action.joker_cards)
        return text
    if kind == "end_play":
        return "end"
    return f"discard {format_card(action.card or 0)}"


def scripted(lines: list[str]) -> tuple[list[str], object]:
    out: list[str] = []
    feed = iter(lines)
    return out, lambda prompt: next(feed)


def test_invalid_input_gets_a_reason_and_a_new_prompt() -> None:
    out: list[str] = []
    lines = iter(
        ["frobnicate", "discard", "discard ZZ", "add 9S", "swap 8S", "open", "help", "quit"]
    )
    run_rami_terminal("rami51", 3, "heuristic", 11, lambda prompt: next(lines), out.append)
    text = "\n".join(out)
    assert "unknown command 'frobnicate'" in text
    assert "name one card" in text
    assert "bad card token 'ZZ' at position 1" in text
    assert "write 'add 9S to 3'" in text
    assert "write 'swap 8S from 2 to 4'" in text
    assert "name the combinations" in text
    assert "open 7S 8S 9S | KH KS KD" in text  # the help text
    assert "You left the game." in text


def test_illegal_move_is_explained_and_the_state_is_kept() -> None:
    out: list[str] = []
    lines = iter(["discard AS", "end", "open 2C 3C 4C", "quit"])
    game = RamiTerminalGame(
        preset("rami51"), players=2, seed=3, input_fn=lambda p: next(lines), output_fn=out.append
    )
    before = game.game.round.clone()
    # Seed 3 with 2 players: seat 0 deals, so the bot plays first; run until quit.
    game.run()
    assert any("Not allowed: seat 0 cannot discard now" in line for line in out)
    assert any("Not allowed: seat 0 cannot end play now" in line for line in out)
    assert game.game.round.table == before.table or game.game.round.table


def test_display_shows_numbered_table_owners_and_opening_total() -> None:
    out: list[str] = []
    lines = iter(["draw", "hint", "value JK 7S 8S | KH KS KD", "quit"])
    run_rami_terminal("rami51", 4, "heuristic", 5, lambda p: next(lines), out.append)
    text = "\n".join(out)
    assert "Your hand (" in text and "S: " in text
    assert "Not opened: your combinations make" in text and "(51 needed to open)" in text
    assert "[JK=6S 7S 8S] 21 + [KH KS KD] 30 = 51" in text
    assert "Stock: " in text and "Discard pile top: " in text


@pytest.mark.parametrize(("name", "players", "seed"), [("rami51", 4, 1), ("rami40-house", 3, 2)])
def test_whole_game_through_typed_commands(name: str, players: int, seed: int) -> None:
    """A scripted player types every move (chosen by the heuristic bot) until the end."""
    out: list[str] = []
    advisor = RamiHeuristicBot()
    terminal: RamiTerminalGame

    def read(prompt: str) -> str:
        game = terminal.game
        action = advisor.act(game.observation(0), game.legal_actions())
        if action.kind == "end_play":
            return "end"
        return as_command(action)

    terminal = RamiTerminalGame(
        preset(name), players=players, seed=seed, name=name, input_fn=read, output_fn=out.append
    )
    game = terminal.run()
    assert game.is_over
    text = "\n".join(out)
    assert "Game over. Score sheet" in text
    assert "Not allowed" not in text
    result = game.result
    assert result is not None
    assert text.count("=== Round") == len(game.results)
    assert "goes out!" in text or "go out!" in text
    assert "\ntotal " in text
    assert ("You win the game!" in text) or ("wins the game" in text) or ("share" in text)


def test_bot_and_player_count_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown rami bot"):
        run_rami_terminal("rami51", 4, "genius", 1, input, print)
    with pytest.raises(ValueError, match="unknown rami preset"):
        run_rami_terminal("rami99", 4, "random", 1, input, print)
    with pytest.raises(ValueError, match="2-6 players"):
        run_rami_terminal("rami51", 7, "random", 1, input, print)
