"""A Gin Rummy match: hands until a player reaches the target, then the bonuses.

The Gin rules, §gin-1.4 and section 7: dealer alternation (the same dealer after a drawn
hand), the game bonus, the line bonus for both players, shutout doubling, and the final
totals.

>>> match = GinMatch(seed=3)
>>> match.hand_number, match.scores
(1, (0, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rummykit.cards import Card, parse_cards
from rummykit.core import Event
from rummykit.errors import InvalidOptionError, InvalidRecordError
from rummykit.games.gin.actions import GinAction
from rummykit.games.gin.hand import GinHand, new_hand
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.result import GinHandResult
from rummykit.games.gin.rules import GinRules
from rummykit.i18n import N_, Translator
from rummykit.match import Match, SheetRow

__all__ = ["GinMatch", "GinMatchResult", "final_totals"]

# How a hand ended, as the score sheet notes it.
_OUTCOMES = {
    "knock": N_("knock"),
    "undercut": N_("undercut"),
    "gin": N_("gin"),
    "big_gin": N_("big gin"),
    "draw": N_("drawn hand"),
}


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
        """The seats that won: the winner, or both seats on equal totals."""
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
    """Final totals from the hand results of a finished match (the Gin rules, section 7).

    >>> from rummykit.games.gin.result import GinHandResult
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
        raise InvalidRecordError("the match is not over: nobody has reached the target")
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


class GinMatch(Match[GinHand, GinMatchResult]):
    """Hands of Gin Rummy until a seat's hand points reach the target.

    The next hand is dealt automatically as soon as one ends; the finished hand stays
    readable in :attr:`results` and :attr:`finished_hands`. Each hand's shuffle comes
    from the match seed, so (rules, seed, actions) replays the whole match; without a
    seed every hand is shuffled from a secure source and the record keeps the decks.
    """

    record_kind = "gin-match"
    rules_type = GinRules
    record_players = False
    game_word: ClassVar[str] = "match"
    _over_rule: ClassVar[str | None] = "gin-7.1"

    rules: GinRules
    results: list[GinHandResult]

    def __init__(
        self,
        rules: GinRules | None = None,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        players: int = 2,
    ) -> None:
        if players != 2:
            raise InvalidOptionError(f"gin is for 2 players, not {players}", option="players")
        super().__init__(rules or GinRules(), players=2, seed=seed, first_dealer=first_dealer)

    def _new_hand(self, dealer: int, seed: int | None, stored: list[Card] | None) -> GinHand:
        if stored is not None:
            return new_hand(self.rules, dealer=dealer, deck=stored)
        return new_hand(self.rules, seed, dealer=dealer)

    def _settle(self, finished: GinHand) -> list[Event]:
        result = finished.result
        assert result is not None
        points = self.points
        if max(points) >= self.rules.target:
            self.result = final_totals(self.results, self.rules)
            return [Event("match_over", self.result.winner, detail=self.result.to_json())]
        same = result.is_draw and self.rules.redeal_after_draw == "same_dealer"
        dealer = finished.dealer if same else 1 - finished.dealer
        self._next_hand(dealer)
        return [Event("new_hand", dealer, detail={"hand": self.hand_number, "scores": points})]

    def _parse_action(self, data: Mapping[str, Any]) -> GinAction:
        return GinAction.from_json(data)

    @classmethod
    def _stored_hands(cls, record: Mapping[str, Any]) -> list[list[Card]]:
        return [parse_cards(deck) for deck in record.get("decks", ())]

    # -- state ------------------------------------------------------------------------

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
        """The platform's name for :attr:`points`: hand points so far, before bonuses."""
        return self.points

    def legal_actions(self) -> list[GinAction]:
        """The current hand's legal actions (none once the match is over)."""
        return [] if self.result is not None else self.hand.legal_actions()

    def observation(self, seat: int) -> GinObservation:
        """The current hand's observation for ``seat``, with the match scores."""
        return replace(self.hand.observation(seat), scores=self.points, target=self.rules.target)

    # -- score sheet and records -----------------------------------------------------

    def _hand_rows(self, tr: Translator) -> list[SheetRow]:
        rows = []
        running = [0, 0]
        for number, (hand, result) in enumerate(
            zip(self.finished_hands, self.results, strict=True), start=1
        ):
            cells = ["", ""]
            if result.winner is not None:
                running[result.winner] += result.points
                cells[result.winner] = f"+{result.points}"
            note = tr.gettext(
                "{outcome}, dealer {dealer} ({first}-{second})",
                outcome=tr.gettext(_OUTCOMES[result.outcome]),
                dealer=hand.dealer,
                first=running[0],
                second=running[1],
            )
            rows.append(SheetRow(str(number), cells, note))
        return rows

    def _final_rows(self, final: GinMatchResult, tr: Translator) -> list[SheetRow]:
        rows = []
        if final.shutout:
            multiplied = tr.gettext(
                "seat {seat}'s hand points x{times}",
                seat=final.reached_target,
                times=self.rules.shutout_multiplier,
            )
            rows.append(SheetRow(tr.gettext("shutout"), ["", ""], multiplied))
        won = tr.gettext(
            "{first} and {second} hands won", first=final.hands_won[0], second=final.hands_won[1]
        )
        rows.append(SheetRow(tr.gettext("game bonus"), [str(b) for b in final.game_bonus]))
        rows.append(SheetRow(tr.gettext("line bonus"), [str(b) for b in final.line_bonus], won))
        return rows
