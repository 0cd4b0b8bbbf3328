"""Carousel bots: a random one and a solver-driven heuristic.

The random bot draws, and when it can it places one random simple meld: a new meld of
three natural cards from its hand, or one hand card added to a table meld. The
heuristic bot asks the exact solver for the placement of greatest value as soon as it
has one, and knocks when its hand is low enough and no opponent is close to out.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from rummykit.cards import CARD_IDS, FACES, PHYSICAL_IDS, Card, make_rng
from rummykit.errors import BotError
from rummykit.games.carousel.actions import ActionKind, CarouselAction
from rummykit.games.carousel.hand import CarouselObservation
from rummykit.games.carousel.layout import IllegalLayoutError
from rummykit.games.carousel.rules import CarouselRules, carousel_hand_value
from rummykit.games.carousel.under_rules import best_placement_under, check_layout_under
from rummykit.melds import CAROUSEL_MELDS, is_meld

__all__ = [
    "CarouselHeuristicBot",
    "CarouselRandomBot",
    "make_heuristic",
    "make_random",
    "no_meld_action",
    "simple_placements",
]


def simple_placements(
    table: Sequence[Sequence[Card]], hand: Sequence[Card]
) -> list[list[tuple[Card, ...]]]:
    """Layouts that add one new three-card meld from the hand (natural cards) or one
    hand card at the end of a table meld, everything else unchanged."""
    layouts: list[list[tuple[Card, ...]]] = []
    base = [tuple(meld) for meld in table]
    naturals = [card for card in hand if not card.is_joker]
    faces = [card.face for card in naturals]
    # One card per face is enough (a second copy makes the same layout).
    by_face: dict[int, Card] = {}
    for card in naturals:
        by_face.setdefault(card.face, card)
    trios: list[tuple[int, int, int]] = []
    for rank in range(13):
        same_rank = [suit * 13 + rank for suit in range(4) if suit * 13 + rank in by_face]
        trios.extend(itertools.combinations(same_rank, 3))
    for suit in range(4):
        row = [suit * 13 + rank in by_face for rank in range(13)]
        row.append(row[0])  # the ace again, high
        for low in range(12):
            if row[low] and row[low + 1] and row[low + 2]:
                trios.append((suit * 13 + low, suit * 13 + low + 1, suit * 13 + (low + 2) % 13))
    for trio in sorted(trios):
        layouts.append([*base, tuple(by_face[face] for face in trio)])
    for index, meld in enumerate(base):
        ranks, meld_suits, near = _reach(meld)
        for card, face in zip(naturals, faces, strict=True):
            if face % 13 not in near or (len(ranks) > 1 and face // 13 not in meld_suits):
                continue
            extended = (*meld, card)
            if _is_meld(extended):
                layouts.append([*base[:index], extended, *base[index + 1 :]])
    return layouts


_Reach = tuple[set[int], set[int], set[int]]
_REACH: dict[tuple[Card, ...], _Reach] = {}
"""Per table meld, what :func:`_reach` finds: a meld outlives many turns."""


def _reach(meld: tuple[Card, ...]) -> _Reach:
    """A table meld's ranks and suits, and the ranks a card needs to join it."""
    found = _REACH.get(meld)
    if found is None:
        # Table jokers carry declarations, so every table card stands for one face.
        shown = [card.declared if card.is_joker else card for card in meld]
        ranks = {face.face % 13 for face in shown if face is not None}
        meld_suits = {face.face // 13 for face in shown if face is not None}
        # A card can only join a group of its rank or touch a run of its suit.
        near = {(r + d) % 13 for r in ranks for d in (-1, 1)} if len(ranks) > 1 else ranks
        if len(_REACH) >= _MELDS_BY_SHAPE_KEPT:
            _REACH.clear()
        found = _REACH[meld] = (ranks, meld_suits, near)
    return found


_MELDS_BY_SHAPE: dict[tuple[int, ...], bool] = {}
"""Whether cards form a Carousel meld, by shape (the ids without their copy bits): the
meld rule reads only each card's face and joker declaration."""
_MELDS_BY_SHAPE_KEPT: Final = 100_000


def _is_meld(cards: tuple[Card, ...]) -> bool:
    """``is_meld(cards, CAROUSEL_MELDS)``, kept by shape for card ids in range."""
    if not cards or min(cards) < 0 or max(cards) >= CARD_IDS:
        return is_meld(cards, CAROUSEL_MELDS)
    shape = tuple(card - card % PHYSICAL_IDS + FACES[card] for card in cards)
    found = _MELDS_BY_SHAPE.get(shape)
    if found is None:
        if len(_MELDS_BY_SHAPE) >= _MELDS_BY_SHAPE_KEPT:
            _MELDS_BY_SHAPE.clear()
        found = _MELDS_BY_SHAPE[shape] = is_meld(cards, CAROUSEL_MELDS)
    return found


class CarouselRandomBot:
    """Draws until it must stop; places one random simple meld when it can.

    ``rules`` (default: the reference rules) tell it when melding is open, how many
    decks are in play and whether the joker copy limit applies; a simple layout that the
    engine would refuse (the copy limit) is never submitted.
    """

    name = "random"

    def __init__(
        self, seed: int | random.Random | None = None, *, rules: CarouselRules | None = None
    ) -> None:
        self.rng = make_rng(seed)
        self.rules = rules or CarouselRules()

    def act(
        self, observation: CarouselObservation, legal_actions: Sequence[CarouselAction]
    ) -> CarouselAction:
        """Meld when a simple placement exists and melding is open, else a random finite
        action."""
        if _may_meld(observation, self.rules) and not observation.melded:
            layouts = simple_placements(observation.table, observation.hand)
            # Natural cards added to a table without jokers are always legal; with a
            # declared joker on the table a real card may break the copy limit.
            jokers = any(card.is_joker for meld in observation.table for card in meld)
            while layouts:
                layout = layouts.pop(self.rng.randrange(len(layouts)))
                if not jokers:
                    return CarouselAction.meld(layout)
                try:
                    decks = self.rules.decks_for(observation.players)
                    check_layout_under(
                        self.rules, decks, observation.table, layout, observation.hand
                    )
                except IllegalLayoutError:
                    continue
                return CarouselAction.meld(layout)
        if not legal_actions:
            raise BotError("no legal action and no meld to make", bot=self.name)
        return self.rng.choice(list(legal_actions))


def no_meld_action(
    kinds: Mapping[ActionKind, CarouselAction],
    legal_actions: Sequence[CarouselAction],
    knock_is_good: Callable[[], bool],
) -> CarouselAction:
    """A bot's action when it does not meld: draw while it may, then knock if that is
    good (asked only then), else end the turn. ``kinds`` maps the legal actions' kinds."""
    if "draw" in kinds:
        return kinds["draw"]
    if "knock" in kinds and knock_is_good():
        return kinds["knock"]
    if "end_turn" in kinds:
        return kinds["end_turn"]
    return legal_actions[0]


def _may_meld(observation: CarouselObservation, rules: CarouselRules | None = None) -> bool:
    rules = rules or CarouselRules()
    if observation.final_lap or observation.melded:
        return True
    return observation.draws < rules.max_draws or rules.meld_after_last_draw


class CarouselHeuristicBot:
    """Places the most value as soon as it can; knocks when its hand is low and no
    opponent is about to go out."""

    name = "heuristic"

    def __init__(self, rules: CarouselRules | None = None, *, decks: int | None = None) -> None:
        self.rules = rules or CarouselRules()
        self.decks = decks

    def act(
        self, observation: CarouselObservation, legal_actions: Sequence[CarouselAction]
    ) -> CarouselAction:
        """Choose an action from the observation."""
        kinds = {action.kind: action for action in legal_actions}
        if _may_meld(observation, self.rules) and not observation.melded:
            decks = self.decks or self.rules.decks_for(observation.players)
            placement = best_placement_under(self.rules, decks, observation.table, observation.hand)
            if placement is not None and placement.cards:
                return CarouselAction.meld(placement.layout)
        return no_meld_action(kinds, legal_actions, lambda: self._knock_is_good(observation))

    def _knock_is_good(self, observation: CarouselObservation) -> bool:
        value = carousel_hand_value(observation.hand, self.rules)
        others = [n for s, n in enumerate(observation.hand_sizes) if s != observation.seat]
        # A player holding one or two cards may well hold less than we do.
        return value <= 1 or min(others, default=10) >= 3


def make_random(*, seed: int, rules: CarouselRules, players: int) -> CarouselRandomBot:
    """The catalog's ``random`` Carousel bot for one seat."""
    return CarouselRandomBot(seed, rules=rules)


def make_heuristic(*, seed: int, rules: CarouselRules, players: int) -> CarouselHeuristicBot:
    """The catalog's ``heuristic`` Carousel bot for one seat (decks as the table plays)."""
    return CarouselHeuristicBot(rules, decks=rules.decks_for(players))
