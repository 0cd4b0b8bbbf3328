"""A scripted Gin hand at the terminal in Hindi: the loop's and the Gin screen's texts,
and an engine refusal explained from its code."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from rummykit.cards import format_card
from rummykit.cli import app
from rummykit.games.gin import GinAction, GinMatch
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.terminal import GinScreen
from rummykit.terminal import TerminalSession

DEVANAGARI = re.compile("[\u0900-\u097f]")


def typed(action: GinAction) -> str:
    """What the person types to play ``action``."""
    card = "" if action.card is None else format_card(action.card)
    return {
        "take_upcard": "take",
        "draw_discard": "take",
        "draw_stock": "draw",
        "pass": "pass",
        "discard": f"discard {card}",
        "knock": f"knock {card}",
        "big_gin": "gin",
        "lay_off": "show",
    }[action.kind]


def test_a_gin_hand_in_hindi() -> None:
    match = GinMatch(seed=11)
    me = GinHeuristicBot()
    held = set(match.observation(0).hand)
    absent = next(c for c in range(52) if c not in held and c != match.hand.upcard)
    script = ["help", "hint", "flap", f"discard {format_card(absent)}"]
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if script:
            return script.pop(0)
        if match.results:  # one hand played: leave
            return "quit"
        return typed(me.act(match.observation(0), match.legal_actions()))

    out: list[str] = []
    session = TerminalSession(
        match,
        GinScreen(match, language="hi"),
        {1: GinHeuristicBot()},
        read=read,
        say=out.append,
        game_name="gin",
        language="hi",
    )
    session.run()
    text = "\n".join(out)
    assert out[0].startswith("जिन रमी, 100 अंकों तक") and "आदेशों के लिए 'help' लिखें।" in out[0]
    assert "आदेश (पत्ते ऐसे लिखें" in text and "खेल छोड़ें" in text  # help, with the loop's
    assert "अनजाना आदेश 'flap'" in text
    assert "  अनुमति नहीं: " in text  # the discard refused, from its code
    assert "स्टॉक: " in text and "आपका हाथ (" in text
    assert any(" या " in prompt for prompt in prompts)
    assert "बाज़ी 1:" in text and "बाज़ी 2:" in text  # the hand ended and the next began
    assert re.search(r"ने (बिग जिन|जिन|नॉक) किया।|अनिर्णीत", text)
    assert out[-1] == "आपने खेल छोड़ दिया।"
    # No English sentence from the loop or the screen (card notation and commands aside).
    for line in out:
        if line.strip() and not line.startswith(("  draw", "  take", "  pass", "  ")):
            assert DEVANAGARI.search(line) or line.startswith("==="), line


def test_the_winner_sentences_in_hindi() -> None:
    match = GinMatch(seed=1)
    session = TerminalSession(match, GinScreen(match, language="hi"), {}, language="hi")
    assert session._winners_sentence([0]) == "आप गेम जीत गए!"
    assert session._winners_sentence([1]) == "बॉट ने गेम जीता।"
    assert session._winners_sentence([]) == "गेम बराबरी पर ख़त्म हुआ।"


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--lang", "hi"], {}), ([], {"RUMMYKIT_LANG": "hi"}), ([], {"LANG": "hi_IN.UTF-8"})],
)
def test_play_chooses_hindi(args: list[str], env: dict[str, str]) -> None:
    clean = {"RUMMYKIT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "", **env}
    result = CliRunner().invoke(
        app, ["play", "gin", "--seed", "2", *args], input="quit\n", env=clean
    )
    assert result.exit_code == 0, result.output
    assert "जिन रमी" in result.output and "आपने खेल छोड़ दिया।" in result.output


def test_play_refuses_an_unknown_language() -> None:
    result = CliRunner().invoke(app, ["play", "gin", "--lang", "xx"])
    assert result.exit_code != 0 and "--lang" in result.output
