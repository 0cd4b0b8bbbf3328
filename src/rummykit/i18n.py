"""The languages rummykit speaks, and a translator for each.

English is the source language: every message is written in English in the code and marked
for extraction (``gettext``, ``ngettext``, ``N_``); another language is one gettext catalog,
``rummykit/locale/<lang>/LC_MESSAGES/rummykit.po``, compiled to the ``.mo`` file read here
(``scripts/i18n.sh`` holds the Babel commands). The compiled catalogs are committed, so an
installed wheel carries them without a build step; a test fails when one is stale.

Messages take named ``{placeholders}`` (``str.format``), the same in every language, so
a translation may move them but never change them.

This module sits in the bottom layer (standard library only): games import it too.

>>> hi = translator("hi")
>>> hi.gettext("Not allowed: {reason}", reason="…")
'अनुमति नहीं: …'
>>> translator("en").ngettext("{count} card", "{count} cards", 2, count=2)
'2 cards'
>>> choose_language(None, environ={"LANG": "hi_IN.UTF-8"})
'hi'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "Translator",
    "choose_language",
    "translator",
]

DOMAIN: Final = "rummykit"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE: Final = "en"
# Each language's own name, for a menu; English needs no catalog (it is the source).
LANGUAGES: Final[Mapping[str, str]] = {"en": "English", "hi": "हिन्दी"}


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Mark ``message`` for extraction without translating it now (a template kept in a
    table and translated when shown)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Mark a plural message (for ``ngettext`` later) without translating it now."""
    return (singular, plural)


def _language_of(value: str | None) -> str | None:
    """``hi``, ``hi_IN.UTF-8``, ``hi-IN`` → ``hi``; ``None`` for a language not offered."""
    if not value:
        return None
    code = value.replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``explicit`` (such as ``--lang``) if given, else
    ``RUMMYKIT_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, in POSIX
    order), else English. An explicit language not offered is an error; a locale not
    offered just means English (``C.UTF-8`` and ``de_DE`` are common).

    >>> choose_language("hi"), choose_language(None, environ={"RUMMYKIT_LANG": "hi"})
    ('hi', 'hi')
    >>> choose_language(None, environ={"LANG": "de_DE.UTF-8"})
    'en'
    """
    if explicit is not None:
        chosen = _language_of(explicit)
        if chosen is None:
            raise ValueError(f"no language {explicit!r}: choose from {', '.join(LANGUAGES)}")
        return chosen
    env = os.environ if environ is None else environ
    for name in ("RUMMYKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            # The first variable set decides, as POSIX has it: LC_ALL=C overrides LANG=hi.
            return _language_of(env[name]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


class Translator:
    """One language's messages, with the ``{placeholders}`` filled in."""

    def __init__(self, language: str, catalog: _gettext.NullTranslations) -> None:
        self.language = language
        self._catalog = catalog

    def gettext(self, message: str, /, **params: object) -> str:
        """``message`` in this language, placeholders filled from ``params``."""
        text = self._catalog.gettext(message)
        # Without params the text is shown as it is (it may hold literal braces).
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The form for ``count`` (this language's plural rule), placeholders filled."""
        return self.plural_form(singular, plural, count).format(**params)

    def plural_form(self, singular: str, plural: str, count: int, /) -> str:
        """The form for ``count``, its placeholders left for the reader to fill."""
        return self._catalog.ngettext(singular, plural, count)


def translator(language: str | None = None) -> Translator:
    """The translator for ``language`` (chosen by :func:`choose_language`)."""
    return _translator(choose_language(language))


@cache
def _translator(chosen: str) -> Translator:
    # Cached by the language chosen, not by the argument: the environment may change.
    catalog: _gettext.NullTranslations
    if chosen == DEFAULT_LANGUAGE:
        catalog = _gettext.NullTranslations()
    else:
        catalog = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen])
    return Translator(chosen, catalog)
