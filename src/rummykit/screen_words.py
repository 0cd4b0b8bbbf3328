"""What every game's terminal screen says the same way: its language, the seats' names,
cards in the screen's style, and a refusal in the person's language.

Each game's screen (``games/<game>/terminal.py``) builds on :class:`ScreenWords`; the
terminal loop (the platform) drives the screens and never imports this module, and the
games never import the platform.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rummykit.cards import format_card
from rummykit.errors import RummykitError
from rummykit.i18n import translator
from rummykit.match import Match
from rummykit.refusals import explain

__all__ = ["ScreenWords"]

GameT = TypeVar("GameT", bound=Match[Any, Any])


class ScreenWords(Generic[GameT]):
    """A screen's words about one whole game: ``self._`` translates into the screen's
    language; the person sits at seat 0, the other seats are bots.

    Every screen is built as the catalog builds it (``screen_type(game, card_text=...,
    language=...)``); a screen names its commands in :attr:`help_text` and the type of
    its game's rules by annotating :attr:`rules`.

    >>> from rummykit.games.gin import GinMatch
    >>> class Screen(ScreenWords[GinMatch]):
    ...     help_text = "Commands:"
    >>> words = Screen(GinMatch(seed=1), language="hi")
    >>> words.name(0), words.name(2), words._cards([0, 51])
    ('आप', 'बॉट 2', 'AS KH')
    """

    seat = 0
    help_text: ClassVar[str]
    """The game's own commands, one a line, marked for the catalogs (``N_``)."""
    rules: Any

    def __init__(
        self,
        game: GameT,
        *,
        card_text: Callable[[int], str] = format_card,
        language: str | None = None,
    ) -> None:
        self.game = game
        self.rules = game.rules
        self.tr = translator(language)
        self._ = self.tr.gettext
        self.help = self._(self.help_text)
        self.card_text = card_text

    def name(self, seat: int) -> str:
        """``You`` or ``Bot N``."""
        return self._("You") if seat == self.seat else self._("Bot {seat}", seat=seat)

    def _cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.card_text(card) for card in cards)

    def refusal(self, error: RummykitError) -> str:
        """The engine's reason: as it stands in English (it numbers table melds and
        combinations from 1 too), from its code and fields in another language."""
        if self.tr.language == "en":
            return str(error)
        return explain(error, self.tr.language)
