"""Variant adapters: the registry of what the table server hosts, and Gin's adapter.

:mod:`rummykit.server.adapter` defines what an adapter is (:class:`VariantAdapter`, the
:class:`Game` it builds); Rami's and Carousel's adapters live in
:mod:`rummykit.server.rami_adapter` and :mod:`rummykit.server.carousel_adapter`, Gin's
is here (:class:`GinAdapter`). Every view derives from the engine's
``observation(seat)``; a game is a pure function of (rules, seats, seed, actions), so
the server persists exactly that and rebuilds a table by :meth:`VariantAdapter.replay`.

>>> sorted(ADAPTERS)
['carousel', 'gin', 'rami']
>>> adapter = get_adapter("gin")
>>> game = adapter.new_game(adapter.make_rules("gin", {"target": 50}), seats=2, seed=7)
>>> game.current_seat, [a["kind"] for a in game.legal_actions()]
(0, ['take_upcard', 'pass'])
>>> applied = game.apply(0, {"kind": "pass"})
>>> applied.action, game.current_seat
({'kind': 'pass'}, 1)
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from rummykit.bots.base import Bot
from rummykit.cards import format_card, format_cards
from rummykit.core import Event, IllegalActionError
from rummykit.games.gin import (
    GinAction,
    GinHandResult,
    GinMatch,
    GinObservation,
    GinRules,
    best_discard,
    deadwood_after_each_discard,
    mask_of,
    min_deadwood,
)
from rummykit.server.adapter import (
    JSON,
    Applied,
    Game,
    RegisteredBots,
    RuleOption,
    VariantAdapter,
    checked,
    merge_options,
    rule_options_of,
)
from rummykit.server.carousel_adapter import CarouselAdapter, CarouselTableGame
from rummykit.server.rami_adapter import RamiAdapter, RamiTableGame

__all__ = [
    "ADAPTERS",
    "JSON",
    "Applied",
    "CarouselAdapter",
    "CarouselTableGame",
    "Game",
    "GinAdapter",
    "GinGame",
    "RamiAdapter",
    "RamiTableGame",
    "RuleOption",
    "VariantAdapter",
    "get_adapter",
    "rule_options_of",
]


# -- Gin ---------------------------------------------------------------------------------


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


class GinGame:
    """A Gin Rummy match (rules/gin.md) behind the :class:`Game` interface."""

    seats = 2

    def __init__(self, match: GinMatch) -> None:
        self.match = match
        # Finished hands never change: their showdowns and the score sheet are kept.
        self._finished: dict[tuple[int, int], JSON | None] = {}
        self._sheet: tuple[int, JSON] | None = None
        # Each seat's last hand and its best arrangement: a hand changes only on its
        # owner's moves, so the other seat's moves re-use it (views are built after
        # every move, for every connected seat).
        self._arranged: list[tuple[tuple[int, ...], JSON] | None] = [None, None]

    @property
    def current_seat(self) -> int | None:
        return None if self.match.is_over else self.match.current_player

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def legal_actions(self) -> list[JSON]:
        return [_action_json(action) for action in self.match.legal_actions()]

    def apply(self, seat: int, action: Mapping[str, Any]) -> Applied:
        match = self.match
        if match.is_over:
            raise IllegalActionError("the match is over; no more moves", code="match_over")
        parsed = GinAction.from_json(action)
        if seat != match.current_player:
            raise IllegalActionError(
                f"seat {seat} cannot {parsed.kind.replace('_', ' ')}: it is seat "
                f"{match.current_player}'s turn",
                code="not_your_turn",
                seat=seat,
            )
        events = match.apply(parsed)
        return Applied(parsed.to_json(), events)

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[JSON]:
        return [event.seen_by(seat).to_json() for event in events]

    def bot_action(self, seat: int, bot: Any) -> JSON:
        if seat != self.match.current_player or self.match.is_over:
            raise IllegalActionError(f"seat {seat} is not to act", code="not_your_turn")
        gin_bot: Bot[GinObservation, GinAction] = bot
        chosen = gin_bot.act(self.match.observation(seat), self.match.legal_actions())
        return chosen.to_json()

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

    def _common(self, observation: GinObservation, scores: tuple[int, int]) -> JSON:
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
            "variant": "gin",
            "phase": observation.phase,
            "current_player": None if match.is_over else observation.current_player,
            "dealer": observation.dealer,
            "hand_number": match.hand_number,
            "stock_size": observation.stock_size,
            "discard_pile": [_name(card) for card in observation.discard_pile],
            "upcard": None if observation.upcard is None else _name(observation.upcard),
            "knocker_melds": [format_cards(meld) for meld in observation.knocker_melds],
            "scores": list(scores),
            "target": match.rules.target,
            "score_sheet": self._score_sheet(),
            "last_result": last_result,
            "last_result_hand": len(match.finished_hands),
            "is_over": match.is_over,
        }

    def view(self, seat: int | None) -> JSON:
        if seat is None:
            return self._spectator_view()
        # The hand's own observation, not the match's: the match only adds the scores
        # (with a dataclass copy that cost more than the rest of the view).
        observation = self.match.hand.observation(seat)
        data = self._common(observation, self.match.points)
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
        my_turn = not self.match.is_over and observation.current_player == seat
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
        data = self._common(views[0], self.match.points)
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

    def summary(self) -> JSON:
        match = self.match
        return {
            "scores": list(match.points),
            "hand_number": match.hand_number,
            "result": None if match.result is None else match.result.to_json(),
        }

    def reveal(self) -> JSON:
        match = self.match
        hand = match.hand
        return {
            "phase": hand.phase,
            "current_player": None if match.is_over else hand.current_player,
            "dealer": hand.dealer,
            "hand_number": match.hand_number,
            "hands": [format_cards(hand.hand_cards(seat)).split() for seat in (0, 1)],
            "discard_pile": [_name(card) for card in hand.discard_pile],
            "stock_size": len(hand.stock),
            "scores": list(match.points),
        }

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        parsed = GinAction.from_json(action)

        def run() -> None:
            if seat != self.current_seat:
                raise IllegalActionError(
                    f"seat {seat} is not to act", code="not_your_turn", seat=seat
                )
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


class GinAdapter(RegisteredBots):
    """The Gin Rummy adapter: a :class:`GinMatch` per table; bots from the registry."""

    name = "gin"
    title = "Gin Rummy"
    min_seats = 2
    max_seats = 2
    presets: Mapping[str, Mapping[str, Any]] = types.MappingProxyType(
        {"gin": types.MappingProxyType({})}
    )

    def rule_options(self) -> list[RuleOption]:
        return rule_options_of(GinRules)

    def make_rules(self, preset: str, options: Mapping[str, Any]) -> JSON:
        merged = merge_options("gin", self.presets, preset, options, self.rule_options())
        return GinRules.from_dict(merged).to_dict()

    def new_game(self, rules: Mapping[str, Any], *, seats: int, seed: int) -> GinGame:
        if seats != 2:
            raise ValueError(f"gin is for 2 seats, not {seats}")
        return GinGame(GinMatch(GinRules.from_dict(rules), seed=seed))

    def bot_rules(self, rules: Mapping[str, Any]) -> GinRules:
        return GinRules.from_dict(rules)

    def replay(
        self,
        rules: Mapping[str, Any],
        *,
        seats: int,
        seed: int,
        actions: Iterable[tuple[int, JSON]],
    ) -> GinGame:
        game = self.new_game(rules, seats=seats, seed=seed)
        for seat, action in actions:
            game.apply(seat, action)
        return game


ADAPTERS: dict[str, VariantAdapter] = {
    "gin": GinAdapter(),
    "rami": RamiAdapter(),
    "carousel": CarouselAdapter(),
}
"""Every variant the server hosts, by name (the lobby lists them in this order)."""


def get_adapter(name: str) -> VariantAdapter:
    """The adapter of variant ``name``; ``ValueError`` names the known ones."""
    try:
        return ADAPTERS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown variant {name!r}; available: {', '.join(sorted(ADAPTERS))}"
        ) from None
