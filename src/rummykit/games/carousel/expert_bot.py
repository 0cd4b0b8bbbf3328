"""Stronger Carousel bots with four levels (``easy``, ``medium``, ``hard``, ``expert``).

Everything is computed from the bot's own observation (its hand, the table, the hand
sizes and the stock size); the hidden cards are only ever treated as the *unseen pool*:
the two decks minus the bot's hand minus the table.

What the levels add to one another:

* **easy** plays like ``medium``, but at half of its meld decisions (drawn from its own
  RNG) it sees only *simple* melds: a new trio from the hand or one card added to a
  table meld, the most valuable first, laid one after another. It is meant for
  beginners and is weaker than the heuristic bot.
* **medium** lays what the exact solver (:func:`~rummykit.games.carousel.arrange.best_placement`)
  finds worth the most, like the heuristic bot, but knocks whenever it may. The heuristic
  bot declines to knock while an opponent holds one or two cards; measured against it,
  declining throws away far more hands than it saves from undercuts (in self-play a
  knock at 5 or less was practically never undercut).
* **hard** knocks by an **undercut model**: each opponent's hand value is the sum of
  ``n`` cards (``n`` its hand size) drawn from the unseen pool, where cards that would fit
  the table right now are down-weighted (a solver-driven player would have laid them).
  The exact distribution of that sum up to the bot's own value is a small convolution,
  so the model needs no sampling. The bot knocks unless the chance that somebody holds
  as little as it does is above one half: waiting is about as risky, since an opponent
  that close is likely to knock or go out on his own turn.
* **expert** **holds its melds back**: while it may still draw, it melds only when the
  placement lets it knock or go out at once; otherwise it draws again, all three cards
  of the turn, and its hand grows until the solver can lay nearly all of it in one go
  (or the stock runs out and the final lap lets it meld without drawing). Measured
  against the heuristic bot this wins far more games than melding early: the big hand
  goes down whole, and the opponents, with fewer table cards to lay off on, still hold
  a lot when it does. Holding back only partly (up to the second draw, or while the
  hand is worth at most 80 or holds at most 20 cards) measured much worse than holding
  through every draw; melding as soon as an opponent is down to a few cards made no
  clear difference. Its knocks use the undercut model of ``hard``.

  The older expert's **look-ahead** (``LevelParams.lookahead``: after the first draw,
  compare melding now with drawing once more, scored by a measured win-chance table;
  for each face the next card could be, weighted by the unseen copies, the bot solves
  the placement of the hand plus that card when the face can change it) is kept as an
  option; with the hold it would never be consulted, so no level uses it.

Randomness comes only from the bot's own seeded RNG (only ``easy`` uses it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.bots.levels import LEVELS, Level, checked_level
from rummykit.cards import JOKER_FACE, MAX_COPIES, Card, make_rng, physical_card
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.arrange import Placement
from rummykit.games.carousel.hand import CarouselObservation
from rummykit.games.carousel.layout import IllegalLayoutError
from rummykit.games.carousel.rules import CarouselRules, carousel_hand_value
from rummykit.games.carousel.simple_bots import _may_meld, no_meld_action, simple_placements
from rummykit.games.carousel.under_rules import best_placement_under, check_layout_under

__all__ = [
    "LEVELS",
    "LEVEL_PARAMS",
    "CarouselExpertBot",
    "HoldBack",
    "Level",
    "LevelParams",
    "Lookahead",
    "UndercutModel",
    "make_easy",
    "make_expert",
    "make_hard",
    "make_medium",
]

Layout = list[tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class UndercutModel:
    """Knock unless somebody probably holds as little (``hard``, ``expert``)."""

    risk: float = 0.5
    """Knock while the estimated chance of being undercut stays at or below this."""
    fit_weight: float = 0.35
    """Weight of an unseen card that would fit the table, in an opponent's hand."""


@dataclass(frozen=True, slots=True)
class Lookahead:
    """Compare melding after the first draw with drawing again (no level uses it)."""

    knock_win: float = 0.95
    """Chance to win the hand when a turn ends able to knock."""
    out_extra: float = 0.3
    """Extra worth of going out (the bonus of 25), as a fraction of a won hand."""
    draw_margin: float = 0.0
    """Draw again only when that is expected to raise the win chance by more than this."""
    cutoff: int = 25
    """Skip the look-ahead when more than this value would stay in hand after melding."""
    max_faces: int = 12
    """At most this many relevant faces get a solver call."""


@dataclass(frozen=True, slots=True)
class HoldBack:
    """Hold melds back (draw instead) while melding would neither knock nor go out
    (``expert``); the limits below end the hold early, and are off by default."""

    min_opp: int = 0
    """Hold only while every opponent holds more than this many cards."""
    max_draw: int = 99
    """Hold only at the meld decisions after at most this many draws (1: meld after the
    second draw at the latest)."""
    max_cards: int = 99
    """Hold only while the hand holds at most this many cards."""
    max_value: int = 999
    """Hold only while the hand is worth at most this much."""


@dataclass(frozen=True, slots=True)
class LevelParams:
    """What one level adds (see the module docstring); ``None`` leaves a part out."""

    undercut: UndercutModel | None = None
    """Knock by the undercut model; ``None``: whenever allowed."""
    simple_rate: float = 0.0
    """Chance, at each meld decision, to see only simple melds: a new trio from the
    hand or one card added to a table meld."""
    lookahead: Lookahead | None = None
    hold: HoldBack | None = None


LEVEL_PARAMS: Final[dict[str, LevelParams]] = {
    "easy": LevelParams(simple_rate=0.5),
    "medium": LevelParams(),
    "hard": LevelParams(undercut=UndercutModel()),
    "expert": LevelParams(undercut=UndercutModel(), hold=HoldBack()),
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


def completes_meld(face: int, hand_faces: Sequence[int]) -> bool:
    """Whether a card of ``face`` makes a new meld with two hand cards: two more suits of
    its rank, two neighbours of its suit in a row of three (the ace low or high), or one
    card within two ranks (or of its rank) and a joker from the hand."""
    held = set(hand_faces)
    jokers = JOKER_FACE in held
    if face == JOKER_FACE:
        return len(held - {JOKER_FACE}) >= 2
    rank, suit = face % 13, face // 13
    suits = {other // 13 for other in held if other != JOKER_FACE and other % 13 == rank}
    suits.discard(suit)
    if len(suits) >= 2 or (jokers and suits):
        return True
    row = [suit * 13 + r in held for r in range(13)]
    row.append(row[0])  # the ace again, high
    positions = (0, 13) if rank == 0 else (rank,)
    for pos in positions:
        for low in range(pos - 2, pos + 1):
            if low < 0 or low + 2 > 13:
                continue
            others = [row[p] for p in range(low, low + 3) if p != pos]
            if all(others) or (jokers and any(others)):
                return True
    return False


def _touches(face: int, hand_faces: Sequence[int]) -> bool:
    """Whether a card of ``face`` is of a hand card's rank or next to one in its suit."""
    rank, suit = face % 13, face // 13
    for other in hand_faces:
        if other == JOKER_FACE or other % 13 == rank:
            return True
        if other // 13 == suit and abs(other % 13 - rank) in (1, 12):
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

_CLOSEST_FACTOR: Final = (0.0, 0.5, 0.6, 0.7, 0.8, 1.1, 1.25)
"""Win chance relative to the average, by the fewest cards an opponent holds (1-6+)."""


class CarouselExpertBot:
    """Carousel bot with four levels; see the module docstring for what each adds."""

    def __init__(
        self,
        level: Level | str = "expert",
        *,
        rules: CarouselRules | None = None,
        seed: int | random.Random | None = None,
        players: int = 3,
        params: LevelParams | None = None,
    ) -> None:
        self.level = checked_level("carousel", level)
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
        # The deck count follows the table actually played, whatever ``players`` said.
        self.decks = self.rules.decks_for(observation.players)
        kinds = {action.kind: action for action in legal_actions}
        if _may_meld(observation, self.rules) and not observation.melded:
            layout = self._choose_meld(observation, "draw" in kinds)
            if layout is not None:
                return CarouselAction.meld(layout)
        elif observation.melded and self.params.simple_rate and observation.hand:
            # Simple melds go down one at a time: keep laying while one is left (after
            # a solver placement none is left, it laid all it could).
            layout = self._simple_meld(observation)
            if layout is not None:
                return CarouselAction.meld(layout)
        return no_meld_action(kinds, legal_actions, lambda: self._should_knock(observation))

    def _placement(self, table: Sequence[Sequence[Card]], hand: Sequence[Card]) -> Placement | None:
        return best_placement_under(self.rules, self.decks, table, hand)

    def _choose_meld(self, observation: CarouselObservation, may_draw: bool) -> Layout | None:
        """The layout to submit now, or ``None`` to draw again (or pass)."""
        if self.params.simple_rate and self.rng.random() < self.params.simple_rate:
            return self._simple_meld(observation)  # a beginner sees only simple melds
        placement = self._placement(observation.table, observation.hand)
        if placement is None or not placement.cards:
            return None
        if may_draw and self._hold_back(observation, placement):
            return None
        lookahead = self.params.lookahead
        if (
            lookahead is not None
            and may_draw
            and observation.draws == 1
            and not self._draw_is_worse(observation, placement, lookahead)
        ):
            return None
        return list(placement.layout)

    def _hold_back(self, observation: CarouselObservation, placement: Placement) -> bool:
        """Whether to keep the meld in hand and draw again."""
        hold = self.params.hold
        if hold is None or observation.draws > hold.max_draw:
            return False
        hand = observation.hand
        if len(hand) == placement.count:
            return False  # going out
        value = carousel_hand_value(hand, self.rules)
        if value - placement.value <= self.rules.knock_limit:
            return False  # knocking
        if len(hand) > hold.max_cards or value > hold.max_value:
            return False
        closest = min(
            (n for s, n in enumerate(observation.hand_sizes) if s != observation.seat), default=99
        )
        return closest > hold.min_opp

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
                check_layout_under(self.rules, self.decks, observation.table, layout, hand)
            except IllegalLayoutError:
                continue
            return layout
        return None

    # -- position values ----------------------------------------------------------

    def _win_chance(self, value: int, cards: int, closest: int, lookahead: Lookahead) -> float:
        """Estimated chance to win the hand from the end of one's turn, higher is better.

        Measured in self-play of the ``medium`` level (300 hands, 6,268 turn ends): a
        turn that ends able to knock practically wins (knocks were never undercut), while
        otherwise the chance falls only slowly with the value held: about 0.42 at 6-15,
        0.37 at 16-20, 0.33 at 21-30 and 0.29 above (the hand count adds little once the
        value is known). It depends far more on ``closest``, the fewest cards an opponent
        holds: roughly half as much with an opponent on one card as with all on six or
        more. So drawing again is worth it mostly for the chance to knock or go out
        this turn, and the more so when an opponent is close.
        """
        if cards == 0:
            return 1.0 + lookahead.out_extra
        if value <= self.rules.knock_limit:
            return lookahead.knock_win
        base = max(0.28, 0.42 - 0.0035 * max(0, value - 12))
        return base * _CLOSEST_FACTOR[min(max(closest, 1), 6)]

    def _draw_is_worse(
        self, observation: CarouselObservation, placement: Placement, lookahead: Lookahead
    ) -> bool:
        """Whether melding ``placement`` now beats drawing once more (expected)."""
        hand = list(observation.hand)
        value_now = carousel_hand_value(hand, self.rules)
        left = value_now - placement.value
        closest = min(
            (n for s, n in enumerate(observation.hand_sizes) if s != observation.seat), default=6
        )
        meld_now = self._win_chance(left, len(hand) - placement.count, closest, lookahead)
        if len(hand) == placement.count or left <= self.rules.knock_limit:
            return True  # going out or knocking now
        if left > lookahead.cutoff:
            return True  # one more card will not make a knock out of this
        counts = unseen_counts(observation, self.decks)
        total = sum(counts)
        if total == 0 or observation.stock_size == 0:
            return True
        hand_faces = [card.face for card in hand]
        shapes = [_shape(meld) for meld in observation.table]
        # The third draw, if the second does not meld, adds a card and lays none.
        mean_value = sum(_value(f, self.rules) * n for f, n in enumerate(counts)) / total
        # Drawing again pays when the card lets more of the hand go down: it makes a new
        # meld with hand cards, or joins the table next to a hand card (which may then
        # follow it), or frees a table joker. Those faces get a solver call, the most
        # likely first; any other card only adds its value to the hand.
        freeing = {face for shape in shapes for face in shape.declared}
        relevant = [
            face
            for face, n in enumerate(counts)
            if n
            and (
                completes_meld(face, hand_faces)
                or face in freeing
                or (_touches(face, hand_faces) and fits_table(face, shapes))
            )
        ]
        relevant.sort(key=lambda face: -counts[face])
        solve = set(relevant[: lookahead.max_faces])
        expected = 0.0
        for face, n in enumerate(counts):
            if not n:
                continue
            new_value = value_now + _value(face, self.rules)
            if face in solve:
                after = self._placement(observation.table, [*hand, self._sample_card(face)])
                if after is not None and after.cards:
                    left_after, cards_after = new_value - after.value, len(hand) + 1 - after.count
                else:
                    left_after, cards_after = round(new_value + mean_value), len(hand) + 2
                chance = self._win_chance(left_after, cards_after, closest, lookahead)
            elif fits_table(face, shapes):
                chance = meld_now  # drawn and laid with the rest: no worse than now
            else:
                chance = self._win_chance(
                    left + _value(face, self.rules),
                    len(hand) + 1 - placement.count,
                    closest,
                    lookahead,
                )
            expected += n * chance
        return expected / total <= meld_now + lookahead.draw_margin

    @staticmethod
    def _sample_card(face: int) -> Card:
        """A physical card of ``face`` that cannot clash with the bot's own ids."""
        # Copy 7 is never dealt with at most three decks, so it is distinct from every
        # card in the hand and on the table; the solver only reads faces and identities.
        return physical_card(face, MAX_COPIES - 1)

    # -- knocking -----------------------------------------------------------------

    def _should_knock(self, observation: CarouselObservation) -> bool:
        model = self.params.undercut
        if model is None:
            return True
        value = carousel_hand_value(observation.hand, self.rules)
        others = [n for s, n in enumerate(observation.hand_sizes) if s != observation.seat]
        counts = unseen_counts(observation, self.decks)
        shapes = [_shape(meld) for meld in observation.table]
        weights = [
            n * (model.fit_weight if fits_table(face, shapes) else 1.0)
            for face, n in enumerate(counts)
        ]
        risk = undercut_probability(value, others, weights, self.rules)
        return risk <= model.risk


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
