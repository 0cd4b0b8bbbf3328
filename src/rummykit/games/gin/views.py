"""Gin Rummy at a table: each seat's view, the spectator's, the revealed state of a
finished game, the check of an action before it is played, and the solver's hint.

Every view derives from the hand's ``observation(seat)``. Finished hands never change,
so their showdowns and the score sheet are computed once; a seat's best arrangement is
recomputed only when its hand changed (views are built after every move, for every
connected seat).

>>> table = GinTableGame(GinMatch(seed=7))
>>> table.current_seat, [a["kind"] for a in table.legal_actions()]
(0, ['take_upcard', 'pass'])
>>> table.apply(0, {"kind": "pass"}).action, table.current_seat
({'kind': 'pass'}, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from rummykit.cards import format_card, format_cards
from rummykit.games.gin import (
    GinAction,
    GinHandResult,
    GinMatch,
    GinObservation,
    best_discard,
    deadwood_after_each_discard,
    mask_of,
    min_deadwood,
)
from rummykit.table_game import JSON, TurnBasedTableGame, checked

__all__ = ["GinTableGame"]


_NAMES: Final = tuple(format_card(card) for card in range(52))
"""Notation of the 52 gin cards, looked up rather than formatted (views are hot)."""


def _name(card: int) -> str:
    return _NAMES[card]


def _result_json(result: GinHandResult | None) -> JSON | None:
    return None if result is None else result.to_json()


_ACTION_JSON: dict[GinAction, JSON] = {}


def _action_json(action: GinAction) -> JSON:
    """An action's JSON, kept per action (the engine reuses its simple action objects)."""
    data = _ACTION_JSON.get(action)
    if data is None:
        data = action.to_json()
        if len(_ACTION_JSON) < 4096:
            _ACTION_JSON[action] = data
    return dict(data)


class GinTableGame(TurnBasedTableGame):
    """A Gin Rummy match behind the :class:`~rummykit.table_game.TableGame` interface."""

    action_type = GinAction

    def __init__(self, match: GinMatch) -> None:
        super().__init__(match)
        self.match = match
        # Finished hands never change: their showdowns and the score sheet are kept.
        self._finished: dict[tuple[int, int], JSON | None] = {}
        self._sheet: tuple[int, JSON] | None = None
        # Each seat's last hand and its best arrangement: a hand changes only on its
        # owner's moves, so the other seat's moves re-use it (views are built after
        # every move, for every connected seat).
        self._arranged: list[tuple[tuple[int, ...], JSON] | None] = [None, None]

    @property
    def seats(self) -> int:
        return 2

    def legal_actions(self) -> list[JSON]:
        return [_action_json(action) for action in self.match.legal_actions()]

    # -- views --------------------------------------------------------------------------

    def _score_sheet(self) -> JSON:
        match = self.match
        key = len(match.results) + (1 if match.result is not None else 0) * 100_000
        if self._sheet is not None and self._sheet[0] == key:
            return self._sheet[1]
        rows = []
        running = [0, 0]
        for number, (hand, result) in enumerate(
            zip(match.finished_hands, match.results, strict=True), start=1
        ):
            if result.winner is not None:
                running[result.winner] += result.points
            rows.append(
                {
                    "hand": number,
                    "dealer": hand.dealer,
                    "outcome": result.outcome,
                    "winner": result.winner,
                    "points": result.points,
                    "running": list(running),
                }
            )
        final = match.result
        sheet = {
            "target": match.rules.target,
            "rows": rows,
            "final": None if final is None else final.to_json(),
        }
        self._sheet = (key, sheet)
        return sheet

    def _common(self, observation: GinObservation) -> JSON:
        match = self.match
        last_result: JSON | None = None
        count = len(match.finished_hands)
        if count:
            key = (count, observation.seat)
            if key not in self._finished:
                finished = match.finished_hands[-1]
                self._finished[key] = _result_json(finished.observation(observation.seat).result)
            last_result = self._finished[key]
        return {
            **self._view_opening(observation),
            "discard_pile": [_name(card) for card in observation.discard_pile],
            "upcard": None if observation.upcard is None else _name(observation.upcard),
            "knocker_melds": [format_cards(meld) for meld in observation.knocker_melds],
            "scores": list(match.points),
            "target": match.rules.target,
            **self._view_closing(last_result),
        }

    def view(self, seat: int | None) -> JSON:
        if seat is None:
            return self._spectator_view()
        # The hand's own observation, not the match's: the match only adds the scores
        # (with a dataclass copy that cost more than the rest of the view).
        observation = self.match.hand.observation(seat)
        data = self._common(observation)
        hand = observation.hand
        arranged = self._arranged[seat]
        if arranged is None or arranged[0] != hand:
            best = min_deadwood(hand, ace_high=self.match.rules.ace_high_runs)
            arranged = (
                hand,
                {
                    "melds": [[_name(card) for card in meld] for meld in best.melds],
                    "deadwood": best.deadwood,
                    "deadwood_cards": [_name(card) for card in best.deadwood_cards],
                },
            )
            self._arranged[seat] = arranged
        my_turn = self.current_seat == seat
        players: list[JSON] = [{}, {}]
        players[seat] = {"seat": seat, "hand_size": len(hand), "known_cards": []}
        players[1 - seat] = {
            "seat": 1 - seat,
            "hand_size": observation.opponent_hand_size,
            "known_cards": [_name(card) for card in observation.opponent_known_cards],
        }
        discard_deadwood: JSON = {}
        if my_turn and observation.phase == "discard":
            after = deadwood_after_each_discard(mask_of(hand), self.match.rules.ace_high_runs)
            discard_deadwood = {_name(card): value for card, value in after.items()}
        data.update(
            seat=seat,
            players=players,
            hand=[_name(card) for card in hand],
            taken_card=None if observation.taken_card is None else _name(observation.taken_card),
            melds=[list(meld) for meld in arranged[1]["melds"]],
            deadwood=arranged[1]["deadwood"],
            deadwood_cards=list(arranged[1]["deadwood_cards"]),
            discard_deadwood=discard_deadwood,
            legal_actions=self.legal_actions() if my_turn else [],
        )
        return data

    def _spectator_view(self) -> JSON:
        """Public information only: what both seats' observations have in common."""
        views = [self.match.hand.observation(0), self.match.hand.observation(1)]
        # The showdown is public: both seats' observations carry the same result.
        data = self._common(views[0])
        data.update(
            seat=None,
            players=[
                {
                    "seat": seat,
                    "hand_size": views[1 - seat].opponent_hand_size,
                    "known_cards": [_name(card) for card in views[1 - seat].opponent_known_cards],
                }
                for seat in (0, 1)
            ],
            legal_actions=[],
        )
        return data

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        parsed = GinAction.from_json(action)

        def run() -> None:
            self._parse_for(seat, action)
            self.match.clone().apply(parsed)

        return checked(run)

    def hint(self, seat: int) -> Callable[[], JSON]:
        hand = self.match.observation(seat).hand
        ace_high = self.match.rules.ace_high_runs

        def advise() -> JSON:
            if len(hand) == 11:
                best = best_discard(hand, ace_high=ace_high)
                return {"discard": _name(best.card), "deadwood": best.deadwood}
            arrangement = min_deadwood(hand, ace_high=ace_high)
            return {
                "melds": [[_name(card) for card in meld] for meld in arrangement.melds],
                "deadwood": arrangement.deadwood,
            }

        return advise
