"""Resampling a deal from one seat's information, for imperfect-information search.

Search algorithms that sample worlds (OpenSpiel's ISMCTS, determinized MCTS) need, from
a state and a seat, another state the seat cannot tell apart from it: the same own hand,
the same public discards, table and history, the same counts and the same cards known
to be in other hands, with every other hidden card dealt again uniformly.

How (:func:`resample_deal`): the seat's table names the cards whose place the seat does
not know, in *classes* of cards that were shuffled together
(:meth:`~rummykit.rl.table.EpisodeTable.hidden_classes`): for every game the cards
hidden since the deal (the stock and the hidden part of the other hands), and for Rami
also the cards of each stock refilled from the discard pile. A uniformly random
permutation within each class relabels the cards: in the dealt deck for the first
class, in the refilled stock (right after the refill) for the others. The deal is then
replayed from the relabelled deck with the engine actions recorded in the real one.
Every card the seat has seen keeps its place, so every recorded action is still legal
and shows the seat the same events; the hidden cards are a uniform permutation of the
real ones over the same hidden places. A replay that a rule refuses (a whole-hand rule
of another seat's past play that depends on its hidden cards) is rejected and drawn
again: rejection keeps the sample uniform over the deals consistent with what the seat
saw (after :data:`MAX_TRIES` refusals the real deal is returned).

Only the seat's information constrains the sample: other seats' choices are not taken
as evidence about their hands (the sample is not a Bayesian posterior over their
policies). Other seats' perfect-recall strings in the sample are consistent with the
sampled deal, except that a card they drew unseen and later showed keeps its real
place in their history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from rummykit.core import IllegalActionError

__all__ = ["MAX_TRIES", "permutation", "resample_deal"]

MAX_TRIES: Final = 50
"""Replays refused before the real deal is returned instead."""


def permutation(cards: Sequence[int], rng: random.Random) -> dict[int, int]:
    """A uniformly random relabelling of ``cards`` among themselves."""
    ordered = sorted(cards)
    shuffled = ordered.copy()
    rng.shuffle(shuffled)
    return {card: new for card, new in zip(ordered, shuffled, strict=True) if card != new}


def resample_deal(table: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``table`` (an :class:`~rummykit.rl.table.EpisodeTable` of one deal)
    whose hidden cards, as ``seat`` sees them, are dealt again uniformly (see the
    module docstring)."""
    if table.game is not None:
        raise ValueError("resampling works on one deal, not a whole game episode")
    if table.is_over:
        return table.clone()  # every hand is shown: nothing is hidden any more
    deal = table.deal
    classes: list[set[int]] = table.hidden_classes(seat)
    actions = list(deal.actions)
    for _ in range(MAX_TRIES):
        relabel = [permutation(list(hidden), rng) for hidden in classes]
        first = relabel[0] if relabel else {}
        deck = [first.get(card, card) for card in deal.deck]
        try:
            replayed = _replay(table, deck, actions, relabel[1:])
        except IllegalActionError:
            continue
        other = table.clone()
        other.adopt_deal(replayed, seat)
        return other
    return table.clone()


def _replay(
    table: Any, deck: list[int], actions: Sequence[Any], refills: Sequence[dict[int, int]]
) -> Any:
    """The deal from ``deck`` with ``actions`` replayed, each refilled stock relabelled."""
    deal = table.redeal(deck)
    done = 0
    for action in actions:
        deal.apply(action)
        count = table.refill_count(deal)
        while done < count:
            if done < len(refills) and refills[done]:
                table.relabel_stock(deal, refills[done])
            done += 1
    return deal
