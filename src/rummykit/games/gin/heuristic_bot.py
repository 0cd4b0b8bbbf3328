"""A sound rule-of-thumb Gin Rummy bot.

It takes the upcard or the discard only when that card joins a meld and lowers its
deadwood; otherwise it draws from the stock. It discards the card that leaves the least
deadwood, preferring among equals a card with no partner (no same rank, no suit
neighbour within two) and one the opponent is not known to collect. It declares big
gin and gin at once, knocks whenever it may, except that with very little deadwood and
a long stock it keeps playing for gin.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.games.gin.actions import GinAction
from rummykit.games.gin.deadwood import (
    CARD_VALUES,
    deadwood_after_each_discard,
    mask_of,
    meld_union,
    min_deadwood_mask,
)
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.rules import GinRules

__all__ = ["GinHeuristicBot", "card_partners"]


def card_partners(card: int, mask: int) -> int:
    """How many cards of ``mask`` could form a meld with ``card`` (same rank, or same
    suit within two ranks)."""
    rank, suit = card % 13, card // 13
    partners = 0
    for other_suit in range(4):
        if other_suit != suit and mask >> (other_suit * 13 + rank) & 1:
            partners += 1
    for step in (-2, -1, 1, 2):
        other = rank + step
        if 0 <= other < 13 and mask >> (suit * 13 + other) & 1:
            partners += 1
    return partners


class GinHeuristicBot:
    """Greedy deadwood play with sensible taking, discarding and knocking."""

    name = "heuristic"

    def __init__(
        self,
        rules: GinRules | None = None,
        *,
        gin_wait_deadwood: int = 2,
        gin_wait_stock: int = 20,
    ) -> None:
        self.rules = rules or GinRules()
        self.gin_wait_deadwood = gin_wait_deadwood
        self.gin_wait_stock = gin_wait_stock

    def act(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        """Choose an action from the seat's observation."""
        kinds: dict[str, GinAction] = {action.kind: action for action in legal_actions}
        phase = observation.phase
        if phase in ("offer", "draw"):
            take = observation.upcard is not None and self.improves(
                mask_of(observation.hand), observation.upcard
            )
            if phase == "offer":
                return kinds["take_upcard"] if take else kinds["pass"]
            if take and "draw_discard" in kinds:
                return kinds["draw_discard"]
            return kinds["draw_stock"]
        if phase == "discard":
            return self._discard_phase(observation, legal_actions, kinds)
        return legal_actions[0]

    def improves(self, hand_mask: int, card: int) -> bool:
        """True when taking ``card`` puts it in a meld and lowers the best deadwood."""
        ace_high = self.rules.ace_high_runs
        with_card = hand_mask | 1 << card
        if not meld_union(with_card, ace_high) >> card & 1:
            return False
        after = deadwood_after_each_discard(with_card, ace_high)
        best = min(deadwood for other, deadwood in after.items() if other != card)
        return best < min_deadwood_mask(hand_mask, ace_high)

    def _discard_phase(
        self,
        observation: GinObservation,
        legal_actions: Sequence[GinAction],
        kinds: dict[str, GinAction],
    ) -> GinAction:
        if "big_gin" in kinds:
            return kinds["big_gin"]
        mask = mask_of(observation.hand)
        after = deadwood_after_each_discard(mask, self.rules.ace_high_runs)
        knocks = [action for action in legal_actions if action.kind == "knock"]
        if knocks:
            best = min(knocks, key=lambda a: (after[int(a.card or 0)], -int(a.card or 0)))
            deadwood = after[int(best.card or 0)]
            wait = (
                0 < deadwood <= self.gin_wait_deadwood
                and observation.stock_size >= self.gin_wait_stock
            )
            if not wait:
                return best
        opponent = mask_of(observation.opponent_known_cards)
        discards = [action for action in legal_actions if action.kind == "discard"]

        def cost(action: GinAction) -> tuple[int, int, int, int]:
            card = int(action.card or 0)
            return (
                after[card],
                card_partners(card, mask),
                card_partners(card, opponent),
                -CARD_VALUES[card],
            )

        return min(discards, key=cost)
