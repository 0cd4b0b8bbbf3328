"""A small Gin Rummy bot, registered for tournaments (see docs/bots.md).

``greedy`` takes the upcard (or the discard pile's top card) only when it lowers its
deadwood, discards the card that leaves the least deadwood (a seeded coin breaks ties),
and knocks as soon as it may, with the card that leaves the least deadwood.

Play it from the command line::

    rummykit tournament gin --load examples/my_gin_bot.py --bots greedy,heuristic --games 200

or run this file: ``python examples/my_gin_bot.py`` plays it against the random and the
heuristic bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.games.gin import (
    GinAction,
    GinObservation,
    GinRules,
    deadwood_after_each_discard,
    mask_of,
    min_deadwood_mask,
)
from rummykit.sim.registry import register_bot
from rummykit.sim.tournament import run_tournament


def card_of(action: GinAction) -> int:
    """The card a discard or knock action names."""
    if action.card is None:
        raise ValueError(f"{action} names no card")
    return int(action.card)


class GreedyGinBot:
    """Least deadwood now, knock at once. Sees only its own observation."""

    name = "greedy"

    # The registry calls a bot factory with these three keywords; a class works too.
    def __init__(self, *, seed: int, rules: GinRules, players: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)

    def act(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        """One of ``legal_actions``."""
        by_kind = {action.kind: action for action in legal_actions}
        hand = mask_of(observation.hand)
        upcard = observation.upcard
        if observation.phase == "offer":
            wanted = upcard is not None and self.lowers_deadwood(hand, upcard)
            return by_kind["take_upcard"] if wanted else by_kind["pass"]
        if observation.phase == "draw":
            wanted = upcard is not None and self.lowers_deadwood(hand, upcard)
            if wanted and "draw_discard" in by_kind:
                return by_kind["draw_discard"]
            return by_kind["draw_stock"]
        if observation.phase == "discard":
            if "big_gin" in by_kind:
                return by_kind["big_gin"]
            after = deadwood_after_each_discard(hand, self.rules.ace_high_runs)
            knocks = [action for action in legal_actions if action.kind == "knock"]
            if knocks:
                return min(knocks, key=lambda action: after[card_of(action)])
            discards = [action for action in legal_actions if action.kind == "discard"]
            least = min(after[card_of(action)] for action in discards)
            return self.rng.choice([a for a in discards if after[card_of(a)] == least])
        # The defender's lay-off phase (auto_layoff=false): the engine offers the best one.
        return legal_actions[0]

    def lowers_deadwood(self, hand: int, card: int) -> bool:
        """True when taking ``card`` (and then discarding another) lowers the deadwood."""
        ace_high = self.rules.ace_high_runs
        after = deadwood_after_each_discard(hand | 1 << card, ace_high)
        best = min(deadwood for other, deadwood in after.items() if other != card)
        return best < min_deadwood_mask(hand, ace_high)


register_bot("gin", "greedy", GreedyGinBot, description="example: least deadwood, knock at once")


if __name__ == "__main__":
    for opponent in ("random", "heuristic"):
        result = run_tournament("gin", ["greedy", opponent], games=50, seed=1)
        print(result.table(), end="\n\n")
