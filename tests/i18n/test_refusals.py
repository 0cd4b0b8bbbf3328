"""Engine refusals in the reader's language, from their code and fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummykit.errors import IllegalActionError
from rummykit.games.gin import GinAction, GinMatch
from rummykit.i18n import choose_language, translator
from rummykit.refusals import PLURAL_TEMPLATES, TEMPLATES, explain, refusal_params

GIN = Path(__file__).parents[2] / "src" / "rummykit" / "games" / "gin"
SHARED = {"not_your_turn", "game_over", "match_over"}
DEVANAGARI = re.compile("[\u0900-\u097f]")
NUMBERS = {"deadwood": 14, "limit": 10, "meld": 3, "melds": 2}


def gin_codes() -> set[str]:
    return {
        code
        for path in GIN.glob("*.py")
        for code in re.findall(r'code="([a-z_]+)"', path.read_text(encoding="utf-8"))
    }


def test_every_gin_and_shared_code_has_a_template() -> None:
    covered = set(TEMPLATES) | set(PLURAL_TEMPLATES)
    assert gin_codes() | SHARED <= covered


@pytest.mark.parametrize("code", sorted(set(TEMPLATES) | set(PLURAL_TEMPLATES)))
def test_explain_in_english_and_hindi(code: str) -> None:
    error = IllegalActionError(
        "the engine's words", code=code, seat=0, card=9, rule="gin-3.5", numbers=NUMBERS
    )
    english, hindi = explain(error, "en"), explain(error, "hi")
    assert english != "the engine's words"
    assert english.endswith("(rule gin-3.5)") and hindi.endswith("(नियम gin-3.5)")
    assert DEVANAGARI.search(hindi) and not DEVANAGARI.search(english)
    assert "{" not in english + hindi
    if "{card}" in TEMPLATES.get(code, PLURAL_TEMPLATES.get(code, ("",))[0]):
        assert "TS" in english and "TS" in hindi


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
