"""Rami at the terminal: the generic loop driving the Rami screen with typed lines."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

import pytest
from rami_helpers import card, rig

from rummykit.bots.base import Bot
from rummykit.cards import format_card, format_cards
from rummykit.games.rami import RamiAction, RamiGame, RamiObservation, preset
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot
from rummykit.games.rami.terminal import RamiScreen
from rummykit.terminal import TerminalSession


class Typed:
    """Typed lines in order, then ``quit``; remembers every prompt."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "quit"


def bots(game: RamiGame) -> dict[int, Bot[RamiObservation, RamiAction]]:
    return {seat: RamiHeuristicBot() for seat in range(1, game.players)}


def play(
    game: RamiGame,
    typed: Typed,
    seats: Mapping[int, Bot[RamiObservation, RamiAction]] | None = None,
    variant: str = "rami51",
) -> list[str]:
    out: list[str] = []
    screen = RamiScreen(game, variant=variant)
    TerminalSession(game, screen, seats or bots(game), read=typed, say=out.append).run()
    return out


def as_command(action: RamiAction) -> str:
    """The words a person would type for an engine action (combinations from 1)."""
    kind = action.kind
    if kind == "draw_stock":
        return "draw"
    if kind == "take_discard":
        return "take" + ("" if action.then is None else " " + as_command(action.then))
    if kind == "open":
        return "open " + " | ".join(format_cards(combo) for combo in action.combos or ())
    if kind == "meld":
        return "meld " + format_cards((action.combos or ((),))[0])
    target = (action.target or 0) + 1
    if kind == "layoff":
        return f"add {format_card(action.card or 0)} to {target}"
    if kind == "swap_joker":
        text = f"swap {format_card(action.card or 0)} from {target}"
        if action.joker_target is not None:
            return text + f" to {action.joker_target + 1}"
        if action.joker_cards is not None:
            return text + " with " + format_cards(action.joker_cards)
        return text
    if kind == "end_play":
        return "end"
    return f"discard {format_card(action.card or 0)}"


def test_invalid_input_gets_a_reason_and_a_new_prompt() -> None:
    lines = ["frobnicate", "discard", "discard ZZ", "add 9S", "swap 8S", "open", "help"]
    out = play(RamiGame(preset("rami51"), 3, 11), Typed(lines))
    text = "\n".join(out)
    assert "unknown command 'frobnicate'" in text
    assert "name one card" in text
    assert "bad card token 'ZZ' at position 1" in text
    assert "write 'add 9S to 3'" in text
    assert "write 'swap 8S from 2 to 4'" in text
    assert "name the combinations" in text
    assert "open 7S 8S 9S | KH KS KD" in text  # the help text
    assert out[-1] == "You left the game."


def test_illegal_move_is_explained_and_the_state_is_kept() -> None:
    game = RamiGame(preset("rami51"), 2, 3)
    before = game.round.clone()
    # Seed 3 with 2 players: the bot plays first; then the person is to draw.
    out = play(game, Typed(["discard AS", "end", "open 2C 3C 4C"]))
    assert any("Not allowed: seat 0 cannot discard now" in line for line in out)
    assert any("Not allowed: seat 0 cannot end play now" in line for line in out)
    # Only the bot's turn was played: the person is still to draw.
    assert len(before.actions) == 0
    assert [a.kind for a in game.round.actions] == ["draw_stock", "end_play", "discard"]
    assert (game.round.current_player, game.round.phase) == (0, "draw")


def test_display_shows_numbered_table_owners_and_opening_total() -> None:
    typed = Typed(["draw", "hint", "value JK 7S 8S | KH KS KD"])
    out = play(RamiGame(preset("rami51"), 4, 5), typed)
    text = "\n".join(out)
    assert "Your hand (" in text and "   " in next(x for x in out if x.startswith("Your hand"))
    assert "Not opened: your combinations make" in text and "(51 needed to open)" in text
    assert "[JK=6S 7S 8S] 21 + [KH KS KD] 30 = 51" in text
    assert "Stock: " in text and "Discard pile top: " in text
    assert typed.prompts[0] == "draw or take? > "


def opened_position() -> RamiGame:
    game = RamiGame(preset("rami51"), 2, 1)
    game.hand = rig(
        players=2,
        rules=game.rules,
        hands={0: "9S KC 2D 7H", 1: "4C 9C JD QD"},
        table=[(1, "6S 7S 8S"), (0, "KH KS KD")],
        current=0,
        phase="play",
    )
    return game


def test_table_combinations_are_numbered_from_one_in_and_out() -> None:
    game = opened_position()
    typed = Typed(["hint", "add 9S to 0", "add 2D to 5", "add 9S to 1", "add KC to 2"])
    out = play(game, typed)
    text = "\n".join(out)
    assert "   1. run 6S-8S      Bot 1  6S 7S 8S" in out
    assert "   2. set of Ks      You    KH KS KD" in out
    assert "  add 9S to 1\n" in text and "  add KC to 2" in text  # the hint
    assert "table combinations are numbered from 1, not '0'" in text
    # The engine's reason, renumbered as the table is shown.
    assert "there is no combination 5 on the table (2 combination(s), numbered from 1)" in text
    table = [format_cards(combo.cards) for combo in game.round.table]
    assert table == ["6S 7S 8S 9S", "KH KS KD KC"]
    assert "   1. run 6S-9S      Bot 1  6S 7S 8S 9S" in out
    assert typed.prompts[0] == "add, end or discard? > "
    assert typed.prompts[-1] == "end or discard? > "


def test_bot_moves_name_combinations_from_one() -> None:
    game = opened_position()
    screen = RamiScreen(game)
    observation = game.observation(0)
    layoff = screen.describe(1, RamiAction.layoff(card("9S"), 0), observation)
    swap = RamiAction.swap_joker(card("8S"), 1, joker_target=0)
    assert layoff == ["Bot 1 lays 9S off on combination 1."]
    assert screen.describe(1, swap, observation) == [
        "Bot 1 gives 8S for the joker of combination 2 and plays it onto combination 1."
    ]
    assert screen.name(0) == "You" and screen.name(2) == "Bot 2"


@pytest.mark.parametrize(("name", "players", "seed"), [("rami51", 4, 1), ("rami40-house", 3, 2)])
def test_whole_game_through_typed_commands(name: str, players: int, seed: int) -> None:
    """A scripted player types every move (chosen by the heuristic bot) until the end."""
    advisor = RamiHeuristicBot()
    game = RamiGame(preset(name), players, seed)

    def read(prompt: str) -> str:
        action = advisor.act(game.observation(0), game.legal_actions())
        return as_command(action)

    out: list[str] = []
    screen = RamiScreen(game, variant=name)
    TerminalSession(game, screen, bots(game), read=read, say=out.append).run()
    assert game.is_over
    text = "\n".join(out)
    assert "Game over. Score sheet:" in text
    assert "Not allowed" not in text
    assert text.count("=== Round") == len(game.results)
    assert "goes out!" in text or "go out!" in text
    assert "You goes" not in text and "start(s)" not in text
    assert "\ntotal " in text
    result = game.result
    assert result is not None
    assert ("You win the game!" in text or "share the win!" in text) == (0 in result.winners)


def test_prompts_offer_only_the_plays_legal_now() -> None:
    game = RamiGame(preset("rami51"), 2, 1)
    game.hand = rig(players=2, rules=game.rules, hands={0: "7S 8S 9S KH KS KD 2C 5D"}, phase="play")
    typed = Typed(["open 7S 8S 9S | KH KS KD"])
    play(game, typed)
    # 24 + 30 opens; afterwards nothing fits (2C, 5D) and the plays end.
    assert typed.prompts == ["open, end or discard? > ", "end or discard? > "]


@pytest.mark.parametrize(("top", "prompt"), [("9S", "draw or take? > "), ("2D", "draw? > ")])
def test_take_is_offered_when_the_discard_must_be_laid_and_can_be(top: str, prompt: str) -> None:
    rules = dataclasses.replace(preset("rami51"), discard_must_be_melded=True)
    game = RamiGame(rules, 2, 1)
    game.hand = rig(
        players=2,
        rules=rules,
        hands={0: "KC 4D 7H", 1: "4C 9C JD QD"},
        table=[(1, "6S 7S 8S"), (0, "KH KS KD")],
        discard=top,
    )
    typed = Typed([f"take add {top} to 1"] if top == "9S" else [])
    out = play(game, typed)
    assert typed.prompts[0] == prompt
    if top == "9S":
        assert format_cards(game.round.table[0].cards) == "6S 7S 8S 9S"
        assert "Not allowed" not in "\n".join(out)
