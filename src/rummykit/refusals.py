"""An engine's refusal said again in the reader's language, from its code and fields.

Each :class:`~rummykit.errors.IllegalActionError` has a stable ``code`` and the facts it
is about (``seat``, ``card``, ``rule``, ``numbers``, and ``cause``, the finer reason when
one code covers several); card-notation and meld errors have a code and their facts too.
A template per code, marked for the gettext catalogs, says it in any language:
:func:`explain` fills one in. The templates of the shared layer (the turn, the end of
the game, card notation, melds) are here; each game declares its own codes'
(``refusal_templates`` of its catalog :class:`~rummykit.catalog.Variant`), and
:data:`TEMPLATES` / :data:`PLURAL_TEMPLATES` hold them all. The English message the
engine wrote is never parsed: a code without a template is shown in the engine's words.

The browser does the same from the websocket ``error`` message's ``code`` + ``params``
(:func:`refusal_params`), with these very templates in the reader's language
(:func:`refusal_templates`, which the server sends it).

>>> from rummykit.errors import IllegalActionError
>>> error = IllegalActionError("...", code="card_not_in_hand", seat=0, card=12)
>>> explain(error, "en"), explain(error, "hi")
('KS is not in your hand.', 'KS आपके हाथ में नहीं है।')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, Final

from rummykit.cards import format_card
from rummykit.errors import RummykitError
from rummykit.i18n import N_, NP_, translator
from rummykit.refusal_facts import refusal_params

__all__ = [
    "PLURAL_TEMPLATES",
    "SHARED_PLURALS",
    "SHARED_TEMPLATES",
    "TEMPLATES",
    "explain",
    "refusal_params",
    "refusal_templates",
]

# Placeholders: {card} (the card's text), {seat}, {token} and {position} (typed card
# notation), and the error's numbers by name.
SHARED_TEMPLATES: Final[Mapping[str, str]] = {
    # Any game's turn and end.
    "not_your_turn": N_("It is not your turn."),
    "game_over": N_("The game is over; no more moves."),
    "match_over": N_("The match is over; no more moves."),
    "hand_over": N_("The hand is over."),
    "wrong_phase": N_("That move does not fit this step of the turn."),
    "action_not_legal": N_("That move is not legal now."),
    "illegal_action": N_("The rules do not allow that move now."),
    "invalid_action": N_("That move is not written as the game reads it."),
    # Codes that several games raise with one meaning.
    "card_not_in_hand": N_("{card} is not in your hand."),
    "discard_pile_empty": N_("The discard pile is empty."),
    "discard_taken_card": N_("You cannot discard {card}: you just took it from the discard pile."),
    "stock_empty": N_("The stock is empty."),
    "invalid_meld": N_("The cards with {card} do not form a valid meld."),
    "undeclared_joker": N_("A joker on the table must say which card it stands for, e.g. JK=5S."),
    # Card notation (rummykit.cards).
    "invalid_card": N_("That is not a card."),
    "bad_card_token": N_(
        "{token} (word {position}) is not a card: write the rank A 2-9 T/10 J Q K, "
        "then the suit S H D C, or JK for a joker."
    ),
    "bad_joker_declaration": N_(
        "{token} (word {position}): a joker stands for a real card, e.g. JK=5S."
    ),
    "too_many_jokers": N_("{token} (word {position}): at most {most} jokers."),
    # The other errors of the shared layer, when a person meets them.
    "error": N_("That input is not valid."),
    "invalid_option": N_("There is no rule option {option}, or it does not take that value."),
    "invalid_record": N_("That game record cannot be replayed."),
    "unknown_variant": N_("There is no such game."),
    "unknown_bot": N_("There is no such bot for this game."),
    "unknown_rules_page": N_("There is no rules page for that game in this language."),
    "unknown_rule": N_("There is no such rule on the rules page."),
    "bot_error": N_("A bot failed: it chose an illegal move or stopped."),
    # Melds (rummykit.melds), alone or as the cause of a game's refusal.
    "no_jokers": N_("Jokers are not played in this game."),
    "no_natural_card": N_("A meld needs at least one card that is not a joker."),
    "not_set_or_run": N_("These cards are no meld: a set needs one rank, a run one suit."),
    "set_suit_twice": N_("A set holds two cards of one suit; its suits must all differ."),
    "run_rank_twice": N_("A run holds one rank twice."),
    "ace_not_in_runs": N_("The ace is not played in runs here."),
    "ace_high_only": N_("The ace is high only: no A-2-3 run."),
    "ace_low_only": N_("The ace is low only: no Q-K-A run."),
    "run_wraps": N_("A run does not wrap around the ace (K-A-2)."),
    "run_not_consecutive": N_("The ranks of a run must follow one another."),
}

# Codes whose message depends on a count: (singular, plural, the number that decides).
SHARED_PLURALS: Final[Mapping[str, tuple[str, str, str]]] = {
    "one_card_expected": (
        *NP_("Name one card, not {count} in {token}.", "Name one card, not {count} in {token}."),
        "count",
    ),
    "meld_too_small": (
        *NP_("A meld needs at least {least} card.", "A meld needs at least {least} cards."),
        "least",
    ),
    "meld_jokers_over_limit": (
        *NP_("A meld holds at most {most} joker.", "A meld holds at most {most} jokers."),
        "most",
    ),
    "set_too_big": (
        *NP_("A set holds at most {most} card.", "A set holds at most {most} cards."),
        "most",
    ),
    "run_too_big": (
        *NP_("A run holds at most {most} card.", "A run holds at most {most} cards."),
        "most",
    ),
    "run_gaps": (
        *NP_(
            "The run's gaps are more than its {jokers} joker can fill.",
            "The run's gaps are more than its {jokers} jokers can fill.",
        ),
        "jokers",
    ),
}

_RULE_SUFFIX: Final = N_("(rule {rule})")

Template = str | tuple[str, str, str]


@cache
def _all_templates() -> Mapping[str, Template]:
    """The shared templates and every catalog game's, looked up once (the catalog loads
    the games on first use, after this module is imported)."""
    from rummykit.catalog import variants

    found: dict[str, Template] = {**SHARED_TEMPLATES, **SHARED_PLURALS}
    for variant in variants():
        for code, template in variant.refusal_templates.items():
            if found.setdefault(code, template) != template:
                raise ValueError(f"{variant.name} words refusal {code!r} differently")
    return found


@cache
def _templates_by_kind(plural: bool) -> dict[str, Any]:
    """The gathered templates with (``plural``) or without a count, split once."""
    return {c: t for c, t in _all_templates().items() if isinstance(t, tuple) == plural}


class _Gathered(Mapping[str, Any]):
    """The shared templates and every game's, single (``plural=False``) or by count,
    gathered on first use: the games register after this module is imported."""

    def __init__(self, *, plural: bool) -> None:
        self._plural = plural

    def _found(self) -> dict[str, Any]:
        return _templates_by_kind(self._plural)

    def __getitem__(self, code: str) -> Any:
        return self._found()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())


TEMPLATES: Final[Mapping[str, str]] = _Gathered(plural=False)
"""One message per refusal code: the shared layer's and every catalog game's."""
PLURAL_TEMPLATES: Final[Mapping[str, tuple[str, str, str]]] = _Gathered(plural=True)
"""The codes whose message depends on a count: (singular, plural, the number)."""


def _fill(code: str | None, params: Mapping[str, object], language: str) -> str | None:
    """The template of ``code`` filled in, or ``None`` (no template, or a fact missing)."""
    template = _all_templates().get(code or "")
    if template is None:
        return None
    tr = translator(language)
    try:
        if isinstance(template, str):
            return tr.gettext(template, **params)
        singular, plural, counted = template
        count = params[counted]
        assert isinstance(count, int)
        return tr.ngettext(singular, plural, count, **params)
    except (KeyError, IndexError):
        # A fact the template names is missing (an error raised without it).
        return None


def explain(
    error: RummykitError,
    language: str | None = None,
    *,
    card_text: Callable[[int], str] = format_card,
) -> str:
    """``error`` in ``language`` (see :func:`rummykit.i18n.choose_language`), from its
    code (its ``cause`` first, when it has one) and fields; the engine's own message for
    a code without a template (or one whose facts are missing). ``card_text`` writes the
    card (a terminal's style).

    >>> from rummykit.errors import IllegalActionError
    >>> error = IllegalActionError("...", code="deadwood_over_knock_limit", seat=0, card=9,
    ...     rule="gin-3.5", numbers={"deadwood": 14, "limit": 10})
    >>> print(explain(error, "en"))
    You cannot knock with TS: the other cards leave 14 deadwood, more than the knock limit of 10. (rule gin-3.5)
    >>> explain(IllegalActionError("seat 0 cannot fly", code="no_template"), "hi")
    'seat 0 cannot fly'
    """  # noqa: E501 (a doctest's output is one line)
    tr = translator(language)
    params: dict[str, object] = dict(refusal_params(error))
    card = getattr(error, "card", None)
    if card is not None:
        params["card"] = card_text(card)
    text = _fill(getattr(error, "cause", None), params, tr.language)
    if text is None:
        text = _fill(error.code, params, tr.language)
    if text is None:
        return str(error)
    if "rule" in params:
        text = f"{text} {tr.gettext(_RULE_SUFFIX, rule=params['rule'])}"
    return text


PluralTemplate = dict[str, str]


def refusal_templates(language: str) -> dict[str, str | PluralTemplate]:
    """Every refusal template in ``language``, placeholders unfilled, for a reader that
    fills them itself (the browser): a code's text, or for a count its forms ``one`` and
    ``other`` with ``by``, the name of the number that decides.

    >>> hindi = refusal_templates("hi")
    >>> hindi["card_not_in_hand"]
    '{card} आपके हाथ में नहीं है।'
    >>> sorted(refusal_templates("en")["meld_too_small"].items())
    [('by', 'least'), ('one', 'A meld needs at least {least} card.'), \
('other', 'A meld needs at least {least} cards.')]
    """
    tr = translator(language)
    found: dict[str, str | PluralTemplate] = {}
    for code, template in _all_templates().items():
        if isinstance(template, str):
            found[code] = tr.gettext(template)
        else:
            singular, plural, counted = template
            found[code] = {
                "one": tr.plural_form(singular, plural, 1),
                "other": tr.plural_form(singular, plural, 2),
                "by": counted,
            }
    return found
