"""Every error rummykit raises on bad input, in one tree.

Each class has a stable :attr:`RummykitError.code` a program can test (an instance may
carry a finer one, such as an illegal action's rule code); the message is for people.
All are ``ValueError`` subclasses, as in python-chess, so ``except ValueError`` keeps
working.

>>> try:
...     raise InvalidOptionError("knock_limit must be 0-10, not 11", option="knock_limit")
... except RummykitError as error:
...     (error.code, error.option)
('invalid_option', 'knock_limit')

An illegal action names the rule it breaks by its stable id (the rules pages anchor
every rule under its id, :mod:`rummykit.rules` indexes them), and its message cites it
as people read it:

>>> error = IllegalActionError("seat 0 cannot discard 7H: just taken", code="x", rule="gin-3.5")
>>> error.rule, str(error)
('gin-3.5', 'seat 0 cannot discard 7H: just taken (Gin rules §3.5)')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Final

__all__ = [
    "BotError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidOptionError",
    "InvalidRecordError",
    "PlayerQuitError",
    "RummykitError",
    "UnknownBotError",
    "UnknownRuleError",
    "UnknownRulesPageError",
    "UnknownVariantError",
    "cite_rule",
    "rule_citation",
]


class RummykitError(ValueError):
    """Base class of every error rummykit raises on bad input.

    ``code`` is stable: the class's default, or a finer one given when raised. A
    subclass names its default in its header: ``class X(RummykitError, code="x")``.
    """

    default_code: ClassVar[str] = "error"

    def __init_subclass__(cls, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.default_code = code

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code or self.default_code

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only fields survive pickling (tournament workers send errors back).
        return (_rebuild, (type(self), str(self), self.__dict__))


def _rebuild(cls: type[RummykitError], message: str, state: dict[str, Any]) -> RummykitError:
    error = cls.__new__(cls)
    ValueError.__init__(error, message)
    error.__dict__.update(state)
    return error


_RULE_ID: Final = re.compile(r"^[a-z][a-z0-9]*-\d+(?:\.\d+)*$")
"""A rule id: the game, a dash, the section and the rule's number (``gin-3.2``)."""


def rule_citation(rule: str) -> str:
    """How a message names the rule with stable id ``rule``.

    >>> rule_citation("gin-3.2"), rule_citation("carousel-5.3")
    ('Gin rules §3.2', 'Carousel rules §5.3')
    """
    game, _, number = rule.partition("-")
    return f"{game.capitalize()} rules §{number}"


def cite_rule(message: str, rule: str | None) -> str:
    """``message`` followed by the citation of ``rule`` in parentheses: every refusal
    names its rule in these words. Unchanged when no rule applies, or when ``rule`` is
    not a rule id (``game-N.M``), which has no words to cite it by.

    >>> cite_rule("no", "rami-4.1"), cite_rule("no", None), cite_rule("no", "house rule")
    ('no (Rami rules §4.1)', 'no', 'no')
    """
    if rule is None or _RULE_ID.match(rule) is None:
        return message
    return f"{message} ({rule_citation(rule)})"


class InvalidCardError(RummykitError, code="invalid_card"):
    """Card notation or a card id that names no card.

    For typed notation, ``token`` is the text that names no card and ``position`` its
    place (from 1); ``numbers`` holds the counts the message quotes: the facts
    :func:`rummykit.refusals.explain` needs to say it in another language.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        token: str | None = None,
        position: int | None = None,
        numbers: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(message, code=code)
        self.token = token
        self.position = position
        self.numbers: dict[str, int] = dict(numbers or {})


class InvalidMeldError(RummykitError, code="invalid_meld"):
    """Cards that do not form a legal meld; the message says why, ``code`` the reason
    (``meld_too_small``, ``run_not_consecutive``...) and ``numbers`` the counts quoted."""

    def __init__(
        self, message: str, *, code: str | None = None, numbers: Mapping[str, int] | None = None
    ) -> None:
        super().__init__(message, code=code)
        self.numbers: dict[str, int] = dict(numbers or {})


class InvalidOptionError(RummykitError, code="invalid_option"):
    """A rule option that does not exist, or a value outside its range or choices.

    ``option`` names the option when there is one.
    """

    def __init__(self, message: str, *, option: str | None = None, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.option = option


class InvalidRecordError(RummykitError, code="invalid_record"):
    """A game record that cannot be replayed (wrong game, missing deck, extra actions)."""


class InvalidActionError(RummykitError, code="invalid_action"):
    """The action is malformed: unknown kind, missing card, unparsable notation."""


class IllegalActionError(RummykitError, code="illegal_action"):
    """The action is well formed but the rules forbid it here and now.

    The state is left unchanged. ``code`` is stable (for programs), the message is for
    people and names the seat, the card and the rule. ``rule`` is the stable id of the
    rule the action breaks (``gin-3.5``), or ``None`` when it breaks no rule of the game
    (a card that is not in the hand); the message given is completed with the rule's
    citation (:func:`cite_rule`), so raise sites never spell it out; ``reason`` keeps
    the message as given, for a refusal that words its own around it. ``numbers`` holds
    the counts the message quotes (such as ``deadwood`` and ``limit``), so that
    :func:`rummykit.refusals.explain` can say it again in another language; ``cause`` is
    the code of the finer reason when one code covers several (a refused layout's
    ``table_card_removed``, a refused draw's ``draw_after_meld``).
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        seat: int | None = None,
        card: int | None = None,
        rule: str | None = None,
        numbers: Mapping[str, int] | None = None,
        cause: str | None = None,
    ) -> None:
        super().__init__(cite_rule(message, rule), code=code)
        self.reason = message
        self.cause = cause
        self.seat = seat
        self.numbers: dict[str, int] = dict(numbers or {})
        # The card's id (``rummykit.cards.format_card`` names it): the error tree sits
        # below the card module, which raises its errors.
        self.card = None if card is None else int(card)
        self.rule = rule


class UnknownVariantError(RummykitError, code="unknown_variant"):
    """No game (or preset) of that name is in the catalog."""


class UnknownBotError(RummykitError, code="unknown_bot"):
    """No bot of that name is registered for the game, or it cannot run yet."""


class UnknownRulesPageError(RummykitError, code="unknown_rules_page"):
    """No rules page for that game, or none in that language (:mod:`rummykit.rules`)."""


class UnknownRuleError(RummykitError, code="unknown_rule"):
    """No rule or section of that id on the game's rules page."""


class BotError(RummykitError, code="bot_error"):
    """A bot chose an illegal action, failed, or a game ran away.

    ``bot`` is the bot's name and ``seat`` its seat (``None`` when not about one bot).
    """

    def __init__(self, message: str, bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat


class PlayerQuitError(Exception):
    """The person at a terminal game typed ``quit`` (or closed its input).

    A signal, not bad input: deliberately outside :class:`RummykitError` (a
    ``ValueError``), so that code reporting a mistyped command never swallows it.
    """
