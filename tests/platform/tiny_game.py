"""A tiny test-only game, registered through the catalog like any game rummykit ships.

*High Cards*: each hand, every player is dealt ``hand_size`` cards from one deck and, in
turn, plays one card face up until every hand is empty; the player whose played cards
add up the most (ace 1, courts 10) wins the hand (ties share it). The first player to
win ``target`` hands wins the game. It exists only to prove that a new game needs
nothing but its own package and one registration: nothing of the platform names it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.bots.random_bot import RandomBot
from rummykit.cards import DeckSpec, card_value_gin, format_card, parse_card, shuffled_deck
from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.core import Event, IllegalActionError, InvalidActionError, RulesBase
from rummykit.match import Match
from rummykit.options import option
from rummykit.table_game import JSON, TurnBasedTableGame

NAME = "high-cards"


@dataclass(frozen=True, slots=True)
class HighCardsRules(RulesBase):
    variant = NAME

    hand_size: int = option(3, low=1, high=10, help="cards dealt to each player")
    target: int = option(2, low=1, high=20, help="hands to win the game")


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: int
    kind: str = "play"

    def to_json(self) -> JSON:
        return {"kind": "play", "card": format_card(self.card)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayCard:
        if not isinstance(data, Mapping) or data.get("kind") != "play":
            raise InvalidActionError("a high-cards action is {'kind': 'play', 'card': ...}")
        card = data.get("card")
        if not isinstance(card, str):
            raise InvalidActionError("play needs a card")
        return cls(int(parse_card(card)))

    def __str__(self) -> str:
        return f"play {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class HandResult:
    points: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> JSON:
        return {"points": list(self.points), "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    hand: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    current_player: int


@dataclass
class HighCardsHand:
    rules: HighCardsRules
    players: int
    dealer: int
    hands: list[list[int]]
    played: list[list[int]] = field(default_factory=list)
    actions: list[PlayCard] = field(default_factory=list)
    current_player: int = 0
    result: HandResult | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self) -> list[PlayCard]:
        if self.is_over:
            return []
        return [PlayCard(card) for card in sorted(self.hands[self.current_player])]

    def check(self, action: PlayCard) -> None:
        if self.is_over or action.card not in self.hands[self.current_player]:
            raise IllegalActionError(
                f"seat {self.current_player} does not hold {format_card(action.card)}",
                code="not_in_hand",
                seat=self.current_player,
                card=action.card,
            )

    def apply(self, action: PlayCard) -> list[Event]:
        self.check(action)
        seat = self.current_player
        self.hands[seat].remove(action.card)
        self.played[seat].append(action.card)
        self.actions.append(action)
        events = [Event("play", seat, action.card)]
        self.current_player = (seat + 1) % self.players
        if not any(self.hands):
            points = tuple(sum(card_value_gin(c) for c in cards) for cards in self.played)
            best = max(points)
            winners = tuple(s for s, p in enumerate(points) if p == best)
            self.result = HandResult(points, winners)
            events.append(Event("hand_over", None, detail=self.result.to_json()))
        return events

    def observation(self, seat: int) -> Observation:
        return Observation(
            seat,
            tuple(sorted(self.hands[seat])),
            tuple(tuple(cards) for cards in self.played),
            self.current_player,
        )

    def clone(self) -> HighCardsHand:
        return HighCardsHand(
            self.rules,
            self.players,
            self.dealer,
            [list(h) for h in self.hands],
            [list(p) for p in self.played],
            list(self.actions),
            self.current_player,
            self.result,
        )

    def to_record(self) -> dict[str, Any]:
        return {"deck": [c for hand in self.hands for c in hand]}


@dataclass(frozen=True, slots=True)
class GameResult:
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> JSON:
        return {"totals": list(self.totals), "winners": list(self.winners)}


class HighCardsGame(Match[HighCardsHand, GameResult]):
    record_kind = "high-cards-game"
    rules_type = HighCardsRules

    def __init__(
        self,
        rules: HighCardsRules | None = None,
        *,
        players: int = 2,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        super().__init__(
            rules or HighCardsRules(), players=players, seed=seed, first_dealer=first_dealer
        )

    @property
    def scores(self) -> tuple[int, ...]:
        won = [0] * self.players
        for result in self.results:
            for seat in result.winners:
                won[seat] += 1
        return tuple(won)

    def _new_hand(self, dealer: int, seed: int | None, stored: Any | None) -> HighCardsHand:
        deck = (
            list(stored) if stored is not None else shuffled_deck(DeckSpec(), random.Random(seed))
        )
        size = self.rules.hand_size
        hands = [sorted(deck[s * size : (s + 1) * size]) for s in range(self.players)]
        first = (dealer + 1) % self.players
        return HighCardsHand(
            self.rules, self.players, dealer, hands, [[] for _ in hands], [], first
        )

    def _settle(self, finished: HighCardsHand) -> list[Event]:
        scores = self.scores
        if max(scores) >= self.rules.target:
            best = max(scores)
            self.result = GameResult(scores, tuple(s for s, v in enumerate(scores) if v == best))
            return [Event("game_over", None, detail=self.result.to_json())]
        self._next_hand((finished.dealer + 1) % self.players)
        return [Event("new_hand", self.hand.dealer, detail={"hand": self.hand_number})]

    def _parse_action(self, data: Mapping[str, Any]) -> PlayCard:
        return PlayCard.from_json(data)

    def observation(self, seat: int) -> Observation:
        return self.hand.observation(seat)


class HighCardsTable(TurnBasedTableGame):
    action_type = PlayCard

    def __init__(self, game: HighCardsGame) -> None:
        self.game = game

    def view(self, seat: int | None) -> JSON:
        game = self.game
        observation = game.observation(0 if seat is None else seat)
        mine = seat is not None and not game.is_over and game.current_player == seat
        return {
            "variant": NAME,
            "seat": seat,
            "hand": None if seat is None else [format_card(c) for c in observation.hand],
            "played": [[format_card(c) for c in cards] for cards in observation.played],
            "current_player": None if game.is_over else game.current_player,
            "scores": list(game.scores),
            "is_over": game.is_over,
            "legal_actions": self.legal_actions() if mine else [],
        }

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        return {"ok": True, "error": None}

    def hint(self, seat: int) -> Any:
        return lambda: {}

    def reveal(self) -> JSON:
        return {"hands": [[format_card(c) for c in h] for h in self.game.hand.hands]}


class HighCardsVariant(Variant):
    name = NAME
    title = "High Cards (test only)"
    description = "a test-only game: play your highest cards"
    min_players = 2
    max_players = 4

    rules_type = HighCardsRules
    action_type = PlayCard
    game_type = HighCardsGame
    table_game_type = HighCardsTable


def _random_bot(*, seed: int, rules: Any, players: int) -> RandomBot:
    return RandomBot(seed)


def _highest_bot(*, seed: int, rules: Any, players: int) -> HighestBot:
    return HighestBot()


class HighestBot:
    """Plays its highest card."""

    name = "heuristic"

    def act(self, observation: Observation, legal: Sequence[PlayCard]) -> PlayCard:
        return max(legal, key=lambda action: (card_value_gin(action.card), action.card))


register_variant(HighCardsVariant())
register_bot(NAME, "random", _random_bot, description="plays a random card")
register_bot(NAME, "heuristic", _highest_bot, description="plays its highest card")
