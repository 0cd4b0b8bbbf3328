"""The rules pages, the rule-id index and the refusal-code map agree with each other.

src/rummykit/rules/en/*.md (package data) carry one anchor per rule id, and each
docs/rules/*.md includes its page; src/rummykit/rules/ids.json lists every id;
src/rummykit/rules/codes.json maps every refusal code the engines raise to an id.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

# The specifications' folder beside the project, spelt in two parts so that a search of
# the repository for it finds only real references.
OUTSIDE = "sha" + "red"

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src" / "rummykit" / "rules"
PAGES = RULES / "en"
DOCS = ROOT / "docs" / "rules"
GAMES_SRC = ROOT / "src" / "rummykit" / "games"
GAMES = ("gin", "rami", "carousel")
ID_PATTERN = re.compile(r"^(gin|rami|carousel)-[1-9][0-9]*\.[1-9][0-9]*$")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    counts = Counter(key for key, _ in pairs)
    duplicates = sorted(key for key, count in counts.items() if count > 1)
    if duplicates:
        raise ValueError(f"duplicate keys: {', '.join(duplicates)}")
    return dict(pairs)


def _load(name: str) -> dict[str, Any]:
    text = (RULES / name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    return data


def _pages() -> dict[str, str]:
    return {page.stem: page.read_text(encoding="utf-8") for page in sorted(PAGES.glob("*.md"))}


def _anchors() -> list[tuple[str, str]]:
    """(page, id) for every anchor of every rules page."""
    return [(name, rule_id) for name, text in _pages().items() for rule_id in ANCHOR.findall(text)]


def _engine_codes() -> dict[str, set[str]]:
    """Per game, every refusal code written ``code="..."`` in its engine's sources, and
    the one the generic whole-game layer raises for it once the game is over
    (``match_over`` for Gin, ``game_over`` for the others)."""
    from rummykit.catalog import get_variant

    found: dict[str, set[str]] = {}
    for game in GAMES:
        codes: set[str] = set()
        for source in (GAMES_SRC / game).rglob("*.py"):
            codes.update(re.findall(r'code="([a-z_]+)"', source.read_text(encoding="utf-8")))
        whole_game = type(
            get_variant(game).new_game(
                get_variant(game).default_rules(), players=get_variant(game).min_players, seed=1
            )
        )
        codes.add(f"{whole_game.game_word}_over")
        found[game] = codes
    return found


def test_every_page_exists() -> None:
    assert set(_pages()) == {"index", *GAMES}


def test_the_docs_pages_include_the_packaged_ones() -> None:
    docs = {page.stem: page.read_text(encoding="utf-8") for page in DOCS.glob("*.md")}
    assert set(docs) == set(_pages())
    for name, text in docs.items():
        snippet = f'--8<-- "src/rummykit/rules/en/{name}.md"'
        assert snippet in text.splitlines(), f"docs/rules/{name}.md does not include its page"


def test_links_between_pages_name_existing_pages() -> None:
    pages = set(_pages())
    for name, text in _pages().items():
        for target in re.findall(r"\]\(([a-z0-9_-]+)\.md(?:#[^)]*)?\)", text):
            assert target in pages, f"{name}.md links to a missing page {target}.md"


def test_ids_are_well_formed_and_complete() -> None:
    index = _load("ids.json")
    assert set(index["games"]) == set(GAMES)
    for rule_id, entry in index["rules"].items():
        assert ID_PATTERN.match(rule_id), rule_id
        game = rule_id.split("-")[0]
        assert entry["game"] == game, rule_id
        assert entry["page"] == f"docs/rules/{game}.md#{rule_id}", rule_id
        for field in ("section", "title", "summary"):
            assert isinstance(entry[field], str) and entry[field].strip(), (rule_id, field)
        assert "\n" not in entry["summary"], rule_id


def test_every_id_has_exactly_one_anchor_and_every_anchor_an_id() -> None:
    ids = set(_load("ids.json")["rules"])
    anchors = _anchors()
    counts = Counter(rule_id for _, rule_id in anchors)
    assert not [rule_id for rule_id, count in counts.items() if count > 1], "duplicated anchors"
    assert set(counts) - ids == set(), "anchors missing from ids.json"
    assert ids - set(counts) == set(), "ids without an anchor"
    for page, rule_id in anchors:
        assert rule_id.split("-")[0] == page, f"{rule_id} is anchored on {page}.md"


def test_every_anchor_is_shown_with_its_id() -> None:
    for name, text in _pages().items():
        for rule_id in ANCHOR.findall(text):
            shown = f'<a id="{rule_id}"></a>\n**§{rule_id} '
            assert shown in text, f"{name}.md: anchor {rule_id} is not followed by **§{rule_id}"


def test_section_numbers_match_ids() -> None:
    """A rule id's first number is the number of the section it sits in."""
    for name, text in _pages().items():
        section = None
        for line in text.splitlines():
            heading = re.match(r"## (\d+)\. ", line)
            if heading:
                section = heading.group(1)
            anchor = ANCHOR.fullmatch(line)
            if anchor:
                number = anchor.group(1).split("-")[1].split(".")[0]
                assert number == section, f"{name}.md: {anchor.group(1)} under section {section}"


def test_rule_links_point_to_existing_anchors() -> None:
    ids = set(_load("ids.json")["rules"])
    for name, text in _pages().items():
        for target in re.findall(r"\]\((?:[a-z]+\.md)?#([a-z]+-[0-9.]+)\)", text):
            assert target in ids, f"{name}.md links to unknown rule {target}"


def test_codes_cite_existing_ids_of_their_game() -> None:
    ids = set(_load("ids.json")["rules"])
    codes = _load("codes.json")["codes"]
    assert set(codes) == set(GAMES)
    for game, mapping in codes.items():
        for code, rule_id in mapping.items():
            if rule_id is not None:
                assert rule_id in ids, f"{game} code {code} cites unknown rule {rule_id}"
                assert rule_id.startswith(f"{game}-"), f"{game} code {code} cites {rule_id}"


def test_codes_cover_exactly_the_engines_refusals() -> None:
    codes = _load("codes.json")["codes"]
    for game, found in _engine_codes().items():
        listed = set(codes[game])
        assert found - listed == set(), f"{game}: refusal codes missing from codes.json"
        assert listed - found == set(), f"{game}: codes.json lists codes the engine lacks"


@pytest.mark.parametrize("game", GAMES)
def test_refusal_tables_on_the_pages_match_codes_json(game: str) -> None:
    table = re.split(r"^## \d+\. Refusal codes$", _pages()[game], flags=re.MULTILINE)[1]
    shown: dict[str, str | None] = {}
    for row in re.findall(r"^\|(.+)\|(.+)\|$", table, flags=re.MULTILINE):
        cells, rule = row
        cited = re.search(r"\(#([a-z]+-[0-9.]+)\)", rule)
        for code in re.findall(r"`([a-z_]+)`", cells):
            shown[code] = cited.group(1) if cited else None
    assert shown == _load("codes.json")["codes"][game]


def test_no_page_points_outside_the_project() -> None:
    files = [*PAGES.glob("*.md"), *DOCS.glob("*.md"), RULES / "ids.json", RULES / "codes.json"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert OUTSIDE + "/" not in text, path
        assert "../" + OUTSIDE not in text, path
