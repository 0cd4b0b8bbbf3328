"""Strong Gin bots with four difficulty levels, from the seat's observation alone.

The bot reads three things out of its observation, all public to its seat:

* **Where the unseen cards are.** The unseen cards (not in its hand, not in the
  discard pile, not known to be in the opponent's hand) are in the opponent's hand or
  in the stock. Each gets a probability of being in the opponent's hand, starting from
  the plain share (unknown opponent cards / unseen cards) and moved by the opponent's
  public actions: a card it discarded or declined (passed the upcard, drew from the
  stock over it) makes that card's meld partners less likely in its hand, a card it
  took from the pile makes them more likely.
* **What a discard gives away.** ``danger(c)`` is the chance that the opponent holds
  two cards that meld with ``c`` (a set pair or a run pair), from those probabilities.
  A discard the opponent can meld speeds its knock, so it is charged a few points.
* **What a hand is worth.** A 10-card hand ``h`` is scored ``deadwood(h) - g * gain(h)``
  where ``gain(h)`` is the expected drop in deadwood from the next stock draw (the
  draw weighted by the chance each unseen card is still in the stock: a card the
  opponent probably holds is not a live out). Each term is a handful of exact solver
  calls (:mod:`rummykit.games.gin.deadwood`, microseconds each).

Decisions:

* **Discard**: the card minimising ``score(hand - c) + danger_weight * danger(c)``
  (the danger charge stays small: a heavy one keeps high cards and costs points).
* **Draw**: take the upcard when it melds and the hand after the best discard beats
  the expected hand after a stock draw, or when it lets the bot knock at once.
* **Knock**: ``medium`` knocks at once. ``hard`` and ``expert`` sample opponent hands
  from the card probabilities, tilted towards the low deadwood a real opponent keeps at
  that stage, lay them off against the bot's melds and knock (with the knock card
  leaving the fewest layoffs) when the expected points, an undercut counted negative,
  are positive. Before that both may play on for gin: ``hard`` with 1-2 deadwood while
  the stock is long, ``expert`` with any knockable hand until the stock is nearly out.
  A low-deadwood hand is a strong defensive position against an opponent who knocks
  as soon as it may (its knock is often undercut) and keeps drawing towards gin;
  tuning against the heuristic bot found this worth about 3 points a hand. Near the
  end of the match, when a small win would reach the target for either player,
  ``expert`` stops waiting for gin.

Levels (strength measured against :class:`GinHeuristicBot` in
``docs/strong-bots-gin.md``): ``easy`` plays the heuristic's moves with a random draw
or discard a quarter of the time; ``medium`` scores hands by deadwood and live outs and
knocks at once; ``hard`` adds the card model, discard danger, taking the upcard to
knock and knock judgement; ``expert`` adds the long gin wait and the match-point rule.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.bots.levels import checked_level
from rummykit.cards import make_rng, parse_card
from rummykit.games.gin.actions import GinAction
from rummykit.games.gin.deadwood import (
    CARD_VALUES,
    best_discard_mask,
    cards_of_mask,
    deadwood_after_each_discard,
    mask_of,
    meld_union,
    min_deadwood,
    min_deadwood_mask,
)
from rummykit.games.gin.expert_params import (
    LEVEL_PARAMS,
    LEVELS,
    GinExpertParams,
    Level,
    with_params,
)
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.layoffs import layoff_deadwood
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.rules import GinRules

__all__ = [
    "LEVELS",
    "LEVEL_PARAMS",
    "GinExpertBot",
    "GinExpertParams",
    "Level",
    "make_expert_bot",
    "with_params",
]

ALL_CARDS: Final = (1 << 52) - 1


def _partners(card: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The other cards of ``card``'s rank, and the same-suit pairs that make a run with
    it (below, around and above)."""
    rank, suit = card % 13, card // 13
    same = [other * 13 + rank for other in range(4) if other != suit]
    pairs = [
        (suit * 13 + first, suit * 13 + second)
        for first, second in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2))
        if first >= 0 and second < 13
    ]
    return same, pairs


_PARTNERS: Final = tuple(_partners(card) for card in range(52))
_NEIGHBOURS: Final = tuple(
    tuple(
        (other, factor)
        for other, factor in [(s * 13 + card % 13, 0) for s in range(4) if s != card // 13]
        + [
            ((card // 13) * 13 + card % 13 + step, abs(step))
            for step in (-2, -1, 1, 2)
            if 0 <= card % 13 + step < 13
        ]
    )
    for card in range(52)
)
"""Per card: (partner card, distance) with distance 0 for the same rank, else the rank
gap in the same suit."""


@dataclass(slots=True)
class _View:
    """What the bot knows, derived once per decision from the observation."""

    hand: int
    unseen: int
    in_opponent: list[float]
    """Per card: the probability it is in the opponent's hand (1 known, 0 seen)."""
    in_stock: list[float]
    """Per card: the probability it is the next stock card."""
    opponent_unknown: int


class GinExpertBot:
    """Gin bot with four levels; see the module docstring for what each adds."""

    def __init__(
        self,
        level: Level = "expert",
        *,
        rules: GinRules | None = None,
        seed: int | random.Random | None = None,
        params: GinExpertParams | None = None,
    ) -> None:
        self.level = checked_level("gin", level)
        self.name: str = level
        self.rules = rules or GinRules()
        self.rng = make_rng(seed)
        self.params = params or LEVEL_PARAMS[level]
        self._heuristic = GinHeuristicBot(self.rules)

    # -- entry point ----------------------------------------------------------------

    def act(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        """Choose an action from the observation alone."""
        phase = observation.phase
        if phase not in ("offer", "draw", "discard"):
            # The layoff phase (auto_layoff=false): the list offers the optimal layoff.
            return legal_actions[0]
        kinds: dict[str, GinAction] = {action.kind: action for action in legal_actions}
        if "big_gin" in kinds:
            return kinds["big_gin"]
        if self.params.mistake_rate and self.level == "easy":
            return self._easy(observation, legal_actions)
        view = self._read(observation)
        if phase in ("offer", "draw"):
            take = self._should_take(observation, view)
            if phase == "offer":
                return kinds["take_upcard"] if take else kinds["pass"]
            if take and "draw_discard" in kinds:
                return kinds["draw_discard"]
            return kinds["draw_stock"]
        return self._discard_phase(observation, legal_actions, view)

    # -- knowledge -------------------------------------------------------------------

    def _read(self, observation: GinObservation) -> _View:
        hand = mask_of(observation.hand)
        known = mask_of(observation.opponent_known_cards)
        unseen = ALL_CARDS & ~(hand | mask_of(observation.discard_pile) | known)
        unknown = observation.opponent_hand_size - known.bit_count()
        weight = [0.0] * 52
        for card in cards_of_mask(unseen):
            weight[card] = 1.0
        if self.params.opponent_model:
            self._apply_evidence(observation, weight)
        total = sum(weight)
        in_opponent = [0.0] * 52
        in_stock = [0.0] * 52
        if total > 0 and unknown > 0:
            scale = unknown / total
            for index in range(52):
                if weight[index]:
                    in_opponent[index] = min(0.95, weight[index] * scale)
        for card in cards_of_mask(known):
            in_opponent[card] = 1.0
        stock_total = sum(1.0 - in_opponent[card] for card in cards_of_mask(unseen))
        if stock_total > 0:
            for card in cards_of_mask(unseen):
                in_stock[card] = (1.0 - in_opponent[card]) / stock_total
        return _View(hand, unseen, in_opponent, in_stock, unknown)

    def _apply_evidence(self, observation: GinObservation, weight: list[float]) -> None:
        """Move each unseen card's weight by what the opponent did with its partners.

        A player keeps cards that meld with what it holds: a card it threw away or
        declined says its meld partners are less likely in its hand, a card it took
        says they are more likely. Close partners (same rank, adjacent rank) say more
        than a card two ranks away.
        """
        opponent = 1 - observation.seat
        top: int | None = None
        forced_stock = False
        factors: list[tuple[int, tuple[float, float, float]]] = []
        # (card, factor for same rank / one apart / two apart)
        thrown = (0.6, 0.6, 0.85)
        declined = (0.55, 0.55, 0.8)
        took = (1.8, 1.8, 1.3)
        passes = 0
        for event in observation.history:
            kind = event.kind
            if kind == "deal":
                upcard = event.detail.get("upcard")
                top = int(parse_card(str(upcard))) if upcard is not None else None
            elif kind == "pass":
                passes += 1
                if event.seat == opponent and top is not None:
                    factors.append((top, declined))
                if passes == 2 and self.rules.first_turn_after_double_pass == "stock_only":
                    forced_stock = True
            elif kind == "draw_stock":
                if event.seat == opponent and top is not None and not forced_stock:
                    factors.append((top, declined))
                forced_stock = False
            elif kind in ("take_upcard", "draw_discard"):
                if event.seat == opponent and event.card is not None:
                    factors.append((int(event.card), took))
                top = None
            elif kind == "discard" and event.card is not None:
                top = int(event.card)
                if event.seat == opponent:
                    factors.append((top, thrown))
        for card, (same, near, far) in factors:
            for other, distance in _NEIGHBOURS[card]:
                if weight[other]:
                    weight[other] *= same if distance == 0 else near if distance == 1 else far

    @staticmethod
    def _danger(card: int, view: _View) -> float:
        """The chance the opponent holds two cards that meld with ``card``."""
        p = view.in_opponent
        same, pairs = _PARTNERS[card]
        a, b, c = p[same[0]], p[same[1]], p[same[2]]
        miss = 1.0 - (a * b + a * c + b * c - 2.0 * a * b * c)
        for first, second in pairs:
            miss *= 1.0 - p[first] * p[second]
        return 1.0 - miss

    # -- evaluation ------------------------------------------------------------------

    def _potential_weight(self, observation: GinObservation) -> float:
        params = self.params
        if observation.stock_size <= params.late_stock:
            return params.late_potential
        return params.potential

    def _gain(self, hand10: int, deadwood: int, view: _View) -> float:
        """Expected drop in deadwood from the next stock draw (then the best discard)."""
        ace_high = self.rules.ace_high_runs
        in_stock = view.in_stock
        total = 0.0
        bits = view.unseen
        while bits:
            bit = bits & -bits
            bits ^= bit
            card = bit.bit_length() - 1
            after = best_discard_mask(hand10 | bit, ace_high)[1]
            if after < deadwood:
                total += in_stock[card] * (deadwood - after)
        return total

    def _score(self, hand10: int, view: _View, weight: float) -> float:
        deadwood = min_deadwood_mask(hand10, self.rules.ace_high_runs)
        if weight == 0.0:
            return float(deadwood)
        return deadwood - weight * self._gain(hand10, deadwood, view)

    def _best_discard(
        self, hand11: int, view: _View, weight: float, forbidden: int | None
    ) -> tuple[float, int]:
        """(score, card) of the best discard from an 11-card hand."""
        return self._ranked_discards(hand11, view, weight, forbidden)[0]

    def _ranked_discards(
        self, hand11: int, view: _View, weight: float, forbidden: int | None
    ) -> list[tuple[float, int]]:
        """(score, card) of every sensible discard from an 11-card hand, best first."""
        after = deadwood_after_each_discard(hand11, self.rules.ace_high_runs)
        floor = min(d for c, d in after.items() if c != forbidden)
        danger_weight = self.params.danger_weight
        ranked: list[tuple[float, int, int]] = []
        for card, deadwood in after.items():
            if card == forbidden or deadwood > floor + 10:
                # A discard ten points worse now is never rescued by one draw.
                continue
            rest = hand11 & ~(1 << card)
            value = float(deadwood)
            if weight:
                value -= weight * self._gain(rest, deadwood, view)
            if danger_weight:
                value += danger_weight * self._danger(card, view)
            # Ties: throw the higher card (less to pay if the opponent knocks).
            ranked.append((value, -CARD_VALUES[card], card))
        ranked.sort()
        return [(value, card) for value, _, card in ranked]

    # -- decisions -------------------------------------------------------------------

    def _should_take(self, observation: GinObservation, view: _View) -> bool:
        upcard = observation.upcard
        if upcard is None:
            return False
        card = int(upcard)
        ace_high = self.rules.ace_high_runs
        hand = view.hand
        with_card = hand | 1 << card
        melds = bool(meld_union(with_card, ace_high) >> card & 1)
        limit = self.rules.knock_limit
        now = min_deadwood_mask(hand, ace_high)
        if self.params.take_to_knock and now > limit:
            after = deadwood_after_each_discard(with_card, ace_high)
            if min(d for c, d in after.items() if c != card) <= limit:
                return True
        margin = self.params.take_margin
        if not melds:
            if self.params.unmelded_margin is None:
                return False
            margin = self.params.unmelded_margin
        weight = self._potential_weight(observation)
        take_value, _ = self._best_discard(with_card, view, weight, card)
        # The stock: the expected hand after one draw, whose own potential is about
        # that of the hand now (one more draw's worth).
        gain = self._gain(hand, now, view) if weight else 0.0
        stock_value = now - gain - weight * gain
        if self.params.danger_weight:
            stock_value += self.params.danger_weight * self._typical_danger(hand, view)
        return take_value + margin < stock_value

    def _typical_danger(self, hand: int, view: _View) -> float:
        """The danger of the discard likely after a stock draw: that of the least
        dangerous of the hand's deadwood cards (a proxy, cheap)."""
        arrangement = min_deadwood(cards_of_mask(hand), ace_high=self.rules.ace_high_runs)
        cards = arrangement.deadwood_cards or tuple(cards_of_mask(hand))
        return min(self._danger(int(card), view) for card in cards)

    def _discard_phase(
        self, observation: GinObservation, legal_actions: Sequence[GinAction], view: _View
    ) -> GinAction:
        hand = view.hand
        ace_high = self.rules.ace_high_runs
        after = deadwood_after_each_discard(hand, ace_high)
        knocks = [action for action in legal_actions if action.kind == "knock"]
        if knocks:
            knock = self._choose_knock(observation, view, knocks, after)
            if knock is not None:
                return knock
        taken = None if observation.taken_card is None else int(observation.taken_card)
        weight = self._potential_weight(observation)
        ranked = self._ranked_discards(hand, view, weight, taken)
        params = self.params
        if params.race_weight and len(ranked) > 1 and observation.stock_size > 4:
            futures = self._futures(view, min(params.race_depth, observation.stock_size // 2))
            rescored = [
                (value + params.race_weight * self._race(hand & ~(1 << card), futures), card)
                for value, card in ranked[: params.race_candidates]
            ]
            return GinAction.discard(min(rescored)[1])
        return GinAction.discard(ranked[0][1])

    def _futures(self, view: _View, depth: int) -> list[list[int]]:
        """Sequences of the bot's own next stock draws, sampled without replacement in
        proportion to the chance each unseen card is in the stock. The same sequences
        serve every candidate discard, so their comparison is not drowned in noise."""
        pool = cards_of_mask(view.unseen)
        weights = [view.in_stock[card] for card in pool]
        depth = min(depth, len(pool))
        return [
            _weighted_sample(self.rng, pool, weights, depth)
            for _ in range(self.params.race_futures)
        ]

    def _race(self, hand10: int, futures: list[list[int]]) -> float:
        """Mean number of the bot's own draws until it can knock, discarding greedily
        (a playout that never gets there counts two more than its length)."""
        ace_high = self.rules.ace_high_runs
        limit = self.rules.knock_limit
        start = min_deadwood_mask(hand10, ace_high)
        total = 0
        for future in futures:
            hand = hand10
            deadwood = start
            turns = 0
            for card in future:
                if deadwood <= limit:
                    break
                turns += 1
                hand |= 1 << card
                drop, deadwood = best_discard_mask(hand, ace_high)
                hand &= ~(1 << drop)
            total += turns if deadwood <= limit else len(future) + 2
        return total / len(futures)

    def _choose_knock(
        self,
        observation: GinObservation,
        view: _View,
        knocks: Sequence[GinAction],
        after: dict[int, int],
    ) -> GinAction | None:
        """The knock to make now, or ``None`` to play on."""
        params = self.params
        best = min(knocks, key=lambda a: (after[int(a.card or 0)], -int(a.card or 0)))
        deadwood = after[int(best.card or 0)]
        if deadwood == 0:
            return best
        # Near the end of the match a plain win is enough (ours) or every turn played
        # on may be the opponent's winning knock (theirs): no waiting for gin then.
        match_point = params.score_aware and self._match_point(observation, deadwood)
        if (
            not match_point
            and deadwood <= params.gin_wait_deadwood
            and observation.stock_size >= params.gin_wait_stock
        ):
            return None
        if not params.knock_judgement:
            return best
        samples = self._opponent_samples(observation, view)
        if not samples:
            return best
        options = [a for a in knocks if after[int(a.card or 0)] <= deadwood + params.knock_spread]
        valued = [
            (self._knock_points(view.hand & ~(1 << int(a.card or 0)), samples), a) for a in options
        ]
        value, choice = max(valued, key=lambda item: (item[0], -after[int(item[1].card or 0)]))
        threshold = params.knock_threshold - (params.match_point_slack if match_point else 0.0)
        return choice if value > threshold else None

    def _match_point(self, observation: GinObservation, deadwood: int) -> bool:
        """A won hand likely ends the match, for us or for the opponent: a small win
        (half the opponent's typical deadwood, less ours) reaches the target."""
        seat = observation.seat
        typical = _typical_opponent_deadwood(observation.stock_size)
        small_win = max(1.0, typical * 0.5 - deadwood)
        mine, theirs = observation.scores[seat], observation.scores[1 - seat]
        return max(mine, theirs) + small_win >= observation.target

    def _opponent_samples(self, observation: GinObservation, view: _View) -> list[list[int]]:
        """Opponent hands drawn from the card probabilities, tilted towards the low
        deadwood a sensible opponent has kept by this stage of the hand."""
        ace_high = self.rules.ace_high_runs
        known = [c for c in range(52) if view.in_opponent[c] == 1.0]
        pool = cards_of_mask(view.unseen)
        need = view.opponent_unknown
        if need <= 0 or need > len(pool):
            return []
        weights = [view.in_opponent[c] for c in pool]
        count = self.params.knock_samples
        drafts: list[tuple[list[int], int]] = []
        for _ in range(count * 3):
            sample = known + _weighted_sample(self.rng, pool, weights, need)
            drafts.append((sample, min_deadwood_mask(mask_of(sample), ace_high)))
        target = _typical_opponent_deadwood(observation.stock_size)
        tilt = _tilt([d for _, d in drafts], target)
        evidence = self.params.no_knock_evidence
        if evidence != 1.0:
            limit = self.rules.knock_limit
            tilt = [
                w * (evidence if d <= limit else 1.0)
                for w, (_, d) in zip(tilt, drafts, strict=True)
            ]
            if not any(tilt):
                tilt = [1.0] * len(drafts)
        picks = self.rng.choices(range(len(drafts)), weights=tilt, k=count)
        return [drafts[index][0] for index in picks]

    def _knock_points(self, rest: int, samples: list[list[int]]) -> float:
        """Expected points of knocking with the 10 cards ``rest`` against the sampled
        opponent hands (their layoffs included; an undercut counts negative)."""
        rules = self.rules
        ace_high = rules.ace_high_runs
        arrangement = min_deadwood(cards_of_mask(rest), ace_high=ace_high)
        deadwood = arrangement.deadwood
        total = 0.0
        for sample in samples:
            defender = layoff_deadwood(
                arrangement.melds, sample, chained=rules.chained_layoffs, ace_high=ace_high
            ).deadwood
            if defender > deadwood:
                total += defender - deadwood
            elif defender == deadwood and not rules.undercut_on_tie:
                continue
            else:
                total -= rules.undercut_bonus + deadwood - defender
        return total / len(samples)

    # -- easy ------------------------------------------------------------------------

    def _easy(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        """The heuristic's move, but now and then a random legal discard or draw."""
        action = self._heuristic.act(observation, legal_actions)
        slips = action.kind in ("discard", "draw_stock", "draw_discard")
        if slips and self.rng.random() < self.params.mistake_rate:
            if action.kind == "discard":
                same = [a for a in legal_actions if a.kind == "discard"]
            else:
                same = [a for a in legal_actions if a.kind in ("draw_stock", "draw_discard")]
            return self.rng.choice(same)
        return action


def _weighted_sample(
    rng: random.Random, pool: Sequence[int], weights: Sequence[float], count: int
) -> list[int]:
    """``count`` distinct cards of ``pool``, each draw in proportion to its weight
    (Efraimidis-Spirakis keys: one random number per card)."""
    keys = sorted(
        range(len(pool)),
        key=lambda i: -math.log(rng.random() or 1e-300) / max(weights[i], 1e-9),
    )
    return [int(pool[i]) for i in keys[:count]]


# Mean deadwood (before layoffs) of a heuristic player's hand by stock size, measured in
# heuristic self-play: a real opponent has kept melds and thrown its junk, so uniformly
# dealt hands overstate its deadwood by far.
_OPPONENT_DEADWOOD: Final = ((28, 44.0), (24, 31.0), (20, 24.0), (16, 22.0), (0, 18.0))


def _typical_opponent_deadwood(stock_size: int) -> float:
    for stock, deadwood in _OPPONENT_DEADWOOD:
        if stock_size >= stock:
            return deadwood
    return _OPPONENT_DEADWOOD[-1][1]


def _tilt(values: list[int], target: float) -> list[float]:
    """Weights ``exp(-beta * v)`` whose weighted mean of ``values`` is about ``target``."""
    low_value = min(values)
    if sum(values) / len(values) <= target:
        return [1.0] * len(values)
    if low_value >= target:
        return [1.0 if v == low_value else 0.0 for v in values]
    low, high = 0.0, 2.0
    weights = [1.0] * len(values)
    for _ in range(30):
        beta = (low + high) / 2
        weights = [math.exp(-beta * (v - low_value)) for v in values]
        mean = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        if mean > target:
            low = beta
        else:
            high = beta
    return weights


def make_expert_bot(
    *, seed: int, rules: GinRules | None = None, players: int = 2, level: Level = "expert"
) -> GinExpertBot:
    """Registry factory: a :class:`GinExpertBot` of ``level`` for one seat."""
    return GinExpertBot(level, rules=rules, seed=seed)


def make_hard_bot(*, seed: int, rules: GinRules | None = None, players: int = 2) -> GinExpertBot:
    """Registry factory for the ``hard`` level."""
    return GinExpertBot("hard", rules=rules, seed=seed)


def make_medium_bot(*, seed: int, rules: GinRules | None = None, players: int = 2) -> GinExpertBot:
    """Registry factory for the ``medium`` level."""
    return GinExpertBot("medium", rules=rules, seed=seed)


def make_easy_bot(*, seed: int, rules: GinRules | None = None, players: int = 2) -> GinExpertBot:
    """Registry factory for the ``easy`` level."""
    return GinExpertBot("easy", rules=rules, seed=seed)
