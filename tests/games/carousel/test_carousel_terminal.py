"""The terminal Carousel game driven by scripted input.

Positions: the first hand of the game is replaced by a constructed one in which the
person (seat 0) is to act (see ``carousel_helpers.position``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from carousel_helpers import position, snapshot

from rummykit.cards import format_cards
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.hand import CarouselAction
from rummykit.games.carousel.simple_bots import CarouselHeuristicBot, CarouselRandomBot
from rummykit.games.carousel.terminal import HELP, CarouselScreen
from rummykit.terminal import TerminalSession


class Script:
    """Typed lines in order, then ``quit``; remembers every prompt."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "quit"


def terminal(
    script: Callable[[str], str],
    hands: list[str],
    table: list[str] | None = None,
    *,
    seed: int = 1,
    top: str = "",
    draws: int = 1,
) -> tuple[TerminalSession[CarouselGame, Any, Any], list[str]]:
    """A terminal game against random bots whose first hand is the given position,
    seat 0 to act."""
    out: list[str] = []
    bots: dict[int, Any] = {seat: CarouselRandomBot(seat) for seat in range(1, len(hands))}
    game = CarouselGame(players=len(hands), seed=seed)
    dealer = game.hand.dealer
    game.hand = position(hands, table or [], current=0, dealer=dealer, top=top, draws=draws)
    session = TerminalSession(game, CarouselScreen(game), bots, read=script, say=out.append)
    return session, out


def test_invalid_input_gets_a_reason_and_a_new_prompt() -> None:
    lines = [
        "frobnicate",
        "meld 7H",
        "meld ZZ 8H 9H",
        "add 9H",
        "add 9H to 7",
        "knock",
        "end",
        "layout 7H 8H 9H",
        "meld 7H 8H KS",
        "",
        "help",
    ]
    script = Script(lines)
    game, out = terminal(script, ["7H 8H 9H KS 2C", "QC QD", "JC JD"], ["4S 5S 6S"])
    before = snapshot(game.game.hand)
    game.run()
    text = "\n".join(out)
    assert "unknown command 'frobnicate'; type 'help' for the list" in text
    assert "a new meld needs at least three cards" in text
    assert "bad card token 'ZZ' at position 1" in text
    assert "write 'add 9H to 2'" in text
    assert "there is no table meld number 7" in text
    assert "Not allowed: seat 0 cannot knock yet" in text
    assert "Not allowed: seat 0 cannot end the turn yet" in text
    assert "Not allowed: seat 0: cannot remove 4S from the table" in text
    assert "Not allowed: seat 0: meld 2: 7H 8H KS is not a meld" in text
    assert HELP in text
    assert "You left the game." in text
    # Every line, the blank one included, was answered by a new prompt.
    assert len(script.prompts) == len(lines) + 1
    assert all(prompt == "draw or meld? > " for prompt in script.prompts)
    assert snapshot(game.game.hand) == before  # nothing was applied


def test_meld_and_add_to_numbered_table_melds() -> None:
    script = Script(["meld 7H 8H 9H", "add TH to 2", "add 3S to 1", "end"])
    game, out = terminal(script, ["7H 8H 9H TH 3S KC", "QC QD", "JC JD"], ["4S 5S 6S"])
    hand = game.game.hand
    game.run()
    layouts = [[format_cards(meld) for meld in action.layout or ()] for action in hand.actions[:3]]
    assert layouts == [
        ["4S 5S 6S", "7H 8H 9H"],
        ["4S 5S 6S", "7H 8H 9H TH"],
        ["4S 5S 6S 3S", "7H 8H 9H TH"],
    ]
    assert hand.actions[3] == CarouselAction.end_turn()
    text = "\n".join(out)
    assert "   1: 4S 5S 6S 3S" in text and "   2: 7H 8H 9H TH" in text
    assert "Your hand (1, value 10): KC" in text
    # After a meld the prompt offers no draw.
    assert script.prompts[1] == "meld or end? > "


def test_hint_and_auto() -> None:
    script = Script(["hint", "auto", "hint", "end"])
    game, out = terminal(script, ["8C 8D KS", "QC QD", "JC JD"], ["5H 6H 7H 8H"])
    hand = game.game.hand
    game.run()
    text = "\n".join(out)
    lines = text.splitlines()
    placed = next(line for line in lines if line.startswith("  Place "))
    assert sorted(placed.removeprefix("  Place ").split(";")[0].split()) == ["8C", "8D"]
    hinted = [line.split(": ", 1)[1] for line in lines if line.startswith("     ")]
    assert sorted(hinted) == sorted(["5H 6H 7H", "8H 8C 8D"])
    # auto played exactly the hint
    first = hand.actions[0]
    assert first.kind == "meld"
    assert [format_cards(meld) for meld in first.layout or ()] == hinted
    assert "Your hand (1, value 10): KS" in text
    assert "Nothing from your hand fits on the table now." in text  # the second hint
    assert hand.actions[1] == CarouselAction.end_turn()


def test_hint_when_melding_is_closed_or_nothing_fits() -> None:
    script = Script(["hint", "draw", "draw", "hint", "auto", "end"])
    game, out = terminal(script, ["KH 2C 9D 7H", "QC QD", "JC JD"], ["7D 7S 7C"], top="4S 8H")
    hand = game.game.hand
    game.run()
    text = "\n".join(out)
    # Before the draws 7H could join the sevens... so the first hint places it.
    assert "  Place 7H; the table becomes:" in text
    # After the third draw (8H), 7H 8H and the table still fit, but melding is closed.
    assert text.count("You cannot meld now: no melding after the last draw of a turn.") == 2
    assert hand.actions[:3] == [
        CarouselAction.draw(),
        CarouselAction.draw(),
        CarouselAction.end_turn(),
    ]


def test_illegal_knock_is_explained_and_the_state_is_kept() -> None:
    script = Script(["knock", "draw", "draw", "knock", "end"])
    game, out = terminal(script, ["KH 2C 9D", "QC QD", "JC JD"], ["7D 7S 7C"], top="4S 8H")
    hand = game.game.hand
    game.run()
    text = "\n".join(out)
    assert "Not allowed: seat 0 cannot knock yet" in text
    assert "Not allowed: seat 0 cannot knock: hand value 33 is over the knock limit of 5" in text
    assert [a.kind for a in hand.actions[:3]] == ["draw", "draw", "end_turn"]


def test_end_of_input_leaves_the_game() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    game, out = terminal(closed, ["KH 2C 9D", "QC QD", "JC JD"])
    game.run()
    assert out[-1] == "You left the game."


def as_command(action: CarouselAction, turn: int) -> str:
    """The words a person would type; melds alternate between ``auto`` and ``layout``."""
    if action.kind == "meld":
        if turn % 2:
            return "auto"
        return "layout " + " | ".join(format_cards(meld) for meld in action.layout or ())
    return {"draw": "draw", "end_turn": "end", "knock": "knock"}[action.kind]


def test_whole_game_through_typed_commands() -> None:
    """A scripted player types every move (chosen by the heuristic bot) to the end."""
    out: list[str] = []
    advisor = CarouselHeuristicBot()
    typed: list[str] = []
    game: TerminalSession[CarouselGame, Any, Any]

    def read(prompt: str) -> str:
        match = game.game
        action = advisor.act(match.observation(0), match.legal_actions())
        typed.append(as_command(action, len(typed)))
        return typed[-1]

    bots: dict[int, Any] = {1: CarouselHeuristicBot(), 2: CarouselRandomBot(4)}
    match = CarouselGame(players=3, seed=6)
    game = TerminalSession(match, CarouselScreen(match), bots, read=read, say=out.append)
    result = game.run()
    assert result.is_over
    text = "\n".join(out)
    assert "You left the game." not in text
    assert "Not allowed" not in text and "unknown command" not in text
    assert any(line.startswith("layout ") for line in typed)
    assert "auto" in typed
    assert "Game over. Score sheet:" in text
    final = result.result
    assert final is not None
    assert any(line.split() == ["total", *map(str, final.totals)] for line in text.splitlines())
    assert text.count("Hand over: ") == len(result.results)
    assert text.count("=== Hand ") == len(result.results)
    assert ("You win the game!" in text or "share the win!" in text) == (0 in final.winners)
    # Every typed action went through the engine: the game record replays.
    replayed = CarouselGame.from_record(json.loads(json.dumps(result.to_record())))
    assert replayed.result == final
