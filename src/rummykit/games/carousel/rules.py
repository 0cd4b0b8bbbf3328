"""Carousel's rule options and its numbers: card values and how a hand is scored
(the Carousel rules, sections 1, 5 and 7).

Every option is declared once, on its field (:func:`rummykit.options.option`): its range
or choices and a line of help. The command line, the server's lobby and the checks in
``__post_init__`` all read that declaration.

>>> CarouselRules(knock_limit=7).knock_limit
7
>>> CarouselRules(max_draws=0)
Traceback (most recent call last):
...
rummykit.errors.InvalidOptionError: max_draws must be a whole number 1-10, not 0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rummykit.cards import FACES, JOKER_FACE, card_value_gin, is_joker_id
from rummykit.core import RulesBase
from rummykit.melds import CAROUSEL_MELDS, MeldRules
from rummykit.options import option

__all__ = [
    "CarouselRules",
    "carousel_hand_value",
    "placement_value",
    "score_carousel_hand",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class CarouselRules(RulesBase):
    """Every option of the Carousel rules (section 7); defaults are the reference rules."""

    variant = "carousel"

    knock_limit: int = option(5, low=0, high=500, help="highest hand value a player may knock with")
    target: int = option(150, low=1, high=100_000, help="cumulative score that ends the game")
    game_bonus: int = option(
        100, low=0, high=10_000, help="bonus to every player at or above the target"
    )
    round_bonus: int = option(25, low=0, high=10_000, help="bonus per hand won, at the end")
    round_bonus_to: Literal["others", "all"] = option(
        "others", help="who gets the round bonus: players below the target, or everyone"
    )
    undercut_bonus: int = option(10, low=0, high=10_000, help="bonus for undercutting a knocker")
    going_out_bonus: int = option(25, low=0, high=10_000, help="bonus for laying every card")
    max_draws: int = option(3, low=1, high=10, help="most cards drawn in one turn")
    meld_after_last_draw: bool = option(False, help="whether a player may meld after his last draw")
    joker_value: int = option(25, low=0, high=1000, help="what a joker counts in hand")
    ace_high_value: int = option(
        1, low=0, high=100, help="what an ace counts in hand (high or low alike)"
    )
    decks: int | None = option(
        None, low=1, high=3, help="decks (and jokers) in play; none: 1 for 2 players, else 2"
    )
    final_lap_draw: Literal["none"] = option("none", help="draws in the final lap (none)")
    nonknocker_ties: Literal["all_win", "knocker_rule_only"] = option(
        "all_win", help="tied winners of a knocked hand: all win, or the first in turn order"
    )
    joker_copy_limit: bool = option(
        True, help="whether a joker's declaration counts against the copies of its card"
    )

    def decks_for(self, players: int) -> int:
        """Decks (and jokers) used with ``players`` players."""
        if self.decks is not None:
            return self.decks
        return 1 if players == 2 else 2

    @property
    def meld_rules(self) -> MeldRules:
        """Groups of distinct suits, sequences with the ace low or high, declared jokers."""
        return CAROUSEL_MELDS


_REFERENCE = CarouselRules()
"""The reference rules, for callers that name none."""


def carousel_hand_value(cards: Iterable[int], rules: CarouselRules | None = None) -> int:
    """Hand value: joker 25, J/Q/K 10, pips, ace 1 (§carousel-1.5).

    >>> from rummykit.cards import parse_cards
    >>> carousel_hand_value(parse_cards("2C 3D JK KH AS"))
    41
    """
    rules = rules or _REFERENCE
    values = _face_values(rules.joker_value, rules.ace_high_value)
    return sum(map(values.__getitem__, map(FACES.__getitem__, cards)))


@lru_cache(maxsize=64)
def _face_values(joker_value: int, ace_high_value: int) -> tuple[int, ...]:
    """Per face id (0-63), what a card of it counts in hand: a hand's value is then
    summed without a loop in Python (hand values are read at every decision)."""
    return tuple(
        joker_value
        if face == JOKER_FACE
        else ace_high_value
        if face % 13 == 0
        else min(face % 13 + 1, 10)
        for face in range(max(FACES) + 1)
    )


def placement_value(card: int, joker_value: int = 25) -> int:
    """Carousel hand value of one card: joker 25, J/Q/K 10, 2-10 pips, ace 1.

    >>> [placement_value(c) for c in (0, 9, 12, 52)]
    [1, 10, 10, 25]
    """
    return joker_value if is_joker_id(card) else card_value_gin(card)


def score_carousel_hand(
    values: Sequence[int],
    *,
    knocker: int | None,
    went_out: bool,
    rules: CarouselRules | None = None,
    first_seat: int = 0,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Winners and points of a hand (the Carousel rules, section 5).

    ``knocker`` is the knocker or the player who went out; ``first_seat`` starts the
    turn order used to break ties under ``nonknocker_ties=knocker_rule_only``.

    >>> score_carousel_hand([3, 10, 25, 7], knocker=0, went_out=False)
    ((0,), (33, 0, 0, 0))
    >>> score_carousel_hand([4, 4, 4, 30], knocker=0, went_out=False)
    ((1, 2), (0, 36, 36, 0))
    """
    rules = rules or _REFERENCE
    players = len(values)
    low = min(values)
    tied = [seat for seat in range(players) if values[seat] == low]
    if knocker is not None and knocker in tied and len(tied) > 1:
        winners = [seat for seat in tied if seat != knocker]
        knocker_tie = True
    else:
        winners = tied
        knocker_tie = False
    # Without a knock (stock exhausted) ties always share the win (§carousel-5.6).
    if (
        len(winners) > 1
        and not knocker_tie
        and knocker is not None
        and rules.nonknocker_ties == "knocker_rule_only"
    ):
        start = (knocker + 1) % players if knocker is not None else first_seat
        order = [(start + i) % players for i in range(players)]
        winners = [min(winners, key=order.index)]
    points = [0] * players
    for winner in winners:
        gain = sum(values[seat] - values[winner] for seat in range(players) if seat != winner)
        if knocker is not None and winner != knocker:
            gain += rules.undercut_bonus
        if went_out and winner == knocker:
            gain += rules.going_out_bonus
        points[winner] = gain
    return tuple(sorted(winners)), tuple(points)
