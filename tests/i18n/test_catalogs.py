"""The gettext catalogs: every marked message has a Hindi text with the same placeholders,
no catalog holds an unused one, and the committed .mo files match their .po sources."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest

babel_extract = pytest.importorskip("babel.messages.extract")
from babel.messages.pofile import read_po  # noqa: E402

from rummykit.i18n import DOMAIN, LANGUAGES, LOCALE_DIR  # noqa: E402

SOURCE = Path(__file__).parents[2] / "src" / "rummykit"
# As scripts/i18n.sh extracts: Babel's default keywords plus the N_ / NP_ markers.
KEYWORDS = {**babel_extract.DEFAULT_KEYWORDS, "N_": None, "NP_": (1, 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def extracted() -> set[str]:
    """Every message marked in the sources (a plural by its singular)."""
    found = set()
    for _file, _line, message, _comments, _context in babel_extract.extract_from_dir(
        str(SOURCE), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def catalog(lang: str):  # type: ignore[no-untyped-def]
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        return read_po(file, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_unused(lang: str) -> None:
    po = catalog(lang)
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in po if m.id}
    marked = extracted()
    assert not marked - ids, f"no {lang} text (run scripts/i18n.sh): {sorted(marked - ids)}"
    assert not ids - marked, f"unused in the {lang} catalog: {sorted(ids - marked)}"
    for message in po:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: untranslated {message.id!r}"
        assert not message.fuzzy, f"{lang}: fuzzy {message.id!r}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match(lang: str) -> None:
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = placeholders(ids[-1])
        assert all(placeholders(ids[0]) == wanted for _ in ids)
        for text in strings:
            assert placeholders(text) == wanted, (message.id, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalog_is_current(lang: str) -> None:
    """The .mo rummykit reads says what the .po says (run scripts/i18n.sh compile)."""
    compiled = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    for message in catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for count, text in zip((1, 2), message.string, strict=True):
                assert compiled.ngettext(*message.id, count) == text
        else:
            assert compiled.gettext(message.id) == message.string


def test_the_wheel_carries_the_catalogs() -> None:
    import tomllib

    pyproject = tomllib.loads((SOURCE.parents[1] / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]["rummykit"]
    assert "locale/*/LC_MESSAGES/*.mo" in data


def test_every_language_has_all_its_catalogs() -> None:
    """A language is its gettext catalog, the browser's catalog and the rules pages; the
    list of languages (which the browser reads from the server) names exactly those."""
    from rummykit.rules import languages as rules_languages

    web = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "locales"
    assert set(rules_languages()) == set(LANGUAGES)
    assert {path.stem for path in web.glob("*.json")} == set(LANGUAGES)
    for lang in LANGUAGES:
        if lang != "en":  # English is the source: gettext needs no catalog for it
            assert (Path(LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
