"""A scripted Rami round and a scripted Carousel hand at the terminal in Hindi: the
screens' texts, refusals explained from their codes, card-notation errors, and no
English sentence left."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from rummykit.cards import format_card, format_cards
from rummykit.catalog import make_bot
from rummykit.games.carousel import CarouselAction, CarouselGame
from rummykit.games.carousel.terminal import CarouselScreen
from rummykit.games.rami import RamiAction, RamiGame, preset
from rummykit.games.rami.terminal import RamiScreen
from rummykit.i18n import LOCALE_DIR
from rummykit.terminal import TerminalSession

babel = pytest.importorskip("babel.messages.pofile")

DEVANAGARI = re.compile("[\u0900-\u097f]")


def english_words() -> set[str]:
    """Words of the English messages that no Hindi text keeps (commands, option names
    and notation stay as typed, so they appear in the Hindi texts too)."""
    with (LOCALE_DIR / "hi" / "LC_MESSAGES" / "rummykit.po").open("rb") as file:
        po = babel.read_po(file, locale="hi")
    english: set[str] = set()
    kept: set[str] = set()
    for message in po:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        # Placeholders ({stock}) are no words.
        for text in ids:
            english.update(re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", text)))
        for text in texts:
            kept.update(re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", text)))
    return {word.lower() for word in english} - {word.lower() for word in kept}


def assert_no_english(lines: Sequence[str]) -> None:
    words = english_words()
    assert {"stock", "table", "round", "opening", "penalty"} <= words
    for line in lines:
        bare = re.sub(r"\b[a-z]+-\d+(?:\.\d+)*", "", line)  # rule ids (rami-4.2) are notation
        found = {w.lower() for w in re.findall(r"\b[A-Za-z]{4,}\b", bare)} & words
        assert not found, (found, line)


def play(
    game: Any,
    screen: Any,
    bots: dict[int, Any],
    script: list[str],
    typed: Callable[[Any], str],
    me: Any,
    game_name: str,
) -> tuple[list[str], list[str]]:
    """Run the session: the script first, then ``me``'s moves typed, until a hand ends."""
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if script:
            return script.pop(0)
        if game.results:  # one hand played: leave
            return "quit"
        return typed(me.act(game.observation(0), game.legal_actions()))

    out: list[str] = []
    session = TerminalSession(
        game, screen, bots, read=read, say=out.append, game_name=game_name, language="hi"
    )
    session.run()
    return out, prompts


def typed_rami(action: RamiAction) -> str:
    """What the person types to play a Rami action (combinations numbered from 1)."""
    kind = action.kind
    card = format_card(action.card) if action.card is not None else ""
    if kind == "take_discard":
        return "take" + ("" if action.then is None else " " + typed_rami(action.then))
    if kind == "open":
        return "open " + " | ".join(format_cards(combo) for combo in action.combos or ())
    if kind == "meld":
        return "meld " + format_cards((action.combos or ((),))[0])
    if kind == "layoff":
        return f"add {card} to {(action.target or 0) + 1}"
    if kind == "swap_joker":
        text = f"swap {card} from {(action.target or 0) + 1}"
        if action.joker_target is not None:
            return f"{text} to {action.joker_target + 1}"
        if action.joker_cards is not None:
            return f"{text} with {format_cards(action.joker_cards)}"
        return text
    return {"draw_stock": "draw", "end_play": "end"}.get(kind, f"discard {card}")


def test_a_rami_round_in_hindi() -> None:
    rules = preset("rami51")
    game = RamiGame(rules, players=2, seed=5)
    me = make_bot("rami51", "heuristic", seed=1, rules=rules, players=2)
    bot = make_bot("rami51", "heuristic", seed=2, rules=rules, players=2)
    script = ["help", "hint", "flap", "discard 1X", "add 7H to 1", "value 7S 8S", "sort"]
    screen = RamiScreen(game, variant="rami51", language="hi")
    out, prompts = play(game, screen, {1: bot}, script, typed_rami, me, "rami51")
    text = "\n".join(out)
    assert out[0].startswith("rami51: ओपनिंग 51, 2 खिलाड़ी") and "आदेशों के लिए 'help'" in out[0]
    assert "=== राउंड 1: पत्ते " in text and "मेज़: (ख़ाली)" in text
    assert "आदेश (पत्ते ऐसे लिखें" in text and "खेल छोड़ें" in text  # help, with the loop's
    assert "1X (शब्द 1) कोई पत्ता नहीं है" in text  # a card-notation error
    assert "  अनुमति नहीं: यह चाल बारी के इस चरण में नहीं चल सकती।" in text  # refused
    assert "मेल्ड में कम से कम 3 पत्ते चाहिए।" in text  # value of no combination
    assert "अनजाना आदेश 'flap'" in text and "अनजाना आदेश 'sort'" in text
    assert "आपका हाथ (" in text and "ओपन नहीं किया: आपके संयोजन अभी" in text
    assert re.search(r"(आपके|बॉट 1 के) पत्ते ख़त्म!|राउंड रुक गया", text), text[-2000:]
    assert "कुल: आप " in text and "=== राउंड 2:" in text
    assert any(" या " in prompt for prompt in prompts)
    assert out[-1] == "आपने खेल छोड़ दिया।"
    assert_no_english(out)


def typed_carousel(action: CarouselAction) -> str:
    """What the person types to play a Carousel action (a meld as the whole layout)."""
    if action.kind == "meld":
        return "layout " + " | ".join(format_cards(meld) for meld in action.layout or ())
    return {"draw": "draw", "end_turn": "end", "knock": "knock"}[action.kind]


def test_a_carousel_hand_in_hindi() -> None:
    game = CarouselGame(players=2, seed=4, first_dealer=1)
    me = make_bot("carousel", "heuristic", seed=1, players=2)
    bot = make_bot("carousel", "heuristic", seed=2, players=2)
    script = ["help", "hint", "knock", "meld 7H", "add 7H to 9", "layout 7H ZZ", "rules 99.9"]
    screen = CarouselScreen(game, language="hi")
    out, _ = play(game, screen, {1: bot}, script, typed_carousel, me, "carousel")
    text = "\n".join(out)
    assert out[0].startswith("कैरूसेल, 150 अंकों तक, 2 खिलाड़ी।")
    assert "=== बाज़ी 1: पत्ते बॉट 1 ने बाँटे।" in text
    assert "आपका हाथ (" in text and "इस बारी उठाए: " in text
    assert "नए मेल्ड में कम से कम तीन पत्ते चाहिए" in text
    assert "मेज़ पर मेल्ड नंबर 9 नहीं है" in text
    assert "ZZ (शब्द 2) कोई पत्ता नहीं है" in text
    assert "  नियम-पृष्ठ पर ऐसा कोई नियम नहीं है।" in text
    assert "  अनुमति नहीं: " in text  # a knock or a layout refused, from its code
    assert "बाज़ी ख़त्म: " in text and "मूल्य " in text
    assert out[-1] == "आपने खेल छोड़ दिया।"
    assert_no_english(out)


@pytest.mark.parametrize("language", ["en", "hi"])
def test_score_sheets_in_each_language(language: str) -> None:
    game = RamiGame(preset("rami51"), players=2, seed=5)
    bots = [make_bot("rami51", "heuristic", seed=s, players=2) for s in (1, 2)]
    while not game.results:
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
    sheet = game.score_sheet(language).splitlines()
    if language == "en":
        assert sheet[0].split()[:3] == ["round", "seat", "0"]
    else:
        assert sheet[0].split()[:3] == ["राउंड", "सीट", "0"]
