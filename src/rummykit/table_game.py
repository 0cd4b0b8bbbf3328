"""A game as a table hosts it: JSON actions in, JSON views out, for each seat.

The server (and any other host) drives every game through :class:`TableGame`. Each
game's package supplies its table game (``rummykit.games.gin.views`` and so on); the
parts every turn-based game shares (whose turn it is, parsing and applying a seat's
action, events as a seat may see them, a bot's move) are written once in
:class:`TurnBasedTableGame`. Every view derives from the engine's ``observation(seat)``,
the one place that hides information; a spectator (seat ``None``) sees what every seat
may see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from rummykit.cards import format_card
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.refusal_facts import refusal_params

__all__ = [
    "JSON",
    "Applied",
    "TableGame",
    "TurnBasedTableGame",
    "checked",
    "error_json",
]

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Applied:
    """An accepted action: its normalised JSON (what is persisted) and its events."""

    action: JSON
    events: list[Event] = field(default_factory=list)


class TableGame(Protocol):
    """A running game as a table hosts it: JSON actions in, JSON views out, per seat."""

    @property
    def seats(self) -> int:
        """Number of seats."""
        ...

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the whole game (the match) is finished."""
        ...

    def legal_actions(self) -> list[JSON]:
        """Legal actions of the seat to act, in JSON form (empty when over)."""
        ...

    def apply(self, seat: int, action: Mapping[str, Any]) -> Applied:
        """Apply a JSON action for ``seat``.

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: well formed but not allowed now (code ``not_your_turn``
                when another seat is to act); the game is unchanged.
        """
        ...

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator, public information only)."""
        ...

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[JSON]:
        """The events as ``seat`` may see them, JSON-ready."""
        ...

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        """Whether ``seat`` may play ``action`` now, without playing it.

        Returns ``{"ok": bool, "error": {"code", "message", "rule"} | None}`` plus what
        the variant can say about the action (an opening's total against the threshold,
        the cards a layout lays). Never changes the game.

        Raises:
            InvalidActionError: malformed action.
        """
        ...

    def hint(self, seat: int) -> Callable[[], JSON]:
        """The solver's advice for ``seat``, as a function to run later.

        The function works on a snapshot taken now (the seat's observation), so the
        server may run it in another thread while the table plays on.
        """
        ...

    def bot_action(self, seat: int, bot: Any) -> JSON:
        """The action ``bot`` chooses for ``seat`` from that seat's observation."""
        ...

    def summary(self) -> JSON:
        """Public scores and, when over, the final result."""
        ...

    def reveal(self) -> JSON:
        """The full state, every hand shown (only for finished games' replays)."""
        ...


class _EngineAction(Protocol):
    """What the engines' actions offer the server: a kind and a JSON form."""

    @property
    def kind(self) -> str: ...

    def to_json(self) -> JSON: ...


class TurnBasedTableGame:
    """The part of :class:`Game` every multi-seat engine game shares: whose turn it is,
    the legal actions as JSON, a seat's action parsed, checked for its turn and applied,
    events as a seat sees them, and a bot's move for its seat.

    Subclasses set :attr:`action_type` (the engine's action class, with ``from_json``)
    and hold the engine's game in :attr:`game` (``players``, ``current_player``,
    ``is_over``, ``legal_actions()``, ``apply(action)``, ``observation(seat)``); views and
    hints stay with each variant.
    """

    action_type: Any
    game: Any
    sheet_points: ClassVar[str] = "points"
    """The score sheet row's field with each seat's points of the hand."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @property
    def seats(self) -> int:
        return int(self.game.players)

    @property
    def current_seat(self) -> int | None:
        return None if self.game.is_over else int(self.game.current_player)

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over)

    def legal_actions(self) -> list[JSON]:
        return [action.to_json() for action in self.game.legal_actions()]

    def _view_opening(self, observation: Any) -> JSON:
        """The fields every game's view opens with: the game, the hand and its phase,
        whose turn it is (nobody's once the game is over), the dealer and the stock."""
        game = self.game
        return {
            "variant": game.rules.variant,
            "phase": observation.phase,
            "current_player": None if game.is_over else observation.current_player,
            "dealer": observation.dealer,
            "hand_number": game.hand_number,
            "stock_size": observation.stock_size,
        }

    def _parse_for(self, seat: int, action: Mapping[str, Any]) -> Any:
        """Parse ``action`` and make sure ``seat`` is the one to act."""
        if self.game.is_over:
            raise IllegalActionError(
                f"the {self.game.game_word} is over; no more moves",
                code=f"{self.game.game_word}_over",
            )
        parsed: _EngineAction = self.action_type.from_json(action)
        current = self.game.current_player
        if seat != current:
            raise IllegalActionError(
                f"seat {seat} cannot {parsed.kind.replace('_', ' ')}: it is seat {current}'s turn",
                code="not_your_turn",
                seat=seat,
            )
        return parsed

    def apply(self, seat: int, action: Mapping[str, Any]) -> Applied:
        parsed = self._parse_for(seat, action)
        events = self.game.apply(parsed)
        # The action as parsed is persisted: replaying it resolves card copies the same way.
        return Applied(parsed.to_json(), events)

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[JSON]:
        return [event.seen_by(seat).to_json() for event in events]

    def card_name(self, card: int) -> str:
        """How this game writes a card in JSON (Rami names the copy: ``7H@1``)."""
        return format_card(card)

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see: the public part (:meth:`_common`) and, for a seat, its
        hand, its legal actions when it is to act and what the game adds
        (:meth:`_seat_fields`); ``None``: :meth:`_spectator_view`."""
        if seat is None:
            return self._spectator_view()
        observation = self.game.observation(seat)
        my_turn = self.current_seat == seat
        data = self._common(observation)
        data.update(
            seat=seat,
            hand=self.card_names(observation.hand),
            legal_actions=self.legal_actions() if my_turn else [],
            **self._seat_fields(observation, my_turn),
        )
        return data

    def _common(self, observation: Any) -> JSON:
        """What every seat sees, from one seat's observation."""
        raise NotImplementedError

    def _seat_fields(self, observation: Any, my_turn: bool) -> JSON:
        """What a game adds to a seat's view besides its hand and legal actions."""
        return {}

    def _spectator_view(self) -> JSON:
        """Public information only."""
        raise NotImplementedError

    def _view_closing(self, last_result: JSON | None) -> JSON:
        """The fields every game's view closes with: the score sheet, the last finished
        hand revealed (``last_result_hand`` says which) and whether the game is over."""
        game = self.game
        return {
            "score_sheet": self._score_sheet(),
            "last_result": last_result,
            "last_result_hand": len(game.results),
            "is_over": game.is_over,
        }

    def _score_sheet(self) -> JSON:
        """The score sheet in a view: what the game plays to (:meth:`_sheet_heading`), a
        row per finished hand (:meth:`_sheet_row`) with the running totals of its
        :attr:`sheet_points`, and the final result."""
        game = self.game
        running = [0] * game.players
        rows = []
        for number, result in enumerate(game.results, start=1):
            row = {game.hand_word: number, **self._sheet_row(result)}
            for seat, points in enumerate(row[self.sheet_points]):
                running[seat] += points
            row["running"] = list(running)
            rows.append(row)
        final = game.result
        return {
            **self._sheet_heading(),
            "rows": rows,
            "final": None if final is None else final.to_json(),
        }

    def _sheet_heading(self) -> JSON:
        """What the game plays to, above the score sheet's rows."""
        return {}

    def _sheet_row(self, result: Any) -> JSON:
        """One finished hand's row of the score sheet, from its result."""
        raise NotImplementedError

    def card_names(self, cards: Iterable[int]) -> list[str]:
        """Cards as this game writes them in JSON (:meth:`card_name`)."""
        name = self.card_name
        return [name(card) for card in cards]

    def table_json(self, table: Sequence[Any]) -> list[Any]:
        """The melds on a table, in JSON (only games with a table)."""
        raise NotImplementedError

    def _last_result(self) -> JSON | None:
        """The last finished hand, revealed (public once it is scored): its result, every
        hand and the final table; ``None`` before the first hand ends."""
        game = self.game
        if not game.results:
            return None
        result = game.results[-1]
        data: JSON = result.to_json()
        data[game.hand_word] = len(game.results)
        data["hands"] = [self.card_names(hand) for hand in result.hands]
        data["table"] = self.table_json(game.finished_hands[-1].table)
        return data

    def revealed_table(self) -> JSON:
        """The cards on the table, for :meth:`reveal` (none in a game without a table)."""
        return {}

    def reveal(self) -> JSON:
        """The current hand with every hand shown (only for a finished game's replay)."""
        game = self.game
        hand = game.hand
        name = self.card_name
        return {
            "phase": hand.phase,
            "current_player": None if game.is_over else hand.current_player,
            "dealer": hand.dealer,
            "hand_number": game.hand_number,
            "hands": [[name(c) for c in hand.hand_cards(seat)] for seat in range(self.seats)],
            **self.revealed_table(),
            "discard_pile": [name(card) for card in getattr(hand, "discard_pile", ())],
            "stock_size": len(hand.stock),
            "scores": list(game.scores),
        }

    def summary(self) -> JSON:
        """Public scores, the hand number and, when over, the final result."""
        game = self.game
        return {
            "scores": list(game.scores),
            "hand_number": game.hand_number,
            "result": None if game.result is None else game.result.to_json(),
        }

    def bot_action(self, seat: int, bot: Any) -> JSON:
        if self.game.is_over or seat != self.game.current_player:
            raise IllegalActionError(f"seat {seat} is not to act", code="not_your_turn")
        chosen: _EngineAction = bot.act(self.game.observation(seat), self.game.legal_actions())
        return chosen.to_json()


def error_json(error: IllegalActionError | InvalidActionError) -> JSON:
    """An engine refusal as a check reports it: a stable code, the engine's words, and
    the facts a client needs to say it in the reader's language (``params``)."""
    if isinstance(error, IllegalActionError):
        return {
            "code": "illegal_action",
            "message": str(error),
            "rule": error.code,
            "params": refusal_params(error),
        }
    return {"code": "invalid_action", "message": str(error), "rule": None}


def checked(run: Callable[[], Any], **details: Any) -> JSON:
    """Run an engine check; ``{"ok": True}`` or ``{"ok": False, "error": ...}``.

    Only the engine's refusals are caught: a malformed action propagates as
    :class:`InvalidActionError` only when the caller did not parse it first.
    """
    try:
        run()
    except (IllegalActionError, InvalidActionError) as error:
        return {"ok": False, "error": error_json(error), **details}
    return {"ok": True, "error": None, **details}
