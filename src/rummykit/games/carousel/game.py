"""A Carousel game: hands until someone reaches the target, then the bonuses.

rules/carousel.md section 6: after a hand, when any cumulative score reaches 150 the game
ends; every player at or above it gets the game bonus; the round bonus (25 per round won)
goes to the others (default) or to everyone; the highest total wins, equal totals share.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummykit.cards import Card, make_rng
from rummykit.core import Event, IllegalActionError
from rummykit.games.carousel.hand import (
    CarouselAction,
    CarouselHand,
    CarouselHandResult,
    CarouselObservation,
    CarouselRules,
    new_hand,
)

__all__ = ["CarouselGame", "CarouselGameResult", "carousel_final_totals"]


@dataclass(frozen=True, slots=True)
class CarouselGameResult:
    """Final totals and their parts, per seat."""

    scores: tuple[int, ...]
    rounds_won: tuple[int, ...]
    game_bonus: tuple[int, ...]
    round_bonus: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "game_bonus": list(self.game_bonus),
            "round_bonus": list(self.round_bonus),
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


def carousel_final_totals(
    scores: Sequence[int], rounds_won: Sequence[int], rules: CarouselRules
) -> CarouselGameResult:
    """Final totals (rules/carousel.md section 6).

    >>> carousel_final_totals([162, 151, 120], [5, 4, 3], CarouselRules()).totals
    (262, 251, 195)
    >>> everyone = CarouselRules(round_bonus_to="all")
    >>> carousel_final_totals([162, 151, 120], [5, 4, 3], everyone).totals
    (387, 351, 195)
    """
    reached = [score >= rules.target for score in scores]
    game_bonus = tuple(rules.game_bonus if hit else 0 for hit in reached)
    round_bonus = tuple(
        rules.round_bonus * won if (rules.round_bonus_to == "all" or not hit) else 0
        for won, hit in zip(rounds_won, reached, strict=True)
    )
    totals = tuple(
        score + game + rounds
        for score, game, rounds in zip(scores, game_bonus, round_bonus, strict=True)
    )
    best = max(totals)
    return CarouselGameResult(
        scores=tuple(scores),
        rounds_won=tuple(rounds_won),
        game_bonus=game_bonus,
        round_bonus=round_bonus,
        totals=totals,
        winners=tuple(seat for seat, total in enumerate(totals) if total == best),
    )


class CarouselGame:
    """Hands of Carousel until a cumulative score reaches the target.

    The dealer passes to the left each hand; the first dealer is drawn from the seed.
    The next hand is dealt as soon as one ends.
    """

    def __init__(
        self,
        rules: CarouselRules | None = None,
        *,
        players: int = 3,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules or CarouselRules()
        self.players = players
        self.seed = seed
        self._rng: random.Random | None = make_rng(seed) if seed is not None else None
        drawn = (self._rng or make_rng(None)).randrange(players)
        self.first_dealer = drawn if first_dealer is None else first_dealer
        if not 0 <= self.first_dealer < players:
            raise ValueError(f"first_dealer must be a seat 0-{players - 1}")
        self.results: list[CarouselHandResult] = []
        self.finished_hands: list[CarouselHand] = []
        self.result: CarouselGameResult | None = None
        self.hand = self._deal(self.first_dealer, None)

    def _deal(self, dealer: int, deck: Sequence[int] | None) -> CarouselHand:
        if deck is not None:
            return new_hand(self.rules, players=self.players, dealer=dealer, deck=deck)
        seed = self._rng.getrandbits(63) if self._rng is not None else None
        return new_hand(self.rules, players=self.players, seed=seed, dealer=dealer)

    @property
    def is_over(self) -> bool:
        """True once the target is reached and the totals are made."""
        return self.result is not None

    @property
    def current_player(self) -> int:
        """The seat to act in the current hand."""
        return self.hand.current_player

    @property
    def hand_number(self) -> int:
        """1 for the first hand (the current or last hand)."""
        return len(self.results) + (0 if self.is_over else 1)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative hand scores (before the end-of-game bonuses)."""
        totals = [0] * self.players
        for result in self.results:
            for seat, points in enumerate(result.points):
                totals[seat] += points
        return tuple(totals)

    @property
    def rounds_won(self) -> tuple[int, ...]:
        """Rounds won per seat (co-winners each get one)."""
        won = [0] * self.players
        for result in self.results:
            for seat in result.winners:
                won[seat] += 1
        return tuple(won)

    def legal_actions(self) -> list[CarouselAction]:
        """The current hand's finite legal actions (none once the game is over)."""
        return [] if self.is_over else self.hand.legal_actions()

    def observation(self, seat: int) -> CarouselObservation:
        """The current hand's observation for ``seat`` with the game scores."""
        return replace(self.hand.observation(seat), scores=self.scores, target=self.rules.target)

    def apply(self, action: CarouselAction) -> list[Event]:
        """Apply an action to the current hand; deal the next hand or end the game."""
        if self.is_over:
            raise IllegalActionError(
                f"the game is over; {action} is not possible", code="game_over"
            )
        events = self.hand.apply(action)
        if self.hand.is_over:
            events.extend(self._hand_finished(None))
        return events

    def _hand_finished(self, next_deck: Sequence[int] | None) -> list[Event]:
        finished = self.hand
        assert finished.result is not None
        self.results.append(finished.result)
        self.finished_hands.append(finished)
        scores = self.scores
        if max(scores) >= self.rules.target:
            self.result = carousel_final_totals(scores, self.rounds_won, self.rules)
            return [Event("game_over", None, detail=self.result.to_json())]
        dealer = (finished.dealer + 1) % self.players
        self.hand = self._deal(dealer, next_deck)
        return [Event("new_hand", dealer, detail={"hand": self.hand_number, "scores": scores})]

    def clone(self) -> CarouselGame:
        """An independent copy."""
        other = CarouselGame.__new__(CarouselGame)
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other._rng = None
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.first_dealer = self.first_dealer
        other.results = self.results.copy()
        other.finished_hands = self.finished_hands.copy()
        other.result = self.result
        other.hand = self.hand.clone()
        return other

    def score_sheet(self) -> str:
        """One line per hand, then the bonuses and the totals."""
        seats = range(self.players)
        lines = ["hand  " + " ".join(f"{'seat ' + str(s):>8}" for s in seats) + "  how"]
        for number, result in enumerate(self.results, start=1):
            cells = " ".join(f"{('+' + str(p)) if p else '':>8}" for p in result.points)
            lines.append(f"{number:>4}  {cells}  {result.reason}")
        lines.append("score " + " ".join(f"{s:>8}" for s in self.scores))
        final = self.result
        if final is not None:
            lines.append("game  " + " ".join(f"{b:>8}" for b in final.game_bonus))
            lines.append("round " + " ".join(f"{b:>8}" for b in final.round_bonus))
            lines.append("total " + " ".join(f"{t:>8}" for t in final.totals))
            lines.append("winner(s): " + ", ".join(f"seat {w}" for w in final.winners))
        return "\n".join(lines)

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record that replays the whole game."""
        hands = [*self.finished_hands] + ([] if self.is_over else [self.hand])
        record: dict[str, Any] = {
            "variant": "carousel-game",
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [action.to_json() for hand in hands for action in hand.actions],
        }
        if self.seed is None:
            record["decks"] = [[int(card) for card in hand.deck] for hand in hands]
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CarouselGame:
        """Rebuild a game from :meth:`to_record`."""
        if record.get("variant") != "carousel-game":
            raise ValueError(f"not a carousel game record: {record.get('variant')!r}")
        decks = [[Card(int(c)) for c in deck] for deck in record.get("decks", ())]
        seed = record.get("seed")
        if seed is None and not decks:
            raise ValueError("a game record without a seed must list its decks")
        game = cls.__new__(cls)
        game.rules = CarouselRules.from_dict(record.get("rules", {}))
        game.players = int(record["players"])
        game.seed = seed
        game._rng = make_rng(seed) if seed is not None else None
        if game._rng is not None:
            game._rng.randrange(game.players)  # the first-dealer draw
        game.first_dealer = int(record.get("first_dealer", 0))
        game.results = []
        game.finished_hands = []
        game.result = None
        game.hand = game._deal(game.first_dealer, decks[0] if decks else None)
        for data in record.get("actions", ()):
            if game.is_over:
                raise ValueError("the record has actions after the end of the game")
            game.hand.apply(CarouselAction.from_json(data))
            if game.hand.is_over:
                index = len(game.results) + 1
                game._hand_finished(decks[index] if index < len(decks) else None)
        return game
