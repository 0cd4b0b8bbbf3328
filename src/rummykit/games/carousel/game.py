"""A Carousel game: hands until someone reaches the target, then the bonuses.

The Carousel rules, section 6: after a hand, when any cumulative score reaches 150 the game
ends; every player at or above it gets the game bonus; the round bonus (25 per round won)
goes to the others (default) or to everyone; the highest total wins, equal totals share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummykit.cards import Card
from rummykit.core import Event
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.hand import (
    CarouselHand,
    CarouselHandResult,
    CarouselObservation,
    new_hand,
)
from rummykit.games.carousel.layout import LayoutCheck
from rummykit.games.carousel.rules import CarouselRules
from rummykit.i18n import N_, Translator
from rummykit.match import Match, SheetRow

__all__ = ["CarouselGame", "CarouselGameResult", "carousel_final_totals"]

# How a hand ended, as the score sheet notes it.
_REASONS = {
    "knock": N_("knock"),
    "went_out": N_("went out"),
    "stock_exhausted": N_("stock exhausted"),
}


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
    """Final totals (the Carousel rules, section 6).

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


class CarouselGame(Match[CarouselHand, CarouselGameResult]):
    """Hands of Carousel until a cumulative score reaches the target.

    The dealer passes to the left each hand; the first dealer is drawn from the seed.
    The next hand is dealt as soon as one ends (:class:`rummykit.match.Match` does the
    dealing, records, replay and cloning).
    """

    record_kind = "carousel-game"
    rules_type = CarouselRules
    _over_rule = "carousel-6.1"
    rules: CarouselRules
    results: list[CarouselHandResult]

    def __init__(
        self,
        rules: CarouselRules | None = None,
        *,
        players: int = 3,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        super().__init__(
            rules or CarouselRules(), players=players, seed=seed, first_dealer=first_dealer
        )

    def _new_hand(self, dealer: int, seed: int | None, stored: Any | None) -> CarouselHand:
        if stored is not None:
            deck = [Card(int(card)) for card in stored]
            return new_hand(self.rules, players=self.players, dealer=dealer, deck=deck)
        return new_hand(self.rules, players=self.players, seed=seed, dealer=dealer)

    def _settle(self, finished: CarouselHand) -> list[Event]:
        scores = self.scores
        if max(scores) >= self.rules.target:
            self.result = carousel_final_totals(scores, self.rounds_won, self.rules)
            return [Event("game_over", None, detail=self.result.to_json())]
        dealer = (finished.dealer + 1) % self.players
        self._next_hand(dealer)
        return [Event("new_hand", dealer, detail={"hand": self.hand_number, "scores": scores})]

    def _parse_action(self, data: Mapping[str, Any]) -> CarouselAction:
        return CarouselAction.from_json(data)

    def _stored_deck(self, hand: CarouselHand) -> list[int]:
        return [int(card) for card in hand.deck]

    def check(self, action: CarouselAction) -> LayoutCheck | None:
        """Raise :class:`~rummykit.core.IllegalActionError` if ``action`` is illegal now;
        for a meld return its layout check, which :meth:`apply` then reuses (see
        :class:`~rummykit.games.carousel.hand.CarouselHand`)."""
        self._refuse_when_over(action)
        return self.hand.check(action)

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

    def observation(self, seat: int) -> CarouselObservation:
        """The current hand's observation for ``seat`` with the game scores."""
        return replace(self.hand.observation(seat), scores=self.scores, target=self.rules.target)

    def _hand_rows(self, tr: Translator) -> list[SheetRow]:
        return [
            SheetRow(
                str(number),
                [f"+{p}" if p else "" for p in result.points],
                tr.gettext(_REASONS[result.reason]),
            )
            for number, result in enumerate(self.results, start=1)
        ]

    def _closing_rows(self, tr: Translator) -> list[SheetRow]:
        rows = [SheetRow(tr.gettext("score"), [str(s) for s in self.scores])]
        final = self.result
        if final is not None:
            rows.append(SheetRow(tr.gettext("game bonus"), [str(b) for b in final.game_bonus]))
            rows.append(SheetRow(tr.gettext("round bonus"), [str(b) for b in final.round_bonus]))
            rows.append(SheetRow(tr.gettext("total"), [str(t) for t in final.totals]))
        return rows
