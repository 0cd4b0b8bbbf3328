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

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rummykit.cards import format_card, format_cards
from rummykit.games.carousel import (
    CarouselAction,
    CarouselGame,
    CarouselObservation,
    carousel_hand_value,
)
from rummykit.games.carousel.under_rules import best_placement_under
from rummykit.table_game import JSON, TurnBasedTableGame, checked

__all__ = ["CarouselTableGame"]


def _names(cards: Iterable[int]) -> list[str]:
    return [format_card(card) for card in cards]


class CarouselTableGame(TurnBasedTableGame):
    """A Carousel game behind the :class:`~rummykit.table_game.TableGame` interface."""

    action_type = CarouselAction

    def __init__(self, game: CarouselGame) -> None:
        self.game: CarouselGame = game

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
                    cards=_names(laid.cards),
                    value=laid.value,
                    hand_value_after=carousel_hand_value(laid.remaining, hand.rules),
                    freed=_names(laid.freed),
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
                    "cards": _names(placement.cards),
                    "value": placement.value,
                    "count": placement.count,
                    "freed": _names(placement.freed),
                    "hand_value_after": carousel_hand_value(observation.hand, rules)
                    - placement.value,
                    "action": CarouselAction.meld(placement.layout).to_json(),
                }
            }

        return advise

    # -- views ----------------------------------------------------------------------------

    def _score_sheet(self) -> JSON:
        game = self.game
        rows = []
        running = [0] * game.players
        for number, result in enumerate(game.results, start=1):
            for seat, points in enumerate(result.points):
                running[seat] += points
            rows.append(
                {
                    "hand": number,
                    "reason": result.reason,
                    "knocker": result.knocker,
                    "winners": list(result.winners),
                    "values": list(result.values),
                    "points": list(result.points),
                    "running": list(running),
                }
            )
        return {
            "target": game.rules.target,
            "rows": rows,
            "final": None if game.result is None else game.result.to_json(),
        }

    def _last_result(self) -> JSON | None:
        game = self.game
        if not game.results:
            return None
        data = game.results[-1].to_json()
        data.update(
            hand=len(game.results),
            hands=[_names(hand) for hand in game.results[-1].hands],
            table=[_names(meld) for meld in game.finished_hands[-1].table],
        )
        return data

    def _common(self, observation: CarouselObservation) -> JSON:
        game = self.game
        rules = game.rules
        return {
            "variant": "carousel",
            "phase": observation.phase,
            "current_player": None if game.is_over else observation.current_player,
            "dealer": observation.dealer,
            "hand_number": game.hand_number,
            "stock_size": observation.stock_size,
            "discard_pile": [],
            "draws": observation.draws,
            "max_draws": rules.max_draws,
            "melded": observation.melded,
            "final_lap": observation.final_lap,
            "table": [_names(meld) for meld in observation.table],
            "players": [
                {"seat": seat, "hand_size": size}
                for seat, size in enumerate(observation.hand_sizes)
            ],
            "scores": list(observation.scores),
            "target": observation.target,
            "knock_limit": rules.knock_limit,
            "score_sheet": self._score_sheet(),
            "last_result": self._last_result(),
            "last_result_hand": len(game.results),
            "is_over": game.is_over,
        }

    def view(self, seat: int | None) -> JSON:
        if seat is None:
            return self._spectator_view()
        observation = self.game.observation(seat)
        data = self._common(observation)
        my_turn = not self.game.is_over and observation.current_player == seat
        data.update(
            seat=seat,
            hand=_names(observation.hand),
            hand_value=carousel_hand_value(observation.hand, self.game.rules),
            legal_actions=self.legal_actions() if my_turn else [],
            may_meld=my_turn and self.game.hand.may_meld(),
        )
        return data

    def _spectator_view(self) -> JSON:
        """Public information only: a seat's view without its hand."""
        data = self._common(self.game.observation(0))
        data.update(seat=None, legal_actions=[], may_meld=False)
        return data

    def revealed_table(self) -> JSON:
        return {"table": [_names(meld) for meld in self.game.hand.table]}
