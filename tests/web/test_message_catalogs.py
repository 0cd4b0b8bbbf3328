"""The browser table's message catalogs (``web/locales/<lang>.json``) against its code.

Every message id the JavaScript names exists in every catalog and every catalog entry is
used; placeholders match English's; a text with a count has exactly the plural forms
the language's ``Intl.PluralRules`` names; every refusal code an engine can raise (its
template comes from rummykit.refusals, which the server sends), every error code of the
server, every rule option, choice, preset, game and bot level the lobby lists has its
words.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rummykit import catalog, i18n
from rummykit.refusals import refusal_templates

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "rummykit"
WEB = PACKAGE / "web"
LOCALES = WEB / "locales"
LANGUAGES = tuple(i18n.LANGUAGES)  # English first: the catalog every language follows
# The plural categories Intl.PluralRules (CLDR) uses for each language's cardinals.
PLURAL_FORMS = {"en": {"one", "other"}, "hi": {"one", "other"}}

ID = r"[a-z][a-z_]*(?:\.[A-Za-z0-9_-]+)+"
STATIC_ID = re.compile(rf'"({ID})"')
# `prefix.${...}`: a family of ids chosen at run time (a refusal's code, a card's rank).
FAMILY = re.compile(r"`([a-z][a-z_]*(?:\.[a-z_]+)*\.)\$\{")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# The server's error codes (docs/protocol.md: REST and websocket).
SERVER_CODES = {
    "bad_json", "bad_message", "bad_request", "unknown_type", "too_large", "body_too_large",
    "request_timeout", "method_not_allowed", "rate_limited", "too_many_connections",
    "too_many_tables", "hello_required", "unsupported_version", "bad_token", "not_found",
    "not_seated", "not_your_seat", "not_started", "already_started", "seats_not_joined",
    "game_over", "not_finished", "not_your_turn", "invalid_action", "illegal_action",
    "storage_error", "internal_error",
}  # fmt: skip


@cache
def load(language: str) -> dict[str, Any]:
    """A catalog's entries."""
    entries: dict[str, Any] = json.loads((LOCALES / f"{language}.json").read_text("utf-8"))
    return entries


@cache
def sources() -> str:
    files = list((WEB / "js").rglob("*.js"))
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(files))


def used_ids() -> set[str]:
    return set(STATIC_ID.findall(sources()))


def families() -> set[str]:
    return set(FAMILY.findall(sources()))


def texts(entry: Any) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())


def names_in(entry: Any) -> set[str]:
    return {name for text in texts(entry) for name in PLACEHOLDER.findall(text)}


def test_the_catalogs_are_read() -> None:
    assert len(load("en")) > 300
    assert "refusal.unknown" in load("hi")
    assert {"refusal.", "option.", "card.rank."} <= families()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_id_the_code_names_is_in_the_catalog(language: str) -> None:
    missing = sorted(used_ids() - set(load(language)))
    assert not missing, f"{language}.js lacks {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_entry_is_used(language: str) -> None:
    prefixes = tuple(families())
    unused = sorted(
        key for key in load(language) if key not in used_ids() and not key.startswith(prefixes)
    )
    assert not unused, f"{language}.js has entries no code uses: {unused}"


def test_every_language_has_the_same_ids_and_placeholders() -> None:
    english = load("en")
    for language in LANGUAGES[1:]:
        other = load(language)
        assert set(other) == set(english), set(other) ^ set(english)
        for key, entry in english.items():
            assert names_in(other[key]) == names_in(entry), (language, key)
            for text in texts(entry):
                assert names_in(text) <= names_in(entry)


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_entries_have_the_languages_forms(language: str) -> None:
    plural = {key: entry for key, entry in load(language).items() if isinstance(entry, dict)}
    assert plural
    for key, entry in plural.items():
        assert set(entry) == PLURAL_FORMS[language], (key, set(entry))
        # The general form names every fact any form names.
        assert names_in(entry) == set(PLACEHOLDER.findall(entry["other"])), key


def test_a_hindi_text_is_hindi() -> None:
    english, hindi = load("en"), load("hi")
    devanagari = re.compile(r"[\u0900-\u097F]")
    same = [
        key
        for key, entry in hindi.items()
        if not any(devanagari.search(text) for text in texts(entry))
        and PLACEHOLDER.sub("", "".join(texts(entry))).strip(" ()#·:/+-→!—")
    ]
    assert not same, f"hi.js entries without Devanagari: {same}"
    assert english["refusal.unknown"] != hindi["refusal.unknown"]


def engine_refusal_codes() -> set[str]:
    """Every game's refusal codes, as the rules pages list them (``rules/codes.json``)."""
    games = json.loads((PACKAGE / "rules" / "codes.json").read_text(encoding="utf-8"))["codes"]
    codes = {code for game in games.values() for code in game}
    return codes | {"not_your_turn"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_a_template(language: str) -> None:
    """The browser's refusal words are the ones the server sends (``/api/refusals``)."""
    sent = refusal_templates(language)
    missing = sorted(code for code in engine_refusal_codes() if code not in sent)
    assert not missing, f"no {language} refusal template for {missing}"
    english = refusal_templates("en")
    for code, entry in sent.items():
        assert names_in(entry) == names_in(english[code]), code
        if isinstance(entry, dict):
            # The browser picks the form by the number `by` names (i18n.js entryFor).
            assert set(entry) == PLURAL_FORMS[language] | {"by"}, code
            assert entry["by"] in names_in(entry), code


def test_every_server_error_code_has_words() -> None:
    missing = sorted(code for code in SERVER_CODES if f"error.{code}" not in load("en"))
    assert not missing


def test_the_lobby_has_words_for_every_option_choice_preset_game_and_bot() -> None:
    english = load("en")
    wanted = set()
    for variant in catalog.variants():
        wanted.add(f"game.{variant.name}")
        wanted.update(f"preset.{name}" for name in variant.preset_options())
        for option in variant.options():
            data = option.to_json()
            wanted.add(f"option.{data['name']}")
            wanted.update(
                f"choice.{choice}" for choice in data.get("choices") or () if not choice.isdigit()
            )
    wanted.update(f"bot.{level}" for level in ("random", "heuristic", "easy", "medium", "hard"))
    wanted.add("bot.expert")
    missing = sorted(wanted - set(english))
    assert not missing, missing
