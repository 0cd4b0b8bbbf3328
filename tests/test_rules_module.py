"""rummykit.rules: the packaged pages, sections and rules by id, the index of ids."""

from __future__ import annotations

import re

import pytest

from rummykit.errors import RummykitError, UnknownRuleError, UnknownRulesPageError
from rummykit.rules import (
    cited_rule,
    game_of,
    games,
    languages,
    page,
    plain_text,
    rule_index,
    rule_info,
    section,
    sections,
)


def test_every_game_has_a_page_in_every_language() -> None:
    assert games() == ("gin", "rami", "carousel")
    assert languages() == ("en", "hi")
    assert page("index").startswith("# The rules of the games\n")
    for game in games():
        assert re.match(r"# .+: the rules rummykit plays\n", page(game)), game
    for language in languages():
        for name in ("index", *games()):
            assert page(name, language).startswith("# "), (language, name)


def test_a_translation_has_the_same_sections_and_rules() -> None:
    for game in games():
        english = [part.id for part in sections(game)]
        assert [part.id for part in sections(game, "hi")] == english, game
    rule = section("gin", "3.1", "hi")
    assert rule.title == "खेल का क्रम" and rule.markdown.startswith('<a id="gin-3.1"></a>')
    # A heading's named anchor goes with its section, not with the rule above it.
    before = section("gin", "2.5", "hi").markdown
    assert "<a name=" not in before
    assert section("gin", "3", "hi").markdown.startswith('<a name="3-playing-a-hand"></a>\n')
    assert "<a name=" not in plain_text(section("gin", "3", "hi").markdown)


def test_a_preset_opens_its_games_page() -> None:
    assert game_of("rami40") == game_of("RAMI51-house") == "rami"
    assert page("rami40") == page("rami")
    assert section("rami40", "rami-4.5") == section("rami", "4.5")


@pytest.mark.parametrize("asked", ["gin-3.2", "3.2", "§gin-3.2", " GIN-3.2 ", "3.02"])
def test_a_rule_is_found_by_its_id_or_its_number(asked: str) -> None:
    rule = section("gin", asked)
    assert (rule.id, rule.game, rule.title) == ("gin-3.2", "gin", "The upcard offer")
    lines = rule.markdown.splitlines()
    assert lines[0] == '<a id="gin-3.2"></a>'
    assert lines[1].startswith("**§gin-3.2 The upcard offer.**")


def test_a_rule_runs_up_to_the_next_id_with_its_notes_and_examples() -> None:
    rule = section("gin", "3.6").markdown
    assert "**Example.** The stock holds 3 cards." in rule
    assert "gin-4.1" not in rule.replace("§gin-4.1", "") and "## 4." not in rule
    # The last rule of a section stops at the next section's heading.
    last = section("gin", "gin-2.5").markdown
    assert "## 3." not in last and "**For bot writers.**" in last


@pytest.mark.parametrize("asked", ["gin-3", "3"])
def test_a_whole_section_by_its_number(asked: str) -> None:
    part = section("gin", asked)
    assert (part.id, part.title) == ("gin-3", "Playing a hand")
    assert part.markdown.startswith("## 3. Playing a hand\n")
    ids = re.findall(r'<a id="([^"]+)"></a>', part.markdown)
    assert ids == [f"gin-3.{n}" for n in range(1, 7)]
    assert "## 4." not in part.markdown


def test_sections_list_every_section_and_rule_in_page_order() -> None:
    parts = [part.id for part in sections("carousel")]
    assert parts[:3] == ["carousel-1", "carousel-1.1", "carousel-1.2"]
    assert set(parts) >= {rule for rule in rule_index() if rule.startswith("carousel-")}
    assert parts[-1] == "carousel-8"


def test_the_index_of_ids_matches_the_pages() -> None:
    for rule_id, info in rule_index().items():
        assert section(info.game, rule_id).title == info.title, rule_id
    assert rule_info("rami-4.5").section == "A turn"


def test_an_unknown_game_names_the_games_with_pages() -> None:
    with pytest.raises(UnknownRulesPageError) as raised:
        page("poker")
    message = str(raised.value)
    assert "'poker'" in message and "gin, rami, carousel" in message
    assert isinstance(raised.value, RummykitError) and raised.value.code == "unknown_rules_page"


def test_an_unknown_language_names_the_languages() -> None:
    with pytest.raises(UnknownRulesPageError, match="language 'xx'; there are: en"):
        page("gin", "xx")


@pytest.mark.parametrize(
    ("asked", "says"),
    [
        ("12", "no section gin-12 on the gin page; its sections are gin-1 to gin-9"),
        ("3.9", "no rule gin-3.9 on the gin page; section gin-3 has gin-3.1, gin-3.2"),
        ("9.1", "no rule gin-9.1 on the gin page; ask for all of gin-9"),
        ("rami-3.2", "rami-3.2 is a rule of rami, not of gin"),
        ("knock", "write a section as gin-3.2, 3.2 or 3 (a whole section), not 'knock'"),
    ],
)
def test_an_unknown_section_says_what_there_is(asked: str, says: str) -> None:
    with pytest.raises(UnknownRuleError) as raised:
        section("gin", asked)
    assert says in str(raised.value)
    assert raised.value.code == "unknown_rule"


def test_plain_text_drops_anchors_and_link_targets() -> None:
    text = plain_text(section("gin", "1.4").markdown)
    assert "<a id" not in text and "](" not in text
    assert "except after a drawn hand (§gin-3.6)" in text.replace("\n", " ")
    assert plain_text("[Gin Rummy](gin.md) and [a site](https://example.org)") == (
        "Gin Rummy and [a site](https://example.org)"
    )


def test_a_refusal_cites_its_own_rule_id_or_the_one_its_code_enforces() -> None:
    assert cited_rule("gin", "discard_taken_card", None) == "gin-3.5"
    assert cited_rule("gin", "discard_taken_card", "gin-3.4") == "gin-3.4"
    assert cited_rule("rami", "opening_below_threshold", "rules/rami.md section 4") == "rami-4.5"
    assert cited_rule("gin", "card_not_in_hand", None) is None
    assert cited_rule("gin", "no_such_code", "not an id") is None
