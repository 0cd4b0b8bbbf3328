"""Reference optimum for Carousel placements: an integer linear program, and instances.

The model is the set-partitioning ILP of den Hertog and Hulshof (2006, "Solving
Rummikub problems by integer linear programming"): enumerate every meld over the 52
faces (groups of 3-4 distinct suits, runs of 3-13 with the ace low or high, never
both), let ``x_m`` count how often meld ``m`` is laid, and require each face to be
covered exactly by the items that stand for it. Carousel's declared jokers make the
items of face ``c``:

* ``real[c]`` real table cards (forced) and ``y_c`` hand cards (``0..hand[c]``);
* ``O[c] - phi_c`` table jokers that keep their declaration ``c``, where ``phi_c``
  (``0..O[c]``) jokers are freed from ``c``; the freeing rule is
  ``phi_c <= real[c] + y_c`` (rules/carousel.md section 3);
* ``z_c`` jokers declared ``c`` anew: every freed joker is re-declared and any hand
  joker may be (``sum z = sum phi + j``, ``j`` hand jokers laid);
* with the copy limit, ``real[c] + y_c + O[c] - phi_c + z_c <= decks``.

So ``sum_m a_mc x_m = real[c] + y_c + O[c] - phi_c + z_c`` for every face, and the
objective maximises ``K * value + count`` (value objective) or ``K * count + value``
(count objective) with ``K`` larger than the second term. This models every rule the
solver implements exactly (jokers are interchangeable, so only counts matter), with
no restriction on the instances. Solved with ``scipy.optimize.milp`` (HiGHS) and a zero
MIP gap.

The module also builds the seeded random instances that the tests and
``benchmarks/bench_arrange.py`` share.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import bmat, csr_array, identity, vstack

from rummykit.cards import JOKER_FACE, Card, card_value_gin, natural_card

__all__ = ["Instance", "face_melds", "ilp_optimum", "random_instance"]


@cache
def face_melds(
    ace_low: bool = True, ace_high: bool = True, min_size: int = 3, max_set: int = 4
) -> tuple[tuple[int, ...], ...]:
    """Every meld as a tuple of faces (an ace-high run lists the ace's face 0..51)."""
    melds: list[tuple[int, ...]] = []
    for rank in range(13):
        suits_sets = [
            tuple(s for s in range(4) if mask >> s & 1)
            for mask in range(16)
            if min_size <= bin(mask).count("1") <= max_set
        ]
        for suits in suits_sets:
            melds.append(tuple(s * 13 + rank for s in suits))
    low = 1 if ace_low else 2
    high = 14 if ace_high else 13
    for suit in range(4):
        for start in range(low, high + 1):
            for end in range(start + min_size - 1, high + 1):
                if start == 1 and end == 14:
                    continue
                melds.append(tuple(suit * 13 + (r - 1) % 13 for r in range(start, end + 1)))
    return tuple(melds)


@cache
def _static_model(
    ace_low: bool, ace_high: bool, min_size: int, max_set: int
) -> tuple[int, csr_array]:
    """The meld-face incidence block (faces x melds), built once."""
    melds = face_melds(ace_low, ace_high, min_size, max_set)
    rows = [f for faces in melds for f in faces]
    cols = [m for m, faces in enumerate(melds) for _ in faces]
    incidence = csr_array((np.ones(len(rows)), (rows, cols)), shape=(52, len(melds)))
    return len(melds), incidence


def ilp_optimum(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    decks: int = 2,
    joker_copy_limit: bool = True,
    objective: str = "value",
    joker_value: int = 25,
    ace_low: bool = True,
    ace_high: bool = True,
) -> tuple[int, int] | None:
    """The optimum ``(value, count)`` laid from ``hand``; ``(0, 0)`` when nothing can be
    laid; ``None`` when not even the table can be laid out."""
    real = np.zeros(52)
    kept = np.zeros(52)
    for meld in table:
        for raw in meld:
            card = Card(raw)
            if card.is_joker:
                assert card.declared is not None
                kept[int(card.declared)] += 1
            else:
                real[card.face] += 1
    hand_real = np.zeros(52)
    for raw in hand:
        if not Card(raw).is_joker:
            hand_real[Card(raw).face] += 1
    hand_jokers = sum(1 for c in hand if Card(c).is_joker)
    jokers = int(kept.sum()) + hand_jokers
    n_melds, incidence = _static_model(ace_low, ace_high, 3, 4)
    # Variable blocks: x (melds), y (hand), phi (freed), z (new declarations), j.
    oy, ophi, oz, oj = n_melds, n_melds + 52, n_melds + 104, n_melds + 156
    n = oj + 1
    values = np.array([card_value_gin(f) for f in range(52)], dtype=float)
    if objective == "value":
        big = len(hand) + 1
        gain = values * big + 1
        joker_gain = joker_value * big + 1
    else:
        big = int(values @ hand_real) + joker_value * hand_jokers + 1
        gain = big + values
        joker_gain = big + joker_value
    cost = np.zeros(n)
    cost[oy:ophi] = -gain
    cost[oj] = -joker_gain

    eye = identity(52, format="csr")
    zero = csr_array((52, 52))
    zcol = csr_array((52, 1))
    blocks = [
        # cover: sum_m a x - y + phi - z = real + kept
        [incidence, -eye, eye, -eye, zcol],
        # freeing: phi - y <= real
        [csr_array((52, n_melds)), -eye, eye, zero, zcol],
    ]
    lower = [real + kept, np.full(52, -np.inf)]
    upper = [real + kept, real]
    if joker_copy_limit:
        blocks.append([csr_array((52, n_melds)), eye, -eye, eye, zcol])
        lower.append(np.full(52, -np.inf))
        upper.append(decks - real - kept)
    balance = np.zeros((1, n))
    balance[0, oz:oj] = 1.0
    balance[0, ophi:oz] = -1.0
    balance[0, oj] = -1.0
    a = vstack([bmat(blocks), csr_array(balance)], format="csr")
    lb = np.zeros(n)
    ub = np.empty(n)
    ub[:oy] = decks + jokers
    ub[oy:ophi] = hand_real
    ub[ophi:oz] = kept
    ub[oz:oj] = jokers
    ub[oj] = hand_jokers
    result = milp(
        cost,
        constraints=LinearConstraint(
            a, np.concatenate([*lower, [0.0]]), np.concatenate([*upper, [0.0]])
        ),
        integrality=np.ones(n),
        bounds=Bounds(lb, ub),
        options={"mip_rel_gap": 0.0},
    )
    if result.status == 2:  # infeasible
        return None
    if result.status != 0:  # pragma: no cover - no time limit is set
        raise RuntimeError(f"milp failed: {result.message}")
    best = round(-result.fun)
    if objective == "value":
        return best // big, best % big
    return best % big, best // big


@dataclass(frozen=True)
class Instance:
    """One seeded Carousel placement problem."""

    table: list[tuple[Card, ...]]
    hand: list[Card]
    decks: int
    jokers: int
    seed: int

    @property
    def table_size(self) -> int:
        return sum(len(m) for m in self.table)


def random_instance(
    seed: int,
    *,
    decks: int | None = None,
    jokers: int | None = None,
    table_size: int | None = None,
    hand_size: int | None = None,
) -> Instance:
    """A table of random legal melds (with the copy limit) and a random hand.

    Defaults draw 1 or 2 decks, 0-2 jokers (split at random between the table, where
    each stands in a meld for a declared card, and the hand), a table of 10-80 cards
    (10-35 with one deck) and a hand of 5-20 cards from what is left.
    """
    rng = random.Random(seed)
    decks = decks or rng.choice((1, 2))
    jokers = rng.randint(0, 2) if jokers is None else jokers
    if table_size is None:
        table_size = rng.randint(10, 35 if decks == 1 else 80)
    hand_size = hand_size or rng.randint(5, 20)
    pool: dict[int, list[Card]] = {
        f: [natural_card(f % 13 + 1, f // 13, copy) for copy in range(decks)] for f in range(52)
    }
    on_table = Counter[int]()  # real cards and declarations per face
    table_jokers = rng.randint(0, jokers)
    joker_cards = [Card(JOKER_FACE + (k << 6)) for k in range(jokers)]
    jokers_left = joker_cards[:table_jokers]
    table: list[tuple[Card, ...]] = []
    size = 0
    failures = 0
    while size < table_size and failures < 400:
        if rng.random() < 0.4:
            rank = rng.randint(1, 13)
            suits = rng.sample(range(4), rng.choice((3, 3, 4)))
            faces = [s * 13 + rank - 1 for s in suits]
        else:
            suit = rng.randrange(4)
            length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
            start = rng.randint(1, 15 - length)
            faces = [suit * 13 + (r - 1) % 13 for r in range(start, start + length)]
        if size + len(faces) > table_size + 2 or any(on_table[f] >= decks for f in faces):
            failures += 1
            continue
        joker_at = -1
        if jokers_left and rng.random() < 0.35:
            joker_at = rng.randrange(len(faces))
        cards: list[Card] = []
        ok = True
        for i, f in enumerate(faces):
            if i == joker_at:
                cards.append(jokers_left[0].declare(f))
            elif pool[f]:
                cards.append(pool[f][-1])
            else:
                ok = False
        if not ok:
            failures += 1
            continue
        for i, f in enumerate(faces):
            on_table[f] += 1
            if i == joker_at:
                jokers_left.pop(0)
            else:
                pool[f].pop()
        table.append(tuple(cards))
        size += len(cards)
    placed_jokers = table_jokers - len(jokers_left)
    rest = [c for cards in pool.values() for c in cards]
    rng.shuffle(rest)
    hand_jokers = joker_cards[placed_jokers:]
    hand = hand_jokers + rest[: max(0, hand_size - len(hand_jokers))]
    rng.shuffle(hand)
    return Instance(table, hand, decks, jokers, seed)
