"""From the rank DP's choices to a layout of physical cards that changes the table little.

The DP decides, per face, how many items go into runs, groups and high aces
(:class:`~rummykit.games.carousel.rank_dp_problem.RankDpSolution`). :func:`lay_out`
builds melds of tokens from those counts (runs face by face, each rank's groups when
its last suit is decided), cuts and regroups them so that old melds reappear where they
can, and only then gives each token a physical card: old melds that reappear keep their
cards and order, and a changed meld takes the place of the old meld it shares most
cards with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from rummykit.cards import Card
from rummykit.games.carousel.placement import (
    JOKER_TOKEN,
    group_in_old_order,
    homes,
    token,
    token_face,
)
from rummykit.games.carousel.rank_dp_problem import RankDpSolution, Region

__all__ = ["lay_out"]


def lay_out(
    region: Region,
    solved: RankDpSolution,
    melds: list[tuple[Card, ...]],
    hand_naturals: dict[int, list[Card]],
    hand_jokers: list[Card],
    size: int,
    max_set: int,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], int]:
    """Turn the DP's choices into melds: (layout, placed hand cards, freed, untouched)."""
    freed_faces, wild_pool, placed = _jokers(region, solved, hand_jokers)
    new_melds, pool = _token_melds(region, solved, hand_naturals, wild_pool, placed, size, max_set)
    # Cut long runs and share out groups so that old melds reappear where they can.
    open_keys = {index: _token_key(melds[index]) for index in region.open_melds}
    new_melds = _reuse_old_melds(new_melds, Counter(open_keys.values()), size, max_set)
    layout, kept = _physical_layout(region, melds, open_keys, new_melds, pool, placed)
    return layout, placed, freed_faces, kept


_TOKEN_KEYS: dict[tuple[Card, ...], tuple[int, ...]] = {}
"""Per table meld, its tokens in order: a meld outlives many searches."""
_TOKEN_KEYS_KEPT: Final = 100_000


def _token_key(meld: tuple[Card, ...]) -> tuple[int, ...]:
    """A meld's tokens, sorted: how old melds are recognised among new ones."""
    found = _TOKEN_KEYS.get(meld)
    if found is None:
        if len(_TOKEN_KEYS) >= _TOKEN_KEYS_KEPT:
            _TOKEN_KEYS.clear()
        found = _TOKEN_KEYS[meld] = tuple(sorted(token(c) for c in meld))
    return found


def _jokers(
    region: Region, solved: RankDpSolution, hand_jokers: list[Card]
) -> tuple[list[Card], list[Card], list[Card]]:
    """The declarations freed, the wild pool (freed jokers first, then hand jokers) and
    the hand jokers placed."""
    freed_cards: list[Card] = []
    freed_faces: list[Card] = []
    for rank, suit, x, *_ in solved.choices:
        if x:
            face = suit * 13 + rank - 1
            items = region.joker_items[face]
            freed_cards.extend(card for card, _ in items[len(items) - x :])
            freed_faces.extend([Card(face)] * x)
    hand_joker_count = solved.used - solved.freed
    wild_pool = [c.physical for c in freed_cards] + [c.physical for c in hand_jokers][
        :hand_joker_count
    ]
    placed: list[Card] = [c.physical for c in hand_jokers[:hand_joker_count]]
    return freed_faces, wild_pool, placed


def _token_melds(
    region: Region,
    solved: RankDpSolution,
    hand_naturals: dict[int, list[Card]],
    wild_pool: list[Card],
    placed: list[Card],
    size: int,
    max_set: int,
) -> tuple[list[list[int]], dict[int, list[Card]]]:
    """The melds as tokens, face by face as the DP chose, and the physical cards of
    each token. The hand cards laid are added to ``placed``; wild jokers are taken from
    ``wild_pool`` and declared."""
    pool: dict[int, list[Card]] = {}
    new_melds: list[list[int]] = []
    open_runs: list[list[tuple[int, list[int]]]] = [[] for _ in range(4)]
    high_stash: list[list[int]] = [[] for _ in range(4)]
    group_items: list[tuple[int, int]] = []

    table_items, joker_items = region.table_items, region.joker_items

    def close(run: list[int]) -> None:
        assert len(run) >= size, run
        new_melds.append(run)

    for rank, suit, x, o, w, u, g, h in solved.choices:
        if not (u or g or h):
            # No item at this face: the suit's open runs end here (all are long).
            if rank > 1 and open_runs[suit]:
                for run in open_runs[suit]:
                    close(run[1])
                open_runs[suit] = []
            if suit == 3 and group_items:
                _make_groups(group_items, new_melds, size, max_set)
                group_items = []
            continue
        face = suit * 13 + rank - 1
        joker_token = JOKER_TOKEN + face
        # Items of this face, run-minded first: table items from runs, hand, wild, the rest.
        face_pool = pool.setdefault(face, [])
        run_real = group_real = 0
        items = table_items.get(face)
        if items:
            for card, was_run in items:
                face_pool.append(card)
                run_real += was_run
            group_real = len(items) - run_real
        run_jokers = group_jokers = 0
        jokers = joker_items.get(face)
        if jokers or w:  # only a face with jokers needs their pool
            joker_pool = pool.setdefault(joker_token, [])
        if jokers:
            kept = jokers[: len(jokers) - x]
            for card, was_run in kept:
                joker_pool.append(card)
                run_jokers += was_run
            group_jokers = len(kept) - run_jokers
        if o:
            hand_cards = hand_naturals.get(face, [])[:o]
            placed.extend(hand_cards)
            face_pool.extend(hand_cards)
        for _ in range(w):
            joker_pool.append(wild_pool.pop(0).declare(face))
        if w or run_jokers or group_jokers:
            tokens = (
                [face] * run_real
                + [joker_token] * run_jokers
                + [face] * o
                + [joker_token] * w
                + [face] * group_real
                + [joker_token] * group_jokers
            )
            run_tokens, rest = tokens[:u], tokens[u:]
            high_tokens, group_tokens = rest[:h], rest[h:]
            assert len(group_tokens) == g
            group_items.extend((suit, t) for t in group_tokens)
        else:  # natural cards only: every token is the face
            assert run_real + o + group_real == u + h + g
            run_tokens, high_tokens = [face] * u, [face] * h
            group_items.extend([(suit, face)] * g)
        if high_tokens:
            high_stash[suit].extend(high_tokens)
        runs = open_runs[suit]
        if rank == 1:
            runs.extend((1, [t]) for t in run_tokens)
        elif not runs:
            open_runs[suit] = [(rank, [t]) for t in run_tokens]
        elif u == 1 and len(runs) == 1:
            runs[0][1].append(run_tokens[0])  # the suit's one run goes on
        elif u == 0 and len(runs) == 1 and len(runs[0][1]) >= size:
            close(runs[0][1])  # the suit's one run ends here
            open_runs[suit] = []
        else:
            # Short runs first, then long runs (those that can take a high ace last);
            # the long runs not extended end here.
            shorts = [r for r in runs if len(r[1]) < size]
            longs = [r for r in runs if len(r[1]) >= size]
            longs.sort(key=lambda r: r[0] == 1)  # keep runs that can take a high ace
            extend = shorts + longs[: u - len(shorts)]
            for r in longs[u - len(shorts) :]:
                close(r[1])
            feed = iter(run_tokens)
            for r in extend:
                r[1].append(next(feed))
            open_runs[suit] = extend + [(rank, [t]) for t in feed]
        if suit == 3 and group_items:
            _make_groups(group_items, new_melds, size, max_set)
            group_items = []
    for suit in range(4):
        runs = open_runs[suit]
        stash = high_stash[suit]
        shorts = [r for r in runs if len(r[1]) < size]
        longs = [r for r in runs if len(r[1]) >= size and r[0] != 1]
        extend = shorts + longs[: len(stash) - len(shorts)]
        for r, tok in zip(extend, stash, strict=True):
            r[1].append(tok)
        for r in runs:
            close(r[1])
    return new_melds, pool


def _physical_layout(
    region: Region,
    melds: list[tuple[Card, ...]],
    open_keys: dict[int, tuple[int, ...]],
    new_melds: list[list[int]],
    pool: dict[int, list[Card]],
    placed: list[Card],
) -> tuple[list[tuple[Card, ...]], int]:
    """Physical cards for the token melds: (layout, old melds left untouched).

    Untouched open melds keep their cards and order; others take from the pools. A
    changed meld takes the place of the old meld it shares most cards with; a group
    keeps that meld's card order, new cards after."""
    result: list[tuple[Card, ...] | None] = [None] * len(melds)
    opened = set(region.open_melds)
    for index in range(len(melds)):
        if index not in opened:
            result[index] = melds[index]
    kept = len(melds) - len(opened)
    by_tokens: dict[tuple[int, ...], list[int]] = {}
    for index in region.open_melds:
        by_tokens.setdefault(open_keys[index], []).append(index)
    leftovers: list[list[int]] = []
    for tokens in new_melds:
        key = tuple(sorted(tokens))
        candidates = by_tokens.get(key)
        if candidates:
            index = candidates[0]
            original = melds[index]
            if _take_exact(pool, original):
                candidates.pop(0)
                result[index] = original
                kept += 1
                continue
        leftovers.append(tokens)
    free = [i for i in region.open_melds if result[i] is None]
    appended: list[tuple[Card, ...]] = []
    home = homes([Counter(tokens) for tokens in leftovers], melds, free)
    from_hand = {int(c) for c in placed}
    for n, tokens in enumerate(leftovers):
        index = home.get(n, -1)
        cards = tuple(pool[t].pop(0) for t in tokens)
        if _same_rank(tokens):
            cards = group_in_old_order(cards, melds[index] if index >= 0 else (), from_hand, int)
        if index >= 0:
            result[index] = cards
        else:
            appended.append(cards)
    return [m for m in result if m is not None] + appended, kept


def _reuse_old_melds(
    new_melds: list[list[int]], old_keys: Counter[tuple[int, ...]], size: int, max_set: int
) -> list[list[int]]:
    """The same cards in melds that reproduce as many old melds as possible: a run is
    cut where its pieces (each of ``size`` or more, in rank order) are old melds, and the
    groups of one rank are regrouped when an old group can be taken whole.

    Old melds are matched by their tokens (natural faces; jokers by declaration)."""
    available = Counter(old_keys)
    out: list[list[int]] = []
    rest: list[list[int]] = []
    for meld in new_melds:  # melds that are old melds already (most of them) stay
        key = tuple(sorted(meld))
        if available[key] > 0:
            available[key] -= 1
            out.append(meld)
        else:
            rest.append(meld)
    if not rest or not +available:
        return out + rest
    groups_by_rank: dict[int, list[list[int]]] = {}
    for meld in rest:
        if _same_rank(meld):
            groups_by_rank.setdefault(token_face(meld[0]) % 13, []).append(meld)
        else:
            out.extend(_cut_run(meld, available, size))
    for groups in groups_by_rank.values():
        if len(groups) > 1 or len(groups[0]) > size:
            out.extend(_regroup(groups, available, size, max_set))
        else:
            out.extend(groups)
    return out


def _cut_run(run: list[int], available: Counter[tuple[int, ...]], size: int) -> list[list[int]]:
    """Pieces of a run (rank order kept) with the most pieces that are old melds."""
    n = len(run)
    whole = tuple(sorted(run))
    if available[whole] > 0 or n < 2 * size:
        if available[whole] > 0:
            available[whole] -= 1
        return [run]
    # Old melds inside the run: its cards are distinct, so such a meld is a stretch.
    where = {tok: i for i, tok in enumerate(run)}
    stretches: set[tuple[int, int]] = set()
    for key, left in available.items():
        if left > 0 and size <= len(key) < n and all(t in where for t in key):
            first = min(where[t] for t in key)
            if max(where[t] for t in key) - first + 1 == len(key):
                stretches.add((first, first + len(key)))
    if not stretches:
        return [run]
    # best[i]: (old melds matched, -pieces) for the first i cards, and the last cut.
    best: list[tuple[int, int] | None] = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = (0, 0)
    for end in range(size, n + 1):
        for start in range(0, end - size + 1):
            before = best[start]
            if before is None:
                continue
            score = (before[0] + ((start, end) in stretches), before[1] - 1)
            current = best[end]
            if current is None or score > current:
                best[end] = score
                back[end] = start
    cuts = []
    end = n
    while end:
        cuts.append((back[end], end))
        end = back[end]
    pieces = [run[a:b] for a, b in reversed(cuts)]
    for piece in pieces:
        key = tuple(sorted(piece))
        if available[key] > 0:
            available[key] -= 1
    return pieces


def _regroup(
    groups: list[list[int]], available: Counter[tuple[int, ...]], size: int, max_set: int
) -> list[list[int]]:
    """One rank's groups, rebuilt so that old groups of that rank are taken whole when
    the cards left still form legal groups (distinct suits, ``size`` or more each)."""
    count = len(groups)
    pool = Counter(t for group in groups for t in group)
    rank = token_face(groups[0][0]) % 13
    candidates = sorted(
        (
            key
            for key, n in available.items()
            if n > 0 and _same_rank(key) and token_face(key[0]) % 13 == rank
        ),
        key=len,
        reverse=True,
    )
    taken: list[list[int]] = []
    for key in candidates:
        while available[key] > 0 and len(taken) < count:
            need = Counter(key)
            if any(pool[t] < k for t, k in need.items()):
                break
            rest = pool - need
            if not _groupable(rest, count - len(taken) - 1, size, max_set):
                break
            pool = rest
            available[key] -= 1
            taken.append(list(key))
    if not taken:
        return groups
    left = count - len(taken)
    if left == 0:
        return taken
    # The rest round robin, most repeated suits first (one card of a suit per group).
    suits = Counter(token_face(t) // 13 for t in pool.elements())
    items = sorted(
        pool.elements(), key=lambda t: (-suits[token_face(t) // 13], token_face(t) // 13, t)
    )
    rest_groups: list[list[int]] = [[] for _ in range(left)]
    for i, tok in enumerate(items):
        rest_groups[i % left].append(tok)
    return taken + [sorted(g) for g in rest_groups]


def _groupable(tokens: Counter[int], groups: int, size: int, max_set: int) -> bool:
    """Whether ``tokens`` (one rank) split into exactly ``groups`` groups of distinct
    suits and ``size`` to ``max_set`` cards each (jokers stand for their declared suit)."""
    total = sum(tokens.values())
    if groups == 0:
        return total == 0
    per_suit: Counter[int] = Counter()
    for tok, k in tokens.items():
        per_suit[token_face(tok) // 13] += k
    most = max(per_suit.values(), default=0)
    return most <= groups and size * groups <= total <= max_set * groups


def _same_rank(tokens: Sequence[int]) -> bool:
    return len({token_face(t) % 13 for t in tokens}) == 1


def _take_exact(pool: dict[int, list[Card]], cards: Sequence[Card]) -> bool:
    """Remove exactly these physical cards from the pools, if they are all there."""
    buckets = [pool.get(token(card), ()) for card in cards]
    if len(set(cards)) == len(cards):  # distinct cards (always, on a table): one each
        if not all(card in bucket for card, bucket in zip(cards, buckets, strict=True)):
            return False
        for card, bucket in zip(cards, buckets, strict=True):
            bucket.remove(card)  # type: ignore[union-attr]
        return True
    need = Counter(int(c) for c in cards)
    for card_id, count in need.items():
        have = sum(1 for c in pool.get(token(Card(card_id)), []) if int(c) == card_id)
        if have < count:
            return False
    for card in cards:
        bucket = pool[token(card)]
        bucket.remove(card)
    return True


def _make_groups(
    items: list[tuple[int, int]], out: list[list[int]], size: int, max_set: int
) -> None:
    """Split one rank's group items (suit, token) into as few groups as possible."""
    if not items:
        return
    per_suit = [0, 0, 0, 0]
    for suit, _ in items:
        per_suit[suit] += 1
    most = max(per_suit)
    groups = max(most, -(-len(items) // max_set))
    assert groups * size <= len(items)
    if groups == 1:  # one group: its items in (suit, token) order, whatever came first
        out.append([t for _, t in sorted(items)])
        return
    # Most repeated suits first, then by suit (a stable sort, as the items came).
    order = [(most - per_suit[suit]) * 4 + suit for suit in range(4)]
    items.sort(key=lambda item: order[item[0]])
    for first in range(groups):
        out.append([t for _, t in sorted(items[first::groups])])
