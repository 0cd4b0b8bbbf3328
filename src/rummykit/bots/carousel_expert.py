"""Stronger Carousel bots with four levels (``easy``, ``medium``, ``hard``, ``expert``).

Everything is computed from the bot's own observation (its hand, the table, the hand
sizes and the stock size); the hidden cards are only ever treated as the *unseen pool*:
the two decks minus the bot's hand minus the table.

What the levels add to one another:

* **easy** lays only simple melds (a new trio from the hand, or one card added to a
  table meld: the most valuable of those), and knocks whenever it may. It is meant for
  beginners and is weaker than the heuristic bot.
* **medium** lays what the exact solver (:func:`~rummykit.solvers.arrange.best_placement`)
  finds worth the most, like the heuristic bot, but knocks whenever it may. The heuristic
  bot declines to knock while an opponent holds one or two cards; measured against it,
  declining throws away far more hands than it saves from undercuts.
* **hard** knocks by an **undercut model**: each opponent's hand value is the sum of
  ``n`` cards (``n`` its hand size) drawn from the unseen pool, where cards that would fit
  the table right now are down-weighted (a solver-driven player would have laid them).
  The exact distribution of that sum up to the bot's own value is a small convolution,
  so the model needs no sampling. The bot knocks unless the probability that somebody
  holds as little as it does is above a threshold.
* **expert** also decides **when to stop drawing**. After the first draw, with a meld
  available, it compares melding now against drawing again: for every face the next card
  could be (weighted by how many copies are unseen) it solves the placement of the hand
  plus that card. Cards that touch neither the hand nor the table cannot change the best
  placement, so only the few relevant faces cost a solver call. Positions are compared by
  the value left in hand plus a charge per card held (a held card is a future draw
  you cannot lay), with a bonus for ending the turn able to knock.

Randomness comes only from the bot's own seeded RNG (``easy`` uses it to vary its
choice among equally valuable simple melds).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.bots.carousel_bots import _may_meld, simple_placements
from rummykit.cards import JOKER_FACE, Card, make_rng
from rummykit.solvers.arrange import IllegalLayoutError, Placement, best_placement, check_layout
from rummykit.variants.carousel import (
    CarouselAction,
    CarouselObservation,
    CarouselRules,
    carousel_hand_value,
)

__all__ = [
    "LEVELS",
    "LEVEL_PARAMS",
    "CarouselExpertBot",
    "Level",
    "LevelParams",
    "make_easy",
    "make_expert",
    "make_hard",
    "make_medium",
]

Level = Literal["easy", "medium", "hard", "expert"]
LEVELS: Final = ("easy", "medium", "hard", "expert")

Layout = list[tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class LevelParams:
    """The knobs one level sets (see the module docstring)."""

    solver: bool
    """Lay the solver's most valuable placement (else the best simple meld)."""
    knock_model: bool
    """Knock by the undercut model (else whenever allowed)."""
    undercut_risk: float = 0.35
    """Knock while the estimated chance of being undercut stays at or below this."""
    fit_weight: float = 0.35
    """Weight of an unseen card that would fit the table, in an opponent's hand."""
    lookahead: bool = False
    """Compare melding after the first draw with drawing again."""
    card_weight: float = 4.0
    """Charge per card held, in hand-value points, when comparing positions."""
    knock_bonus: float = 20.0
    """Credit for ending a turn with a hand that may knock."""
    max_faces: int = 30
    """At most this many relevant faces get a solver call in the look-ahead."""


LEVEL_PARAMS: Final[dict[str, LevelParams]] = {
    "easy": LevelParams(solver=False, knock_model=False),
    "medium": LevelParams(solver=True, knock_model=False),
    "hard": LevelParams(solver=True, knock_model=True),
    "expert": LevelParams(solver=True, knock_model=True, lookahead=True),
}


# ----------------------------------------------------------------------------- cards


def _value(face: int, rules: CarouselRules) -> int:
    if face == JOKER_FACE:
        return rules.joker_value
    rank = face % 13
    if rank == 0:
        return rules.ace_high_value
    return min(rank + 1, 10)


def _shown_face(card: Card) -> int:
    """The face a table card stands for (a joker's declaration)."""
    if card.is_joker:
        declared = card.declared
        return declared.face if declared is not None else JOKER_FACE
    return card.face


def unseen_counts(observation: CarouselObservation, decks: int) -> list[int]:
    """Copies of each face (0-52) that the seat cannot see: in other hands or the stock.

    Table jokers count as jokers whatever their declaration.
    """
    counts = [decks] * 52 + [decks]
    for card in observation.hand:
        counts[card.face] -= 1
    for meld in observation.table:
        for card in meld:
            counts[card.face] -= 1
    return [max(count, 0) for count in counts]


@dataclass(frozen=True, slots=True)
class _Shape:
    """A table meld as the faces it accepts one card at a time."""

    group_rank: int | None
    """The rank (0-12) of a group, else ``None``."""
    suits: frozenset[int]
    """A group's suits, or a run's suit."""
    low: int
    """A run's lowest rank, 0-13 with the ace high counted as 13."""
    high: int
    size: int
    declared: frozenset[int]
    """Faces its jokers stand for (a real one frees the joker)."""


def _shape(meld: Sequence[Card]) -> _Shape:
    faces = [_shown_face(card) for card in meld]
    declared = frozenset(_shown_face(c) for c in meld if c.is_joker)
    ranks = {face % 13 for face in faces}
    if len(ranks) == 1 and len(meld) >= 2 and len({face // 13 for face in faces}) == len(faces):
        return _Shape(
            ranks.pop(), frozenset(face // 13 for face in faces), 0, 0, len(meld), declared
        )
    suit = faces[0] // 13
    positions = sorted(face % 13 for face in faces)
    # An ace in a run with a king is the high ace.
    if positions[0] == 0 and 12 in positions:
        positions = sorted(13 if p == 0 else p for p in positions)
    return _Shape(None, frozenset((suit,)), positions[0], positions[-1], len(meld), declared)


def fits_table(face: int, shapes: Sequence[_Shape]) -> bool:
    """Whether one card of ``face`` can join the table by a simple move: extend a run at
    an end, split a long run around it, complete a group, or free a joker."""
    if face == JOKER_FACE:
        return bool(shapes)
    rank, suit = face % 13, face // 13
    for shape in shapes:
        if face in shape.declared:
            return True
        if shape.group_rank is not None:
            if shape.group_rank == rank and suit not in shape.suits and shape.size < 4:
                return True
            continue
        if suit not in shape.suits:
            continue
        positions = (rank, 13) if rank == 0 else (rank,)
        for pos in positions:
            if pos in (shape.low - 1, shape.high + 1) and shape.high - shape.low < 12:
                return True
            if pos - shape.low >= 2 and shape.high - pos >= 2:
                return True
    return False


def _touches(face: int, hand_faces: Sequence[int]) -> bool:
    """Whether a card of ``face`` could form a meld with hand cards: same rank, or same
    suit within two ranks (the ace both low and high)."""
    if face == JOKER_FACE:
        return bool(hand_faces)
    rank, suit = face % 13, face // 13
    for other in hand_faces:
        if other == JOKER_FACE:
            return True
        if other % 13 == rank:
            return True
        if other // 13 == suit:
            gap = abs(other % 13 - rank)
            if gap <= 2 or gap >= 11:
                return True
    return False


def undercut_probability(
    my_value: int,
    hand_sizes: Sequence[int],
    weights: Sequence[float],
    rules: CarouselRules,
) -> float:
    """Chance that at least one opponent's hand value is at most ``my_value``.

    Each opponent holds ``n`` cards drawn independently from the face ``weights``; the
    distribution of the sum is convolved exactly up to ``my_value`` (the rest is
    irrelevant), so this is a few hundred multiplications.
    """
    total = sum(weights)
    if total <= 0:
        return 0.0
    single = [0.0] * (my_value + 1)
    for face, weight in enumerate(weights):
        value = _value(face, rules)
        if weight and value <= my_value:
            single[value] += weight / total
    survive = 1.0
    for size in hand_sizes:
        if size == 0:
            return 1.0
        dist = [1.0] + [0.0] * my_value
        for _ in range(size):
            step = [0.0] * (my_value + 1)
            for have, p in enumerate(dist):
                if p:
                    for add in range(1, my_value + 1 - have):
                        if single[add]:
                            step[have + add] += p * single[add]
            dist = step
        survive *= 1.0 - min(1.0, sum(dist))
    return 1.0 - survive


# ------------------------------------------------------------------------------- bot


class CarouselExpertBot:
    """Carousel bot with four levels; see the module docstring for what each adds."""

    def __init__(
        self,
        level: Level = "expert",
        *,
        rules: CarouselRules | None = None,
        seed: int | random.Random | None = None,
        players: int = 3,
        params: LevelParams | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(
                f"unknown carousel bot level {level!r}; choose one of {', '.join(LEVELS)}"
            )
        self.level = level
        self.name = level
        self.rules = rules or CarouselRules()
        self.rng = make_rng(seed)
        self.decks = self.rules.decks_for(players)
        self.params = params or LEVEL_PARAMS[level]

    # -- the decision -------------------------------------------------------------

    def act(
        self, observation: CarouselObservation, legal_actions: Sequence[CarouselAction]
    ) -> CarouselAction:
        """Choose an action from the observation."""
        kinds = {action.kind: action for action in legal_actions}
        if _may_meld(observation, self.rules) and not observation.melded:
            layout = self._choose_meld(observation, "draw" in kinds)
            if layout is not None:
                return CarouselAction.meld(layout)
        if "draw" in kinds:
            return kinds["draw"]
        if "knock" in kinds and self._should_knock(observation):
            return kinds["knock"]
        if "end_turn" in kinds:
            return kinds["end_turn"]
        return legal_actions[0]

    def _placement(self, table: Sequence[Sequence[Card]], hand: Sequence[Card]) -> Placement | None:
        return best_placement(
            list(table),
            list(hand),
            rules=self.rules.meld_rules,
            decks=self.decks,
            joker_copy_limit=self.rules.joker_copy_limit,
            joker_value=self.rules.joker_value,
        )

    def _choose_meld(self, observation: CarouselObservation, may_draw: bool) -> Layout | None:
        """The layout to submit now, or ``None`` to draw again (or pass)."""
        if not self.params.solver:
            return self._simple_meld(observation)
        placement = self._placement(observation.table, observation.hand)
        if placement is None or not placement.cards:
            return None
        if (
            self.params.lookahead
            and may_draw
            and observation.draws == 1
            and not self._draw_is_worse(observation, placement)
        ):
            return None
        return list(placement.layout)

    def _simple_meld(self, observation: CarouselObservation) -> Layout | None:
        """The most valuable simple meld that the engine accepts (ties at random)."""
        hand = observation.hand
        scored: list[tuple[int, float, Layout]] = []
        on_table = {card.physical for meld in observation.table for card in meld}
        for layout in simple_placements(observation.table, hand):
            laid = [c for meld in layout for c in meld if c.physical not in on_table]
            gain = carousel_hand_value(laid, self.rules)
            scored.append((-gain, self.rng.random(), layout))
        scored.sort(key=lambda item: (item[0], item[1]))
        for _, _, layout in scored:
            try:
                check_layout(
                    observation.table,
                    layout,
                    hand,
                    rules=self.rules.meld_rules,
                    decks=self.decks,
                    joker_copy_limit=self.rules.joker_copy_limit,
                )
            except IllegalLayoutError:
                continue
            return layout
        return None

    # -- position values ----------------------------------------------------------

    def _position(self, value: int, cards: int) -> float:
        """Lower is better: what is left in hand at the end of the turn."""
        score = value + self.params.card_weight * cards
        if cards and value <= self.rules.knock_limit:
            score -= self.params.knock_bonus
        elif not cards:
            score -= 2 * self.params.knock_bonus
        return score

    def _draw_is_worse(self, observation: CarouselObservation, placement: Placement) -> bool:
        """Whether melding ``placement`` now beats drawing once more (expected)."""
        hand = list(observation.hand)
        value_now = carousel_hand_value(hand, self.rules)
        meld_now = self._position(value_now - placement.value, len(hand) - placement.count)
        if len(hand) == placement.count:
            return True  # going out now
        counts = unseen_counts(observation, self.decks)
        total = sum(counts)
        if total == 0 or observation.stock_size == 0:
            return True
        hand_faces = [card.face for card in hand]
        shapes = [_shape(meld) for meld in observation.table]
        # The third draw, if the second does not meld, adds a card and lays none.
        mean_value = sum(_value(f, self.rules) * n for f, n in enumerate(counts)) / total
        relevant = [
            face
            for face, n in enumerate(counts)
            if n and (_touches(face, hand_faces) or fits_table(face, shapes))
        ]
        relevant.sort(key=lambda face: -counts[face])
        relevant = relevant[: self.params.max_faces]
        expected = 0.0
        for face, n in enumerate(counts):
            if not n:
                continue
            face_value = _value(face, self.rules)
            new_value = value_now + face_value
            if face in relevant:
                card = self._sample_card(face)
                after = self._placement(observation.table, [*hand, card])
            else:
                # A card that touches nothing leaves the best placement as it is.
                after = placement
            if after is not None and after.cards:
                score = self._position(new_value - after.value, len(hand) + 1 - after.count)
            else:
                score = self._position(round(new_value + mean_value), len(hand) + 2)
            expected += n * score
            if expected / total >= meld_now:
                return True  # already worse than melding now, whatever the rest holds
        return expected / total >= meld_now

    @staticmethod
    def _sample_card(face: int) -> Card:
        """A physical card of ``face`` that cannot clash with the bot's own ids."""
        # Copy 7 is never dealt with at most three decks, so it is distinct from every
        # card in the hand and on the table; the solver only reads faces and identities.
        return Card(face + (7 << 6))

    # -- knocking -----------------------------------------------------------------

    def _should_knock(self, observation: CarouselObservation) -> bool:
        if not self.params.knock_model:
            return True
        value = carousel_hand_value(observation.hand, self.rules)
        others = [n for s, n in enumerate(observation.hand_sizes) if s != observation.seat]
        counts = unseen_counts(observation, self.decks)
        shapes = [_shape(meld) for meld in observation.table]
        weights = [
            n * (self.params.fit_weight if fits_table(face, shapes) else 1.0)
            for face, n in enumerate(counts)
        ]
        risk = undercut_probability(value, others, weights, self.rules)
        return risk <= self.params.undercut_risk


# ------------------------------------------------------------------ tournament factories


def make_easy(*, seed: int, rules: CarouselRules, players: int) -> CarouselExpertBot:
    """The ``easy`` level for the tournament registry."""
    return CarouselExpertBot("easy", rules=rules, seed=seed, players=players)


def make_medium(*, seed: int, rules: CarouselRules, players: int) -> CarouselExpertBot:
    """The ``medium`` level for the tournament registry."""
    return CarouselExpertBot("medium", rules=rules, seed=seed, players=players)


def make_hard(*, seed: int, rules: CarouselRules, players: int) -> CarouselExpertBot:
    """The ``hard`` level for the tournament registry."""
    return CarouselExpertBot("hard", rules=rules, seed=seed, players=players)


def make_expert(*, seed: int, rules: CarouselRules, players: int) -> CarouselExpertBot:
    """The ``expert`` level for the tournament registry."""
    return CarouselExpertBot("expert", rules=rules, seed=seed, players=players)
