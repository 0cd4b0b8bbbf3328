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
    TOKENS,
    group_in_old_order,
    token_face,
    token_homes,
)
from rummykit.games.carousel.rank_dp_problem import (
    RankDpProblem,
    RankDpSolution,
    Region,
    meld_shape,
)

__all__ = ["lay_out"]

_Keyed = tuple[list[int], tuple[int, ...]]
"""A token meld and its tokens sorted: the key old melds are recognised by."""

_RANK_OF: Final = tuple(token_face(tok) % 13 for tok in range(2 * JOKER_TOKEN))
"""Per token, the rank index (0-12) of the face it stands for."""
_SUIT_OF: Final = tuple(token_face(tok) // 13 for tok in range(2 * JOKER_TOKEN))
"""Per token, the suit of the face it stands for."""
_IN_GROUP: Final = tuple(
    token_face(tok) * 2 + (tok >= JOKER_TOKEN) for tok in range(2 * JOKER_TOKEN)
)
"""Per token of one rank, its place in a group: by suit, the natural card before a joker."""


def lay_out(
    region: Region,
    solved: RankDpSolution,
    melds: list[tuple[Card, ...]],
    hand_naturals: dict[int, list[Card]],
    hand_jokers: list[Card],
    size: int,
    max_set: int,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], int]:
    """Turn the DP's choices into melds: (layout, placed hand cards, freed, untouched).

    The region's open melds are distinct, and the DP lays every open table card but the
    jokers it frees (one choice per face): an old meld that reappears keeps its own
    cards, so only the changed melds need the others sorted out by token."""
    # The open melds by their tokens: how old melds are recognised among new ones.
    by_key: dict[tuple[int, ...], list[int]] = {}
    with_jokers: list[int] = []
    for index in region.open_melds:
        key = _token_key(melds[index])
        same = by_key.get(key)
        if same is None:
            by_key[key] = [index]
        else:
            same.append(index)
        if key[-1] >= JOKER_TOKEN:  # sorted: a joker's token comes last
            with_jokers.append(index)
    table_jokers = _table_jokers(melds, with_jokers)
    freed_faces, freed_cards, wild_pool, placed = _jokers(table_jokers, solved, hand_jokers)
    new_melds, added = _token_melds(
        region.problem, table_jokers, solved, hand_naturals, wild_pool, placed, size, max_set
    )
    # Cut long runs and share out groups so that old melds reappear where they can.
    available = {key: len(same) for key, same in by_key.items()}
    keyed = _reuse_old_melds(new_melds, available, len(region.open_melds), size, max_set)
    layout, kept = _physical_layout(
        region.open_melds, melds, by_key, keyed, freed_cards, added, placed
    )
    return layout, placed, freed_faces, kept


_JokerItems = dict[int, list[tuple[Card, bool]]]
"""Per declared face: the open region's table jokers and whether each sat in a run."""


def _table_jokers(melds: list[tuple[Card, ...]], with_jokers: list[int]) -> _JokerItems:
    """The table jokers of the open melds ``with_jokers``, in table order."""
    items: _JokerItems = {}
    for index in sorted(with_jokers):
        meld = melds[index]
        is_run = meld_shape(meld)[2]
        for card in meld:
            tok = TOKENS[card]
            if tok >= JOKER_TOKEN:
                items.setdefault(tok - JOKER_TOKEN, []).append((card, is_run))
    return items


_TOKEN_KEYS: dict[tuple[Card, ...], tuple[int, ...]] = {}
"""Per table meld, its tokens in order: a meld outlives many searches."""
_TOKEN_KEYS_KEPT: Final = 100_000


def _token_key(meld: tuple[Card, ...]) -> tuple[int, ...]:
    """A meld's tokens, sorted: how old melds are recognised among new ones."""
    found = _TOKEN_KEYS.get(meld)
    if found is None:
        if len(_TOKEN_KEYS) >= _TOKEN_KEYS_KEPT:
            _TOKEN_KEYS.clear()
        found = _TOKEN_KEYS[meld] = tuple(sorted(map(TOKENS.__getitem__, meld)))
    return found


def _jokers(
    joker_items: _JokerItems, solved: RankDpSolution, hand_jokers: list[Card]
) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    """The declarations freed, the table jokers freed, the wild pool (freed jokers
    first, then hand jokers) and the hand jokers placed."""
    freed_cards: list[Card] = []
    freed_faces: list[Card] = []
    freeing = [choice for choice in solved.choices if choice[2]]
    for rank, suit, x, *_ in freeing:
        face = suit * 13 + rank - 1
        items = joker_items[face]
        freed_cards.extend(card for card, _ in items[len(items) - x :])
        freed_faces.extend([Card(face)] * x)
    hand_joker_count = solved.used - solved.freed
    placed: list[Card] = [c.physical for c in hand_jokers[:hand_joker_count]]
    wild_pool = [c.physical for c in freed_cards] + placed
    return freed_faces, freed_cards, wild_pool, placed


def _token_melds(
    problem: RankDpProblem,
    joker_items: _JokerItems,
    solved: RankDpSolution,
    hand_naturals: dict[int, list[Card]],
    wild_pool: list[Card],
    placed: list[Card],
    size: int,
    max_set: int,
) -> tuple[list[list[int]], dict[int, list[Card]]]:
    """The melds as tokens, face by face as the DP chose, and the cards added to the
    table per token (hand cards, declared wild jokers). The hand cards laid are added
    to ``placed``; wild jokers are taken from ``wild_pool`` and declared."""
    added: dict[int, list[Card]] = {}
    new_melds: list[list[int]] = []
    open_runs: list[list[tuple[int, list[int]]]] = [[], [], [], []]
    high_stash: list[list[int]] = [[], [], [], []]
    group_items: list[int] = []  # this rank's group tokens
    group_plain = True  # all natural, one of each suit, by suit
    table_jokers, table_real = problem.jokers, problem.real

    for rank, suit, x, o, w, u, g, h in solved.choices:
        if not (u or g or h):
            # No item at this face: the suit's open runs end here (all are long).
            runs = open_runs[suit]
            if runs and rank > 1:
                for run in runs:
                    assert len(run[1]) >= size, run
                    new_melds.append(run[1])
                open_runs[suit] = []
            if suit == 3 and group_items:
                _make_groups(group_items, group_plain, new_melds, size, max_set)
                group_items = []
                group_plain = True
            continue
        face = suit * 13 + rank - 1
        if o:
            hand_cards = hand_naturals.get(face, [])[:o]
            placed.extend(hand_cards)
            added[face] = hand_cards
        runs = open_runs[suit]
        if w or (face in joker_items and table_jokers[face] > x):
            run_tokens, high_tokens, group_tokens = _joker_face(
                problem,
                joker_items.get(face, []),
                face,
                (x, o, w, u, g, h),
                wild_pool,
                added,
            )
            if group_tokens:
                group_items.extend(group_tokens)
                group_plain = False
            if high_tokens:
                high_stash[suit].extend(high_tokens)
            open_runs[suit] = _take_runs(runs, run_tokens, rank, new_melds, size)
        else:  # natural cards only: every token is the face
            assert table_real[face] + o == u + h + g
            if g == 1:
                if group_items and group_items[-1] >= face:
                    group_plain = False
                group_items.append(face)
            elif g:
                group_items.extend([face] * g)
                group_plain = False
            if h:
                high_stash[suit].extend([face] * h)
            if not runs or rank == 1:  # new runs
                if u:
                    runs.extend([(rank, [face]) for _ in range(u)])
            elif u == 1 and len(runs) == 1:
                runs[0][1].append(face)  # the suit's one run goes on
            else:
                open_runs[suit] = _take_runs(runs, [face] * u, rank, new_melds, size)
        if suit == 3 and group_items:
            _make_groups(group_items, group_plain, new_melds, size, max_set)
            group_items = []
            group_plain = True
    for suit in range(4):
        runs = open_runs[suit]
        stash = high_stash[suit]
        if stash:
            shorts = [r for r in runs if len(r[1]) < size]
            longs = [r for r in runs if len(r[1]) >= size and r[0] != 1]
            extend = shorts + longs[: len(stash) - len(shorts)]
            for r, tok in zip(extend, stash, strict=True):
                r[1].append(tok)
        for r in runs:
            assert len(r[1]) >= size, r
            new_melds.append(r[1])
    return new_melds, added


def _take_runs(
    runs: list[tuple[int, list[int]]],
    run_tokens: list[int],
    rank: int,
    out: list[list[int]],
    size: int,
) -> list[tuple[int, list[int]]]:
    """A suit's open runs (each with the rank it starts at) after a face whose run
    tokens are ``run_tokens``: short runs go on first, then long runs (those that can
    take a high ace last); the long runs not extended end here (into ``out``) and runs
    beyond the old ones start."""
    u = len(run_tokens)
    if not runs or rank == 1:
        runs.extend([(rank, [t]) for t in run_tokens])
        return runs
    if len(runs) == 1:
        if u == 1:
            runs[0][1].append(run_tokens[0])  # the suit's one run goes on
            return runs
        if u == 0 and len(runs[0][1]) >= size:
            out.append(runs[0][1])  # the suit's one run ends here
            return []
    shorts = [r for r in runs if len(r[1]) < size]
    longs = [r for r in runs if len(r[1]) >= size]
    longs.sort(key=lambda r: r[0] == 1)  # keep runs that can take a high ace
    extend = shorts + longs[: u - len(shorts)]
    for r in longs[u - len(shorts) :]:
        assert len(r[1]) >= size, r
        out.append(r[1])
    feed = iter(run_tokens)
    for r in extend:
        r[1].append(next(feed))
    return extend + [(rank, [t]) for t in feed]


def _joker_face(
    problem: RankDpProblem,
    jokers: list[tuple[Card, bool]],
    face: int,
    counts: tuple[int, int, int, int, int, int],
    wild_pool: list[Card],
    added: dict[int, list[Card]],
) -> tuple[list[int], list[int], list[int]]:
    """The run, high-ace and group tokens of a face with jokers: table items from runs,
    hand cards, wild jokers (declared here, into ``added``), then the rest."""
    x, o, w, u, g, h = counts
    joker_token = JOKER_TOKEN + face
    # The face's table items in runs count its jokers there too.
    run_real = problem.in_runs[face] - sum(was_run for _, was_run in jokers)
    group_real = problem.real[face] - run_real
    kept = jokers[: len(jokers) - x]
    run_jokers = sum(was_run for _, was_run in kept)
    group_jokers = len(kept) - run_jokers
    if w:
        added[joker_token] = [wild_pool.pop(0).declare(face) for _ in range(w)]
    tokens = (
        [face] * run_real
        + [joker_token] * run_jokers
        + [face] * o
        + [joker_token] * w
        + [face] * group_real
        + [joker_token] * group_jokers
    )
    rest = tokens[u:]
    group_tokens = rest[h:]
    assert len(group_tokens) == g
    return tokens[:u], rest[:h], group_tokens


def _physical_layout(
    open_melds: list[int],
    melds: list[tuple[Card, ...]],
    by_key: dict[tuple[int, ...], list[int]],
    keyed: list[_Keyed],
    freed_cards: list[Card],
    added: dict[int, list[Card]],
    placed: list[Card],
) -> tuple[list[tuple[Card, ...]], int]:
    """Physical cards for the token melds: (layout, old melds left untouched).

    Untouched open melds keep their cards and order; the others share the cards left
    (the changed open melds', then those added), by token, in that order. A changed
    meld takes the place of the old meld it shares most cards with; a group keeps that
    meld's card order, new cards after."""
    result: list[tuple[Card, ...] | None] = list(melds)
    for index in open_melds:
        result[index] = None
    kept = len(melds) - len(open_melds)
    # A freed joker is gone from its old meld, unless the same joker comes back wild
    # with the same declaration.
    gone: set[Card] = set()
    back: set[Card] = set()
    if freed_cards:
        wild = {c for tok, cards in added.items() if tok >= JOKER_TOKEN for c in cards}
        gone = set(freed_cards) - wild
        back = set(freed_cards) & wild
    leftovers: list[list[int]] = []
    for tokens, key in keyed:
        candidates = by_key.get(key)
        if candidates:
            index = candidates[0]
            original = melds[index]
            if not gone or gone.isdisjoint(original):
                del candidates[0]
                result[index] = original
                kept += 1
                continue
        leftovers.append(tokens)
    free = [i for i in open_melds if result[i] is None]
    if back:
        back -= {c for i in open_melds if result[i] is not None for c in melds[i]}
    pool = _pool(melds, free, set(freed_cards), added, back)
    home = token_homes(leftovers, melds, free)
    from_hand: set[int] | None = None
    appended: list[tuple[Card, ...]] = []
    for n, tokens in enumerate(leftovers):
        index = home.get(n, -1)
        cards = tuple([pool[t].pop(0) for t in tokens])
        if _same_rank(tokens):
            if from_hand is None:
                from_hand = set(placed)
            cards = group_in_old_order(cards, melds[index] if index >= 0 else (), from_hand, int)
        if index >= 0:
            result[index] = cards
        else:
            appended.append(cards)
    return [m for m in result if m is not None] + appended, kept


def _pool(
    melds: list[tuple[Card, ...]],
    free: list[int],
    freed: set[Card],
    added: dict[int, list[Card]],
    back: set[Card],
) -> dict[int, list[Card]]:
    """Per token, the cards the changed melds take: the changed open melds' cards (but
    freed jokers) in table order, then the cards added (``back``: freed jokers back as
    wild ones that are still free)."""
    pool: dict[int, list[Card]] = {}
    tokens = TOKENS
    for index in sorted(free):
        for card in melds[index]:
            if freed and card in freed:
                continue
            tok = tokens[card]
            bucket = pool.get(tok)
            if bucket is None:
                pool[tok] = [card]
            else:
                bucket.append(card)
    for tok, cards in added.items():
        if freed and tok >= JOKER_TOKEN:
            cards = [c for c in cards if c not in freed or c in back]
        bucket = pool.get(tok)
        if bucket is None:
            pool[tok] = list(cards)
        else:
            bucket.extend(cards)
    return pool


def _reuse_old_melds(
    new_melds: list[list[int]],
    available: dict[tuple[int, ...], int],
    old: int,
    size: int,
    max_set: int,
) -> list[_Keyed]:
    """The same cards in melds that reproduce as many old melds as possible: a run is
    cut where its pieces (each of ``size`` or more, in rank order) are old melds, and the
    groups of one rank are regrouped when an old group can be taken whole.

    Old melds are matched by their tokens (natural faces; jokers by declaration):
    ``available`` counts the ``old`` melds not matched yet, by key."""
    out: list[_Keyed] = []
    rest: list[_Keyed] = []
    for meld in new_melds:  # melds that are old melds already (most of them) stay
        key = tuple(sorted(meld))
        left = available.get(key)
        if left:
            available[key] = left - 1
            old -= 1
            out.append((meld, key))
        else:
            rest.append((meld, key))
    if not rest or not old:
        return out + rest
    groups_by_rank: dict[int, list[_Keyed]] = {}
    for meld, key in rest:
        if _same_rank(meld):
            groups_by_rank.setdefault(_RANK_OF[meld[0]], []).append((meld, key))
        else:
            out.extend(_cut_run(meld, key, available, size))
    for groups in groups_by_rank.values():
        if len(groups) > 1 or len(groups[0][0]) > size:
            regrouped = _regroup([meld for meld, _ in groups], available, size, max_set)
            if regrouped is not None:
                out.extend([(meld, tuple(sorted(meld))) for meld in regrouped])
                continue
        out.extend(groups)
    return out


def _cut_run(
    run: list[int], whole: tuple[int, ...], available: dict[tuple[int, ...], int], size: int
) -> list[_Keyed]:
    """Pieces of a run (rank order kept) with the most pieces that are old melds."""
    n = len(run)
    left = available.get(whole)
    if left or n < 2 * size:
        if left:
            available[whole] = left - 1
        return [(run, whole)]
    # Old melds inside the run: its cards are distinct, so such a meld is a stretch.
    where = {tok: i for i, tok in enumerate(run)}
    stretches: set[tuple[int, int]] = set()
    for key, left in available.items():
        if left > 0 and size <= len(key) < n and all(t in where for t in key):
            first = min(where[t] for t in key)
            if max(where[t] for t in key) - first + 1 == len(key):
                stretches.add((first, first + len(key)))
    if not stretches:
        return [(run, whole)]
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
    pieces: list[_Keyed] = []
    for a, b in reversed(cuts):
        piece = run[a:b]
        key = tuple(sorted(piece))
        left = available.get(key)
        if left:
            available[key] = left - 1
        pieces.append((piece, key))
    return pieces


def _regroup(
    groups: list[list[int]], available: dict[tuple[int, ...], int], size: int, max_set: int
) -> list[list[int]] | None:
    """One rank's groups, rebuilt so that old groups of that rank are taken whole when
    the cards left still form legal groups (distinct suits, ``size`` or more each);
    None when no old group can be."""
    count = len(groups)
    pool = Counter(t for group in groups for t in group)
    rank = _RANK_OF[groups[0][0]]
    candidates = sorted(
        (
            key
            for key, n in available.items()
            if n > 0 and _same_rank(key) and _RANK_OF[key[0]] == rank
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
        return None
    left = count - len(taken)
    if left == 0:
        return taken
    # The rest round robin, most repeated suits first (one card of a suit per group).
    suits = Counter(_SUIT_OF[t] for t in pool.elements())
    items = sorted(pool.elements(), key=lambda t: (-suits[_SUIT_OF[t]], _SUIT_OF[t], t))
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
    per_suit = [0, 0, 0, 0]
    for tok, k in tokens.items():
        per_suit[_SUIT_OF[tok]] += k
    return max(per_suit) <= groups and size * groups <= total <= max_set * groups


def _same_rank(tokens: Sequence[int]) -> bool:
    return len(set(map(_RANK_OF.__getitem__, tokens))) == 1


def _make_groups(
    items: list[int], plain: bool, out: list[list[int]], size: int, max_set: int
) -> None:
    """Split one rank's group tokens into as few groups as possible (``plain``: natural
    cards of distinct suits, by suit)."""
    if plain and len(items) <= max_set:  # one group, as it is
        assert size <= len(items)
        out.append(items)
        return
    per_suit = [0, 0, 0, 0]
    for tok in items:
        per_suit[_SUIT_OF[tok]] += 1
    most = max(per_suit)
    groups = max(most, -(-len(items) // max_set))
    assert groups * size <= len(items)
    in_group = _IN_GROUP.__getitem__
    if groups == 1:  # one group: its items by suit, whatever came first
        out.append(sorted(items, key=in_group))
        return
    # Most repeated suits first, then by suit (a stable sort, as the items came).
    order = [(most - per_suit[suit]) * 4 + suit for suit in range(4)]
    suit_of = _SUIT_OF
    items.sort(key=lambda tok: order[suit_of[tok]])
    for first in range(groups):
        out.append(sorted(items[first::groups], key=in_group))
