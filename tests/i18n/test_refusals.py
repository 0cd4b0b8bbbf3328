"""Engine refusals in the reader's language, from their code and fields."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from rummykit.cards import parse_card, parse_cards
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rummykit.games.carousel import CarouselAction, CarouselGame
from rummykit.games.gin import GinAction, GinMatch
from rummykit.games.rami import RamiAction, RamiGame, preset
from rummykit.i18n import choose_language, translator
from rummykit.melds import RAMI_MELDS, check_meld
from rummykit.refusals import PLURAL_TEMPLATES, TEMPLATES, explain, refusal_params

SRC = Path(__file__).parents[2] / "src" / "rummykit"
# Raised from a variable (``f"{word}_over"``), so not found as a literal below.
COMPUTED = {"not_your_turn", "game_over", "match_over"}
# The tournament runner's failures reach whoever runs a tournament, not a player.
NOT_PLAYERS = {"tournament_failed", "tournament_timeout"}
DEVANAGARI = re.compile("[\u0900-\u097f]")


def _literals(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _assigned(node: ast.AST) -> set[str]:
    """The codes a statement assigns: ``default_code = "..."`` (the base class's),
    ``cause = "..."``, and the last of ``why, rule, cause = "...", "carousel-4.4",
    "final_lap"``."""
    if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
        return set()
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = {t.id for t in targets if isinstance(t, ast.Name)}
    if "default_code" in names or ("cause" in names and isinstance(node.value, ast.Constant)):
        return _literals(node.value)
    for target in targets:
        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            last = target.elts[-1]
            if isinstance(last, ast.Name) and last.id == "cause":
                return _literals(node.value.elts[-1])
    return set()


def raised_codes() -> set[str]:
    """Every code and cause written in the sources: ``code=`` / ``cause=`` of a call
    (both branches of a conditional), each error class's ``code=`` (its header's) and
    the base class's ``default_code``."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found |= _assigned(node)
            if isinstance(node, ast.Call | ast.ClassDef):
                for keyword in node.keywords:
                    if keyword.arg in ("code", "cause"):
                        found |= _literals(keyword.value)
    return {code for code in found if re.fullmatch(r"[a-z][a-z_]*", code)}


def templates() -> dict[str, str]:
    """Each code's template (a plural one by its singular)."""
    return {**TEMPLATES, **{code: t[0] for code, t in PLURAL_TEMPLATES.items()}}


def test_every_code_raised_has_a_template() -> None:
    codes = raised_codes() | COMPUTED
    assert {"draw_after_meld", "final_lap", "bad_card_token", "run_gaps"} <= codes  # found
    missing = codes - NOT_PLAYERS - set(templates())
    assert not missing, f"no refusal template for {sorted(missing)}"


def test_no_template_without_a_code() -> None:
    unused = set(templates()) - raised_codes() - COMPUTED
    assert not unused, f"templates for codes nothing raises: {sorted(unused)}"


def _error_for(code: str) -> IllegalActionError:
    """An error of ``code`` carrying every fact its template names (each number 2)."""
    wanted = {name for _, name, _, _ in string.Formatter().parse(templates()[code]) if name}
    if code in PLURAL_TEMPLATES:
        wanted.add(PLURAL_TEMPLATES[code][2])
    text = {"card", "seat", "token", "option"}
    error = IllegalActionError(
        "the engine's words",
        code=code,
        seat=0,
        card=9,
        rule="gin-3.5",
        numbers={name: 2 for name in wanted - text},
    )
    error.token, error.position, error.option = "1X", 2, "knock_limit"  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize("code", sorted(templates()))
def test_explain_in_english_and_hindi(code: str) -> None:
    error = _error_for(code)
    english, hindi = explain(error, "en"), explain(error, "hi")
    assert english != "the engine's words"
    assert english.endswith("(rule gin-3.5)") and hindi.endswith("(नियम gin-3.5)")
    assert DEVANAGARI.search(hindi) and not DEVANAGARI.search(english)
    assert "{" not in english + hindi
    if "{card}" in templates()[code]:
        assert "TS" in english and "TS" in hindi


def test_the_games_do_not_word_one_code_two_ways() -> None:
    from rummykit.catalog import variants

    seen: dict[str, object] = {}
    for variant in variants():
        for code, template in variant.refusal_templates.items():
            assert seen.setdefault(code, template) == template, code


def test_plural_follows_the_count() -> None:
    def said(melds: int, lang: str) -> str:
        error = IllegalActionError(
            "x", code="no_such_meld", card=9, numbers={"meld": 4, "melds": melds}
        )
        return explain(error, lang)

    assert said(1, "en").endswith("has 1 meld.") and said(2, "en").endswith("has 2 melds.")
    assert said(1, "hi").endswith("1 मेल्ड है।") and said(3, "hi").endswith("3 मेल्ड हैं।")


def test_fallbacks_are_the_engines_words() -> None:
    unknown = IllegalActionError("seat 1 cannot fly", code="no_template", seat=1)
    assert explain(unknown, "hi") == "seat 1 cannot fly"
    # A template whose numbers the error lacks: the engine's words, not a KeyError.
    bare = IllegalActionError("too much deadwood", code="deadwood_over_knock_limit", card=1)
    assert explain(bare, "hi") == "too much deadwood"
    # A cause without its facts falls back to the code's template.
    layout = IllegalActionError("x", code="illegal_layout", cause="copy_limit", card=1)
    assert explain(layout, "en") == "That layout is not allowed."


def test_a_real_gin_refusal() -> None:
    match = GinMatch(seed=7)
    seat = match.current_player
    hand = set(match.observation(seat).hand)
    absent = next(card for card in range(52) if card not in hand and card != match.hand.upcard)
    with pytest.raises(IllegalActionError) as caught:
        match.apply(GinAction.discard(absent))
    error = caught.value
    params = refusal_params(error)
    assert params["seat"] == seat and "card" in params
    text = explain(error, "hi")
    assert DEVANAGARI.search(text), text


def test_a_real_rami_refusal_carries_its_numbers() -> None:
    game = RamiGame(preset("rami51"), players=2, seed=3)
    seat = game.current_player
    game.apply(RamiAction.draw_stock())
    hand = game.observation(seat).hand
    with pytest.raises(IllegalActionError) as caught:
        game.apply(RamiAction.layoff(hand[0], 4))
    error = caught.value
    assert error.code == "not_opened" and "(नियम rami-4.8)" in explain(error, "hi")


def test_a_real_carousel_layout_refusal_names_its_cause() -> None:
    game = CarouselGame(players=2, seed=3)
    hand = game.observation(game.current_player).hand
    with pytest.raises(IllegalActionError) as caught:
        game.apply(CarouselAction.meld([[hand[0], hand[1]]]))
    error = caught.value
    params = refusal_params(error)
    assert error.code == "illegal_layout" and params["cause"] in templates()
    assert explain(error, "en") != str(error) and DEVANAGARI.search(explain(error, "hi"))


def test_card_notation_and_meld_errors_are_explained() -> None:
    with pytest.raises(InvalidCardError) as bad:
        parse_cards("7H 1X")
    assert refusal_params(bad.value) == {"token": "1X", "position": 2}
    assert explain(bad.value, "hi").startswith("1X (शब्द 2) कोई पत्ता नहीं है")
    with pytest.raises(InvalidCardError) as two:
        parse_card("7H 8H")
    assert explain(two.value, "en") == "Name one card, not 2 in 7H 8H."
    with pytest.raises(InvalidMeldError) as short:
        check_meld(parse_cards("7H 8H"), RAMI_MELDS)
    assert explain(short.value, "en") == "A meld needs at least 3 cards."
    assert explain(short.value, "hi") == "मेल्ड में कम से कम 3 पत्ते चाहिए।"


def test_choose_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RUMMYKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert choose_language() == "en"
    monkeypatch.setenv("LANG", "hi_IN.UTF-8")
    assert choose_language() == "hi" and translator().language == "hi"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert choose_language() == "en"
    monkeypatch.setenv("RUMMYKIT_LANG", "hi")
    assert choose_language() == "hi"
    assert choose_language("en") == "en"
    with pytest.raises(ValueError, match="no language"):
        choose_language("xx")
