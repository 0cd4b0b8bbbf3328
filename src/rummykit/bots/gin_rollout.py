"""Fast playouts of the rest of a Gin hand on bitmasks, for Monte-Carlo bots.

A playout follows the reference rules (knock limit, gin and big gin bonuses, undercut,
the stock floor, layoffs) with a greedy policy for both players: take the discard only
when it joins a meld and lowers the deadwood, discard to the least deadwood, knock as
soon as allowed. It skips the engine's objects and checks, so it is several times faster
than playing bots through :class:`~rummykit.variants.gin.GinHand`; it is only ever run on
sampled (determinised) positions inside a bot.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.solvers.deadwood import (
    CARD_VALUES,
    cards_of_mask,
    deadwood_after_each_discard,
    layoff_deadwood,
    meld_union,
    min_deadwood,
    min_deadwood_mask,
)
from rummykit.variants.gin import GinRules

__all__ = ["playout", "score_knock"]


def score_knock(
    knocker_mask: int, defender_mask: int, rules: GinRules, *, big_gin: bool = False
) -> tuple[int, int]:
    """(winner relative to the knocker: 0 knocker / 1 defender / -1 nobody, points) for a
    knocker holding ``knocker_mask`` (the knock card already removed)."""
    ace_high = rules.ace_high_runs
    arrangement = min_deadwood(cards_of_mask(knocker_mask), ace_high=ace_high)
    knocker = arrangement.deadwood
    if big_gin or knocker == 0:
        defender = min_deadwood_mask(defender_mask, ace_high)
        bonus = rules.big_gin_bonus if big_gin else rules.gin_bonus
        return 0, defender + bonus
    defender = layoff_deadwood(
        arrangement.melds,
        cards_of_mask(defender_mask),
        chained=rules.chained_layoffs,
        ace_high=ace_high,
    ).deadwood
    if knocker < defender:
        return 0, defender - knocker
    if knocker == defender and not rules.undercut_on_tie:
        return -1, 0
    return 1, rules.undercut_bonus + knocker - defender


def _wants(hand: int, card: int, ace_high: bool) -> bool:
    with_card = hand | 1 << card
    if not meld_union(with_card, ace_high) >> card & 1:
        return False
    after = deadwood_after_each_discard(with_card, ace_high)
    best = min(deadwood for other, deadwood in after.items() if other != card)
    return best < min_deadwood_mask(hand, ace_high)


def playout(
    hands: Sequence[int],
    stock: list[int],
    upcard: int | None,
    to_move: int,
    rules: GinRules,
    *,
    pending_discard: bool = False,
    taken: int | None = None,
    from_stock: bool = False,
) -> tuple[int, int]:
    """Play the hand out greedily; return (winner seat or -1, points).

    ``to_move`` draws next, unless ``pending_discard`` says it already holds 11 cards
    (then ``taken`` is the card it may not discard); ``from_stock`` forces its first draw
    to come from the stock. ``stock`` is consumed (top last).
    """
    ace_high = rules.ace_high_runs
    masks = [hands[0], hands[1]]
    limit = rules.knock_limit
    floor = rules.stock_floor
    player = to_move
    top = upcard
    must_discard = pending_discard
    while True:
        hand = masks[player]
        if not must_discard:
            if top is not None and not from_stock and _wants(hand, top, ace_high):
                hand |= 1 << top
                taken = top
                top = None
            else:
                hand |= 1 << stock.pop()
                taken = None
        must_discard = False
        from_stock = False
        after = deadwood_after_each_discard(hand, ace_high)
        if (
            rules.big_gin_bonus
            and min(after.values()) == 0
            and (min_deadwood_mask(hand, ace_high) == 0)
        ):
            winner, points = score_knock(hand, masks[1 - player], rules, big_gin=True)
            return (player if winner == 0 else 1 - player), points
        card, deadwood = min(
            ((c, d) for c, d in after.items() if c != taken),
            key=lambda item: (item[1], -CARD_VALUES[item[0]], -item[0]),
        )
        hand &= ~(1 << card)
        if deadwood <= limit:
            winner, points = score_knock(hand, masks[1 - player], rules)
            if winner < 0:
                return -1, 0
            return (player if winner == 0 else 1 - player), points
        masks[player] = hand
        top = card
        if len(stock) <= floor:
            return -1, 0
        player = 1 - player
