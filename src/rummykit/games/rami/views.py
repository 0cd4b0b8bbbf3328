"""Rami at a table: each seat's view, the spectator's, the revealed state of a finished
game, the check of an opening or a play before it is made, and the solvers' hint.

Openings, melds, lay-offs and joker swaps are open-ended, so the view of the seat to act
lists the finite actions (draws, ``end_play``, discards) and, once it has opened, every
lay-off and joker swap the solver finds (``moves``); :meth:`RamiTableGame.check` reports
what an opening adds up to against the threshold before it is played, and
:meth:`RamiTableGame.hint` the solver's best opening or plays.

Cards are physical tokens (``7H``, ``7H@1`` for the second deck's, ``JK@2``) in hands
and actions, so two copies of a card stay two cards; table combinations are written
with their jokers' declarations (``JK=6S 7S 8S``). Combinations keep their 0-based
``index`` in this JSON (actions name them by it); people see them numbered from 1.

>>> from rummykit.games.rami import PRESETS
>>> table = RamiTableGame(RamiGame(PRESETS["rami40"], players=3, seed=5))
>>> view = table.view(table.current_seat)
>>> view["threshold"], len(view["hand"]), [a["kind"] for a in view["legal_actions"]]
(40, 13, ['draw_stock', 'take_discard'])
>>> "hand" in table.view(None)
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rummykit.cards import format_card
from rummykit.errors import InvalidMeldError
from rummykit.games.rami import (
    Combination,
    RamiAction,
    RamiGame,
    RamiObservation,
    RamiRoundResult,
    best_melds,
    best_opening,
    card_token,
    combination_from_cards,
    hand_value,
    legal_moves,
)
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot
from rummykit.table_game import JSON, TurnBasedTableGame, checked

__all__ = ["RamiTableGame"]


def _tokens(cards: Iterable[int]) -> list[str]:
    return [card_token(card) for card in cards]


def _combination_json(index: int, combo: Combination) -> JSON:
    """A table combination as the browser numbers and draws it."""
    return {
        "index": index,
        "owner": combo.owner,
        "kind": combo.kind,
        "cards": [format_card(card) for card in combo.cards],
        "value": combo.value,
        "name": combo.describe(),
        "has_joker": combo.has_joker,
    }


class RamiTableGame(TurnBasedTableGame):
    """A game of Rami behind the :class:`~rummykit.table_game.TableGame` interface."""

    action_type = RamiAction
    sheet_points = "penalties"
    game: RamiGame

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        parsed = RamiAction.from_json(action)
        details: JSON = {}
        if parsed.kind in ("open", "meld") and parsed.combos is not None:
            details = self._combination_values(seat, parsed.combos, parsed.kind == "open")

        def run() -> None:
            self._parse_for(seat, action)
            self.game.check(parsed)

        return checked(run, **details)

    def _combination_values(
        self, seat: int, combos: Sequence[Sequence[int]], opening: bool
    ) -> JSON:
        """Each combination's table value (or why it is no combination), and the total
        against the opening threshold: the live count of the opening builder."""
        rules = self.game.rules
        parts: list[JSON] = []
        total = 0
        for cards in combos:
            part: JSON = {"cards": _tokens(cards)}
            try:
                combo = combination_from_cards(cards, seat, shifts=rules.end_joker_shifts)
            except InvalidMeldError as error:
                part.update(valid=False, value=0, reason=str(error))
            else:
                part.update(
                    valid=True, value=combo.value, name=combo.describe(), cards=_tokens(cards)
                )
                total += combo.value
            parts.append(part)
        details: JSON = {"combos": parts, "total": total}
        if opening:
            details.update(
                threshold=rules.opening_threshold,
                reaches=total >= rules.opening_threshold and all(p["valid"] for p in parts),
            )
        return details

    def hint(self, seat: int) -> Callable[[], JSON]:
        observation = self.game.observation(seat)
        mine = not self.game.is_over and observation.current_player == seat
        legal = self.game.legal_actions() if mine else []
        return lambda: _advice(observation, legal, mine)

    # -- views ----------------------------------------------------------------------------

    def _sheet_heading(self) -> JSON:
        rules = self.game.rules
        return {"end_mode": rules.end_mode, "limit": rules.limit, "rounds": rules.rounds}

    def _sheet_row(self, result: RamiRoundResult) -> JSON:
        return {
            "outcome": result.outcome,
            "winners": list(result.winners),
            "penalties": list(result.penalties),
            "rami_sec": result.rami_sec,
            "blocked_reason": result.blocked_reason,
        }

    def _common(self, observation: RamiObservation) -> JSON:
        game = self.game
        rules = game.rules
        players = [
            {
                "seat": seat,
                "hand_size": observation.hand_sizes[seat],
                "opened": observation.opened[seat],
                "known_cards": _tokens(observation.known_cards[seat]),
                "active": seat in observation.active,
            }
            for seat in range(observation.players)
        ]
        upcard = observation.upcard
        return {
            **self._view_opening(observation),
            "round_number": game.round_number,
            "turn": observation.turn,
            "discard_pile": _tokens(observation.discard_pile),
            "upcard": None if upcard is None else card_token(upcard),
            "refills": observation.refills,
            "max_reshuffles": rules.max_reshuffles,
            "table": self.table_json(observation.table),
            "players": players,
            "scores": list(game.totals),
            "threshold": rules.opening_threshold,
            **self._view_closing(self._last_result()),
        }

    def _seat_fields(self, observation: RamiObservation, my_turn: bool) -> JSON:
        rules = self.game.rules
        taken = observation.taken_card
        opened = observation.opened[observation.seat]
        moves: list[JSON] = []
        if (
            my_turn
            and observation.phase == "play"
            and opened
            and not (observation.opened_this_turn and not rules.play_after_open_same_turn)
        ):
            found = legal_moves(observation.hand, observation.table, rules, taken=taken)
            moves = [move.to_json() for move in found]
        return {
            "hand_value": hand_value(observation.hand, rules),
            "taken_card": None if taken is None else card_token(taken),
            "opened": opened,
            "opened_this_turn": observation.opened_this_turn,
            "moves": moves,
        }

    def _spectator_view(self) -> JSON:
        """Public information only: an active seat's view without its hand."""
        observation = self.game.observation(self.game.round.active[0])
        data = self._common(observation)
        data.update(seat=None, legal_actions=[], moves=[])
        return data

    def card_name(self, card: int) -> str:
        return card_token(card)

    def table_json(self, table: Sequence[Combination]) -> list[JSON]:
        return [_combination_json(index, combo) for index, combo in enumerate(table)]

    def revealed_table(self) -> JSON:
        return {"table": self.table_json(self.game.hand.table)}


def _advice(observation: RamiObservation, legal: Sequence[RamiAction], mine: bool) -> JSON:
    """The solvers' advice from one observation: the best opening (least penalty left)
    before opening, the best new combinations and every lay-off or swap after it, and
    the heuristic bot's next move when the seat is to act."""
    rules = observation.rules
    hand = observation.hand
    taken = observation.taken_card
    advice: JSON = {"opened": observation.opened[observation.seat]}
    if not observation.opened[observation.seat]:
        opening = best_opening(hand, rules, taken=taken)
        advice["opening"] = (
            None
            if opening is None
            else {
                "combos": [_tokens(combo) for combo in opening.combos],
                "value": opening.value,
                "penalty_left": opening.penalty_left,
                "exempt": opening.exempt,
                "action": opening.action().to_json(),
            }
        )
    else:
        melds = best_melds(hand, rules, taken=taken)
        advice["melds"] = [] if melds is None else [_tokens(combo) for combo in melds.combos]
        advice["moves"] = [
            move.to_json() for move in legal_moves(hand, observation.table, rules, taken=taken)
        ]
    if mine and legal:
        suggestion = RamiHeuristicBot(rules).act(observation, legal)
        advice["suggestion"] = {"action": suggestion.to_json(), "text": str(suggestion)}
    return advice
