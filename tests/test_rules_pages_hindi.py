"""The Hindi rules pages keep step with the English ones.

src/rummykit/rules/hi/{index,gin,rami,carousel}.md translate the English rules pages
(src/rummykit/rules/en/ when it exists, else docs/rules/). A translation may reword
everything but must keep the rule ids and their anchors in the same order, the same
**§** markers and section numbers, every option name and code span, links that resolve
to the Hindi pages, and must really be in Hindi (Devanagari).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src" / "rummykit" / "rules"
HINDI = RULES / "hi"
PAGES = ("index", "gin", "rami", "carousel")
GAMES = ("gin", "rami", "carousel")

ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
NAMED = re.compile(r'<a (?:id|name)="([^"]+)"></a>')
RULE_MARKER = re.compile(r"^\*\*§([a-z]+-[0-9]+\.[0-9]+) ", re.MULTILINE)
SECTION_SIGN = re.compile(r"§(?:[a-z]+-)?[0-9]+(?:\.[0-9]+)*")
HEADING = re.compile(r"^## ([0-9]+)\. ", re.MULTILINE)
CODE = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _english_dir() -> Path:
    moved = RULES / "en"
    return moved if moved.is_dir() else ROOT / "docs" / "rules"


def _english(page: str) -> str:
    return (_english_dir() / f"{page}.md").read_text(encoding="utf-8")


def _hindi(page: str) -> str:
    return (HINDI / f"{page}.md").read_text(encoding="utf-8")


def _code_spans(text: str) -> list[str]:
    """Every inline code span, with line breaks inside a span read as spaces."""
    return [" ".join(span.split()) for span in CODE.findall(text)]


def _option_names(english: str) -> list[str]:
    """The first column of every table whose header starts with ``| option |``."""
    names: list[str] = []
    in_table = False
    for line in english.splitlines():
        if line.startswith("| option |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        if in_table:
            first = line.split("|")[1]
            names += CODE.findall(first)
    return names


def _is_devanagari(char: str) -> bool:
    return "\u0900" <= char <= "\u097f"


def _prose_lines(text: str) -> list[str]:
    """The page's lines without code spans, link targets, HTML anchors and rule markers."""
    text = CODE.sub(" ", text)
    text = LINK.sub("]", text)
    text = NAMED.sub(" ", text)
    text = SECTION_SIGN.sub(" ", text)
    return [line for line in text.splitlines() if line.strip() and not line.startswith("|---")]


def test_the_four_hindi_pages_exist() -> None:
    assert sorted(path.stem for path in HINDI.glob("*.md")) == sorted(PAGES)


def test_the_english_pages_are_found() -> None:
    for page in PAGES:
        assert (_english_dir() / f"{page}.md").is_file(), page


@pytest.mark.parametrize("game", GAMES)
def test_same_rule_ids_in_the_same_order(game: str) -> None:
    english = ANCHOR.findall(_english(game))
    assert english, f"no rule anchors found on the English {game} page"
    assert ANCHOR.findall(_hindi(game)) == english


@pytest.mark.parametrize("page", PAGES)
def test_every_anchor_is_shown_with_its_id(page: str) -> None:
    text = _hindi(page)
    for rule_id in ANCHOR.findall(text):
        assert f'<a id="{rule_id}"></a>\n**§{rule_id} ' in text, f"{page}.md: {rule_id}"


@pytest.mark.parametrize("page", PAGES)
def test_section_markers_match(page: str) -> None:
    english, hindi = _english(page), _hindi(page)
    assert RULE_MARKER.findall(hindi) == RULE_MARKER.findall(english)
    assert Counter(SECTION_SIGN.findall(hindi)) == Counter(SECTION_SIGN.findall(english))


@pytest.mark.parametrize("page", PAGES)
def test_same_section_numbers_and_ids_under_them(page: str) -> None:
    hindi = _hindi(page)
    assert HEADING.findall(hindi) == HEADING.findall(_english(page))
    section = None
    for line in hindi.splitlines():
        heading = HEADING.match(line)
        if heading:
            section = heading.group(1)
        anchor = ANCHOR.fullmatch(line)
        if anchor:
            assert anchor.group(1).split("-")[1].split(".")[0] == section, anchor.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_every_option_name_appears(game: str) -> None:
    names = _option_names(_english(game))
    assert len(names) >= 10, f"the English {game} option table was not found"
    hindi = _hindi(game)
    missing = [name for name in names if f"`{name}`" not in hindi]
    assert not missing, f"{game}: options missing from the Hindi page: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_every_code_span_is_kept(page: str) -> None:
    """Code names, card notation and commands are never translated."""
    missing = set(_code_spans(_english(page))) - set(_code_spans(_hindi(page)))
    assert not missing, f"{page}.md: code spans missing from the Hindi page: {sorted(missing)}"


@pytest.mark.parametrize("page", PAGES)
def test_links_stay_on_the_hindi_pages_and_resolve(page: str) -> None:
    hindi = _hindi(page)
    targets = LINK.findall(hindi)
    assert set(LINK.findall(_english(page))) <= set(targets), f"{page}.md: links were dropped"
    for target in targets:
        file, _, fragment = target.partition("#")
        assert file in ("", *(f"{name}.md" for name in PAGES)), f"{page}.md links to {target}"
        if fragment:
            anchors = NAMED.findall(_hindi(file[: -len(".md")]) if file else hindi)
            assert fragment in anchors, f"{page}.md: {target} has no anchor"


@pytest.mark.parametrize("page", PAGES)
def test_the_prose_is_in_devanagari(page: str) -> None:
    lines = _prose_lines(_hindi(page))
    letters = [char for line in lines for char in line if unicodedata.category(char)[0] == "L"]
    devanagari = sum(map(_is_devanagari, letters))
    assert devanagari > len(letters) / 2, f"{page}.md: {devanagari} of {len(letters)} letters"
    for line in lines:
        if len(LATIN_WORD.findall(line)) >= 4:
            assert any(map(_is_devanagari, line)), f"{page}.md: untranslated line: {line}"


@pytest.mark.parametrize("page", PAGES)
def test_no_page_mentions_outside_material(page: str) -> None:
    text = _hindi(page).lower()
    for word in ("shared", "seeds", ".hi.txt", "/work/"):
        assert word not in text, f"{page}.md mentions {word!r}"
