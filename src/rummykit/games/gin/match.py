"""A Gin Rummy match: hands until a player reaches the target, then the bonuses.

rules/gin.md section 6: dealer alternation (the same dealer after a drawn hand), the
game bonus, the line bonus for both players, shutout doubling, and the final totals.

>>> from rummykit.games.gin.hand import GinAction
>>> match = GinMatch(seed=3)
>>> match.hand_number, match.points
(1, (0, 0))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummykit.cards import make_rng, parse_cards
from rummykit.core import Event, IllegalActionError
from rummykit.games.gin.hand import (
    GinAction,
    GinHand,
    GinHandResult,
    GinObservation,
    GinRules,
    new_hand,
)

__all__ = ["GinMatch", "GinMatchResult", "final_totals"]


@dataclass(frozen=True, slots=True)
class GinMatchResult:
    """Final totals of a match and how they were made up (per seat)."""

    hand_points: tuple[int, int]
    hands_won: tuple[int, int]
    reached_target: int
    shutout: bool
    game_bonus: tuple[int, int]
    line_bonus: tuple[int, int]
    totals: tuple[int, int]
    winner: int | None
    """Highest total; ``None`` for equal totals."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner, or both seats on equal totals."""
        return (0, 1) if self.winner is None else (self.winner,)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "hand_points": list(self.hand_points),
            "hands_won": list(self.hands_won),
            "reached_target": self.reached_target,
            "shutout": self.shutout,
            "game_bonus": list(self.game_bonus),
            "line_bonus": list(self.line_bonus),
            "totals": list(self.totals),
            "winner": self.winner,
        }


def final_totals(results: list[GinHandResult], rules: GinRules) -> GinMatchResult:
    """Final totals from the hand results of a finished match (rules/gin.md 6).

    >>> from rummykit.games.gin.hand import GinHandResult
    >>> won = [GinHandResult("knock", 0, points) for points in (40, 35, 30)]
    >>> final_totals(won + [GinHandResult("knock", 1, 20)], GinRules()).totals
    (280, 45)
    >>> final_totals(won, GinRules()).totals
    (385, 0)
    """
    points = [0, 0]
    won = [0, 0]
    for result in results:
        if result.winner is not None:
            points[result.winner] += result.points
            won[result.winner] += 1
    reached = [seat for seat in (0, 1) if points[seat] >= rules.target]
    if len(reached) != 1:
        raise ValueError("the match is not over: nobody has reached the target")
    leader = reached[0]
    shutout = rules.shutout_multiplier > 1 and all(
        result.winner == leader or (result.is_draw and rules.shutout_allows_draws)
        for result in results
    )
    multiplier = rules.shutout_multiplier if shutout else 1
    multiplied = [p * (multiplier if s == leader else 1) for s, p in enumerate(points)]
    game_bonus = [rules.game_bonus if seat == leader else 0 for seat in (0, 1)]
    line_bonus = [rules.line_bonus * won[seat] for seat in (0, 1)]
    totals = [multiplied[s] + game_bonus[s] + line_bonus[s] for s in (0, 1)]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return GinMatchResult(
        hand_points=(points[0], points[1]),
        hands_won=(won[0], won[1]),
        reached_target=leader,
        shutout=shutout,
        game_bonus=(game_bonus[0], game_bonus[1]),
        line_bonus=(line_bonus[0], line_bonus[1]),
        totals=(totals[0], totals[1]),
        winner=winner,
    )


class GinMatch:
    """Hands of Gin Rummy until a seat's hand points reach the target.

    The next hand is dealt automatically as soon as one ends; the finished hand stays
    readable in :attr:`results` and :attr:`finished_hands`. Each hand's shuffle comes
    from the match seed, so (rules, seed, actions) replays the whole match; without a
    seed every hand is shuffled from a secure source and the record keeps the decks.
    """

    def __init__(
        self,
        rules: GinRules | None = None,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules or GinRules()
        self.seed = seed
        self._rng: random.Random | None = make_rng(seed) if seed is not None else None
        # Drawn even when the caller names the dealer, so replays consume the same numbers.
        drawn = (self._rng or make_rng(None)).randrange(2)
        if first_dealer is None:
            first_dealer = drawn
        if first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be 0 or 1, not {first_dealer!r}")
        self.first_dealer = first_dealer
        self.results: list[GinHandResult] = []
        self.finished_hands: list[GinHand] = []
        self.result: GinMatchResult | None = None
        self.hand = self._deal(first_dealer, None)

    def _deal(self, dealer: int, deck: Sequence[int] | None) -> GinHand:
        if deck is not None:
            return new_hand(self.rules, dealer=dealer, deck=deck)
        seed = self._rng.getrandbits(63) if self._rng is not None else None
        return new_hand(self.rules, seed, dealer=dealer)

    # -- state ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once a seat has reached the target and the totals are made."""
        return self.result is not None

    @property
    def current_player(self) -> int:
        """The seat to act in the current hand."""
        return self.hand.current_player

    @property
    def hand_number(self) -> int:
        """1 for the first hand, and so on (the current or last hand)."""
        return len(self.results) + (0 if self.is_over else 1)

    @property
    def points(self) -> tuple[int, int]:
        """Cumulative hand points (before bonuses)."""
        totals = [0, 0]
        for result in self.results:
            if result.winner is not None:
                totals[result.winner] += result.points
        return totals[0], totals[1]

    @property
    def scores(self) -> tuple[int, int]:
        """Cumulative hand points (before bonuses): :attr:`points`."""
        return self.points

    def legal_actions(self) -> list[GinAction]:
        """Legal actions in the current hand (none when the match is over)."""
        return [] if self.is_over else self.hand.legal_actions()

    def observation(self, seat: int) -> GinObservation:
        """The current hand's observation for ``seat``, with the match scores."""
        return replace(self.hand.observation(seat), scores=self.points, target=self.rules.target)

    # -- play ---------------------------------------------------------------------------

    def apply(self, action: GinAction) -> list[Event]:
        """Apply an action to the current hand; deal the next hand or end the match."""
        if self.is_over:
            raise IllegalActionError(
                f"the match is over; {action} is not possible", code="match_over"
            )
        events = self.hand.apply(action)
        if self.hand.is_over:
            events.extend(self._hand_finished(None))
        return events

    def _hand_finished(self, next_deck: Sequence[int] | None) -> list[Event]:
        finished = self.hand
        result = finished.result
        assert result is not None
        self.results.append(result)
        self.finished_hands.append(finished)
        points = self.points
        if max(points) >= self.rules.target:
            self.result = final_totals(self.results, self.rules)
            return [Event("match_over", self.result.winner, detail=self.result.to_json())]
        same = result.is_draw and self.rules.redeal_after_draw == "same_dealer"
        dealer = finished.dealer if same else 1 - finished.dealer
        self.hand = self._deal(dealer, next_deck)
        return [Event("new_hand", dealer, detail={"hand": self.hand_number, "scores": points})]

    def clone(self) -> GinMatch:
        """An independent copy (the finished hands are shared; they never change)."""
        other = GinMatch.__new__(GinMatch)
        other.rules = self.rules
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

    # -- score sheet and records -----------------------------------------------------

    def score_sheet(self) -> str:
        """The score sheet as text: one line per hand, then the bonuses and totals."""
        lines = [f"{'hand':>4}  {'dealer':>6}  {'outcome':<9} {'seat 0':>7} {'seat 1':>7}"]
        running = [0, 0]
        for number, (hand, result) in enumerate(
            zip(self.finished_hands, self.results, strict=True), start=1
        ):
            cells = ["", ""]
            if result.winner is not None:
                running[result.winner] += result.points
                cells[result.winner] = f"+{result.points}"
            lines.append(
                f"{number:>4}  {hand.dealer:>6}  {result.outcome:<9} "
                f"{cells[0]:>7} {cells[1]:>7}   ({running[0]}-{running[1]})"
            )
        final = self.result
        if final is not None:
            if final.shutout:
                lines.append(
                    f"shutout: seat {final.reached_target}'s hand points x"
                    f"{self.rules.shutout_multiplier}"
                )
            lines.append(f"{'game bonus':<24} {final.game_bonus[0]:>7} {final.game_bonus[1]:>7}")
            lines.append(
                f"{'line bonus':<24} {final.line_bonus[0]:>7} {final.line_bonus[1]:>7}"
                f"   ({final.hands_won[0]} and {final.hands_won[1]} hands won)"
            )
            lines.append(f"{'total':<24} {final.totals[0]:>7} {final.totals[1]:>7}")
            lines.append(
                "the match is tied" if final.winner is None else f"seat {final.winner} wins"
            )
        return "\n".join(lines)

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record that replays the match (rules, seed, dealer, actions)."""
        hands = [*self.finished_hands] + ([] if self.is_over else [self.hand])
        record: dict[str, Any] = {
            "variant": "gin-match",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [action.to_json() for hand in hands for action in hand.actions],
        }
        if self.seed is None:
            record["decks"] = [hand.to_record()["deck"] for hand in hands]
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> GinMatch:
        """Rebuild a match from :meth:`to_record` by replaying every action."""
        if record.get("variant") != "gin-match":
            raise ValueError(f"not a gin match record: variant {record.get('variant')!r}")
        rules = GinRules.from_dict(record.get("rules", {}))
        decks = [parse_cards(deck) for deck in record.get("decks", ())]
        seed = record.get("seed")
        if seed is None and not decks:
            raise ValueError("a match record without a seed must list its decks")
        match = cls.__new__(cls)
        match.rules = rules
        match.seed = seed
        match._rng = make_rng(seed) if seed is not None else None
        match.first_dealer = int(record.get("first_dealer", 0))
        if seed is not None:
            match._rng.randrange(2)  # type: ignore[union-attr]  # the first-dealer draw
        match.results = []
        match.finished_hands = []
        match.result = None
        match.hand = match._deal(match.first_dealer, decks[0] if decks else None)
        for data in record.get("actions", ()):
            action = GinAction.from_json(data)
            if match.is_over:
                raise ValueError("the record has actions after the end of the match")
            match.hand.apply(action)
            if match.hand.is_over:
                index = len(match.results) + 1
                match._hand_finished(decks[index] if index < len(decks) else None)
        return match
