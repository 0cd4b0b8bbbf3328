"""Gin Rummy at the terminal: the generic loop driving the Gin screen with typed lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from gin_helpers import deal

from rummykit.bots import RandomBot
from rummykit.bots.base import Bot
from rummykit.cards import format_card, parse_card
from rummykit.games.gin import GinAction, GinMatch, GinObservation, GinRules
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.terminal import GinScreen
from rummykit.terminal import TerminalSession


class Typed:
    """Typed lines in order, then ``quit``; remembers every prompt."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "quit"


class Preferring:
    """A bot playing the first legal action of the first kind it prefers."""

    name = "preferring"

    def __init__(self, *kinds: str) -> None:
        self.kinds = kinds

    def act(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        for kind in self.kinds:
            for action in legal_actions:
                if action.kind == kind:
                    return action
        return legal_actions[0]


def play(
    match: GinMatch, typed: Typed, bot: Bot[GinObservation, GinAction] | None = None
) -> list[str]:
    out: list[str] = []
    screen = GinScreen(match)
    TerminalSession(match, screen, {1: bot or RandomBot(1)}, read=typed, say=out.append).run()
    return out


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
    typed = Typed(["frobnicate", "discard", "discard ZZ", "sort sideways", "help", "", "quit"])
    out = play(GinMatch(seed=11), typed)
    text = "\n".join(out)
    assert "unknown command 'frobnicate'" in text
    assert "name one card" in text
    assert "bad card token 'ZZ' at position 1" in text
    assert "sort rank" in text
    assert "discard 7H" in text and "quit             leave the game" in text  # the help
    assert out[-1] == "You left the game."
    assert len(typed.prompts) == 7 and len(set(typed.prompts)) == 1


def test_illegal_move_is_explained_and_the_state_is_kept() -> None:
    # Seed 11: an upcard offer or a draw comes first; a discard there is illegal.
    match = GinMatch(seed=11)
    before = match.hand.clone()
    out = play(match, Typed(["discard AS"]))
    assert any("Not allowed: seat 0 cannot discard AS now" in line for line in out)
    assert match.hand.hands == before.hands
    assert match.hand.discard_pile == before.discard_pile


def test_end_of_input_leaves_the_game() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    out = play(GinMatch(seed=3), closed)  # type: ignore[arg-type]
    assert out[-1] == "You left the game."


@pytest.mark.parametrize(
    ("after_double_pass", "prompt"), [("stock_only", "draw? > "), ("any", "draw or take? > ")]
)
def test_prompt_after_a_double_pass_offers_only_the_legal_draws(
    after_double_pass: str, prompt: str
) -> None:
    rules = GinRules(first_turn_after_double_pass=after_double_pass)  # type: ignore[arg-type]
    match = GinMatch(rules, seed=1)
    match.hand = deal(
        "AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "2C 3C 4D 6D 8D TD QS JH QH KH", "5C", rules=rules
    )
    typed = Typed(["pass"])
    out = play(match, typed, Preferring("pass"))
    assert typed.prompts[:2] == ["take or pass? > ", prompt]
    assert "The upcard 5C is offered to you." in out
    if after_double_pass == "stock_only":
        assert "take" not in typed.prompts[1]


def test_discard_prompt_offers_knock_and_gin_only_when_legal() -> None:
    match = GinMatch(seed=1)
    match.hand = deal("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "2C 3C 4D 6D 8D TD QS JH QH KH", "TC")
    typed = Typed(["take", "hint", "gin"])
    out = play(match, typed, Preferring("draw_stock", "discard"))
    assert typed.prompts[:2] == ["take or pass? > ", "discard, knock or gin? > "]
    text = "\n".join(out)
    assert "  discard KD to keep 0 deadwood" in text
    # The sentence is written for its subject.
    assert "You went GIN." in text
    assert any(line.startswith("You score ") and line.endswith("(gin).") for line in out)
    assert "score(s)" not in text


def test_a_bot_scoring_is_told_in_the_third_person() -> None:
    match = GinMatch(seed=1)
    # The bot (seat 1) starts and goes gin with the upcard.
    match.hand = deal(
        "AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "2C 3C 4D 6D 8D TD QS JH QH KH", "TC", dealer=0
    )
    out = play(match, Typed([]), Preferring("take_upcard", "big_gin", "knock"))
    text = "\n".join(out)
    assert "Bot takes the upcard TC." in text
    assert "Bot went GIN." in text or "Bot knocked." in text
    assert any(line.startswith("Bot scores ") for line in out)


def test_lay_offs_number_the_knockers_melds_from_one() -> None:
    rules = GinRules(auto_layoff=False)
    match = GinMatch(rules, seed=1)
    match.hand = deal(
        "AS 2S 3S 4H 5H 6H 7C 8C 9C 2D",
        "TC KS KC 3D 5D 7D 9D JH QH 4C",
        "KH",
        ["QD"],
        rules=rules,
        dealer=0,
    )
    typed = Typed(["pass", "show ; TC>9", "show ; TC>0"])
    bot = Preferring("knock", "pass", "draw_stock")
    out = play(match, typed, bot)
    text = "\n".join(out)
    assert typed.prompts[1:] == ["show? > "] * 3
    melds = [line for line in out if line.startswith("  ") and line[2:3].isdigit()]
    number = next(line for line in melds if "7C 8C 9C" in line).split(".")[0].strip()
    assert "seat 0 cannot lay off TC onto meld 9: the knocker has 3 meld(s), numbered" in text
    assert "e.g. 7H>1, not 'TC>0'" in text
    out = play(match, Typed([f"show ; TC>{number}"]), bot)
    result = match.results[-1]
    assert result.layoffs == ((parse_card("TC"), int(number) - 1),)
    assert any(line.startswith("    laid off: TC on [7C 8C 9C]") for line in out)


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_match_through_typed_commands(seed: int) -> None:
    """A scripted player types every move (chosen by a heuristic) until the match ends."""
    advisor = GinHeuristicBot()
    match = GinMatch(seed=seed)

    def read(prompt: str) -> str:
        return as_command(advisor.act(match.observation(0), match.legal_actions()))

    out: list[str] = []
    TerminalSession(
        match, GinScreen(match), {1: GinHeuristicBot()}, read=read, say=out.append
    ).run()
    assert match.is_over
    text = "\n".join(out)
    assert "Match over. Score sheet:" in text
    assert "game bonus" in text and "line bonus" in text and "total" in text
    result = match.result
    assert result is not None
    assert f"{result.totals[0]:>7} {result.totals[1]:>7}" in text
    # Every scored hand was revealed with its reason and points, for its subject.
    scored = [r for r in match.results if r.winner is not None]
    assert text.count("You score ") + text.count("Bot scores ") == len(scored)
    assert any(w in text for w in ("knocked", "went GIN", "went BIG GIN"))
    assert out[-1] in ("You win the match!", "Bot wins the match.", "The match is a tie.")
    assert (out[-1] == "You win the match!") == (result.winner == 0)
