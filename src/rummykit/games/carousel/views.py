"""Carousel at a table: each seat's view, the spectator's, the revealed state of a
finished game, the check of a layout before it is played, and the solver's hint.

A meld submits the complete new table layout (melds in card notation, jokers declared:
``JK=5S``); :meth:`CarouselTableGame.check` says whether a layout is legal and what it
lays before it is played, and :meth:`CarouselTableGame.hint` returns the exact solver's
best placement. Natural cards are written by face (the two copies of a face cannot be
told apart in play), so a hand may show ``7H`` twice.

>>> table = CarouselTableGame(CarouselGame(players=3, seed=2))
>>> seat = table.current_seat
>>> view = table.view(seat)
>>> view["draws"], [a["kind"] for a in view["legal_actions"]]
(1, ['draw'])
>>> table.check(seat, {"kind": "knock"})["error"]["rule"]
'turn_not_finished'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummykit.cards import format_cards
from rummykit.games.carousel import (
    CarouselAction,
    CarouselGame,
    CarouselHandResult,
    CarouselObservation,
    carousel_hand_value,
)
from rummykit.games.carousel.under_rules import best_placement_under
from rummykit.table_game import JSON, TurnBasedTableGame, checked

__all__ = ["CarouselTableGame"]


class CarouselTableGame(TurnBasedTableGame):
    """A Carousel game behind the :class:`~rummykit.table_game.TableGame` interface."""

    action_type = CarouselAction
    game: CarouselGame

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        parsed = CarouselAction.from_json(action)
        hand = self.game.hand
        details: JSON = {}

        def run() -> None:
            self._parse_for(seat, action)
            # One layout check: the hand keeps it, and the act that follows reuses it.
            laid = hand.check(parsed)
            if laid is not None:
                details.update(
                    cards=self.card_names(laid.cards),
                    value=laid.value,
                    hand_value_after=carousel_hand_value(laid.remaining, hand.rules),
                    freed=self.card_names(laid.freed),
                )

        result = checked(run)
        result.update(details)
        return result

    def hint(self, seat: int) -> Callable[[], JSON]:
        observation = self.game.observation(seat)
        rules = self.game.rules
        decks = self.game.hand.decks

        def advise() -> JSON:
            placement = best_placement_under(
                rules,
                decks,
                observation.table,
                observation.hand,
                few_changes=True,  # a person follows the hint
            )
            if placement is None:
                return {"placement": None}
            return {
                "placement": {
                    "layout": [format_cards(meld) for meld in placement.layout],
                    "cards": self.card_names(placement.cards),
                    "value": placement.value,
                    "count": placement.count,
                    "freed": self.card_names(placement.freed),
                    "hand_value_after": carousel_hand_value(observation.hand, rules)
                    - placement.value,
                    "action": CarouselAction.meld(placement.layout).to_json(),
                }
            }

        return advise

    # -- views ----------------------------------------------------------------------------

    def _sheet_heading(self) -> JSON:
        return {"target": self.game.rules.target}

    def _sheet_row(self, result: CarouselHandResult) -> JSON:
        return {
            "reason": result.reason,
            "knocker": result.knocker,
            "winners": list(result.winners),
            "values": list(result.values),
            "points": list(result.points),
        }

    def _common(self, observation: CarouselObservation) -> JSON:
        game = self.game
        rules = game.rules
        return {
            **self._view_opening(observation),
            "discard_pile": [],
            "draws": observation.draws,
            "max_draws": rules.max_draws,
            "melded": observation.melded,
            "final_lap": observation.final_lap,
            "table": self.table_json(observation.table),
            "players": [
                {"seat": seat, "hand_size": size}
                for seat, size in enumerate(observation.hand_sizes)
            ],
            "scores": list(observation.scores),
            "target": observation.target,
            "knock_limit": rules.knock_limit,
            **self._view_closing(self._last_result()),
        }

    def _seat_fields(self, observation: CarouselObservation, my_turn: bool) -> JSON:
        return {
            "hand_value": carousel_hand_value(observation.hand, self.game.rules),
            "may_meld": my_turn and self.game.hand.may_meld(),
        }

    def _spectator_view(self) -> JSON:
        """Public information only: a seat's view without its hand."""
        data = self._common(self.game.observation(0))
        data.update(seat=None, legal_actions=[], may_meld=False)
        return data

    def table_json(self, table: Sequence[Sequence[int]]) -> list[list[str]]:
        return [self.card_names(meld) for meld in table]

    def revealed_table(self) -> JSON:
        return {"table": self.table_json(self.game.hand.table)}
