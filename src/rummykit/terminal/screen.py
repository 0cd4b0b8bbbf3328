"""What the terminal loop needs of a game, and what each game's terminal supplies.

The loop (:mod:`rummykit.terminal.loop`) is written once. A game takes part through two
objects it already has or writes in its own ``terminal`` module, without importing this
package (games never import the platform): its whole game (:class:`TerminalGame`: the
engine's match or game object) and a :class:`Screen`, the text the person sees and the
words they type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from rummykit.errors import RummykitError

__all__ = ["Screen", "TerminalGame"]

ObsT_co = TypeVar("ObsT_co", covariant=True)
ObsT_contra = TypeVar("ObsT_contra", contravariant=True)
ActionT = TypeVar("ActionT")


class TerminalGame(Protocol[ObsT_co, ActionT]):
    """A whole game (hands until the end) as the loop drives it."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    @property
    def results(self) -> Sequence[Any]:
        """One result per finished hand (a new one means a hand just ended)."""
        ...

    def observation(self, seat: int) -> ObsT_co: ...

    def legal_actions(self) -> list[ActionT]: ...

    def apply(self, action: ActionT) -> Any: ...

    def clone(self) -> Any:
        """An independent copy, to try a command of several actions before playing it."""
        ...

    def score_sheet(self, language: str = "en") -> str:
        """The score sheet, its headings and notes in ``language``."""
        ...


class Screen(Protocol[ObsT_contra, ActionT]):
    """One game's terminal: its views, prompt words, commands, hint and reveal.

    Every card the views show goes through the card style the screen was built with, so
    the platform decides on symbols and colour; text the person may type back (hints,
    help) keeps the input notation (``7H``, ``TD``, ``JK``).
    """

    seat: int
    """The person's seat."""
    noun: str
    """What the whole game is called: ``match`` (Gin) or ``game``."""
    help: str
    """The game's own commands, one a line (the loop adds ``help`` and ``quit``)."""

    def name(self, seat: int) -> str:
        """How a seat is called: ``You`` for the person, ``Bot 1`` and so on."""
        ...

    def title(self) -> str:
        """The opening line: the game, its target, the seats."""
        ...

    def hand_header(self) -> str:
        """The line that starts each hand: its number, the dealer, the scores."""
        ...

    def table(self, observation: ObsT_contra) -> list[str]:
        """What the person sees before choosing: the table, their hand, the counts."""
        ...

    def choices(self, observation: ObsT_contra, legal: Sequence[ActionT]) -> list[str]:
        """The command words legal now, for the prompt (``["draw", "take"]``)."""
        ...

    def parse(self, line: str, observation: ObsT_contra) -> list[ActionT] | str:
        """A typed command: the actions to play (several are played all or none), or
        text to show with no action (a view, a sort, a calculation).

        Raises ``ValueError`` (such as :class:`rummykit.errors.InvalidActionError`) with
        the reason for a command it cannot read.
        """
        ...

    def refusal(self, error: RummykitError) -> str:
        """The engine's reason for refusing a command (or a card or meld the person
        typed that is none), as the person reads it (numbers as the screen shows them)."""
        ...

    def hint(self, observation: ObsT_contra) -> str:
        """Advice for the person to act, written as commands they may type."""
        ...

    def describe(self, seat: int, action: ActionT, observation: ObsT_contra) -> list[str]:
        """What a bot's action looks like to the person (``observation`` is the bot's,
        before the action)."""
        ...

    def reveal(self, result: Any) -> list[str]:
        """The end of a hand: every hand shown, who scores what."""
        ...

    def winners(self) -> tuple[int, ...]:
        """The seats that won the finished game (none for a tie)."""
        ...
