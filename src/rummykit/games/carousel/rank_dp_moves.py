"""The rank DP's states and the ways one face's items can be placed.

Items: every table card and every table joker kept at its declaration is a *forced*
item of its face; hand cards are optional items; freed table jokers and hand jokers
are *wild* items that take a face when placed. The DP
(:class:`rummykit.games.carousel.rank_dp.PythonRankDp`) walks the faces rank by rank
(ace first, king last), suit by suit, and decides for each face how many items are
placed and how many of them go into runs and into the rank's groups.

State (packed into one int): per suit, an interned "suit state" -- how many aces of
the suit wait for a Q-K-A run (``hi``) and the multiset of open run lengths, capped
at ``min_size`` (``min_size + 1`` marks a run that started at the ace-low when a high
ace is pending, since that run cannot take it) -- plus the group sums of the current
rank, the wild items placed so far and the jokers freed so far.
"""

from __future__ import annotations

import threading
from typing import Final

__all__ = [
    "DEAD",
    "FREED_SHIFT",
    "GMAX_SHIFT",
    "GROUP_CLEAR",
    "GSUM_MASK",
    "GSUM_SHIFT",
    "NEG",
    "SUIT_BITS",
    "SUIT_MASK",
    "USED_SHIFT",
    "Choice",
    "FaceOption",
    "can_group",
    "face_options",
    "final_ok",
]

SUIT_BITS: Final = 12
SUIT_MASK: Final = (1 << SUIT_BITS) - 1
GSUM_SHIFT: Final = 48
GSUM_MASK: Final = 63
"""The items in the current rank's groups so far (six bits of the state)."""
GMAX_SHIFT: Final = 54
USED_SHIFT: Final = 58
FREED_SHIFT: Final = 62
GROUP_CLEAR: Final = ~(((1 << 10) - 1) << GSUM_SHIFT)
NEG: Final = -(1 << 62)
"""Minus infinity for bounds (sums of a few stay far below any real score)."""
DEAD: Final = NEG // 2

_SuitState = tuple[int, tuple[int, ...]]
_suit_states: list[_SuitState] = [(0, ())]
_suit_ids: dict[_SuitState, int] = {(0, ()): 0}
_split_cache: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}


_intern_lock = threading.Lock()


def _intern(state: _SuitState) -> int:
    """A small id for a suit state (shared by every problem and thread)."""
    found = _suit_ids.get(state)
    if found is None:
        with _intern_lock:
            found = _suit_ids.get(state)
            if found is None:
                found = len(_suit_states)
                if found > SUIT_MASK:  # pragma: no cover - needs thousands of open runs
                    raise RuntimeError("too many distinct run states")
                _suit_states.append(state)
                _suit_ids[state] = found
    return found


def _run_step(
    runs: tuple[int, ...], u: int, rank: int, hi: int, size: int, last: int
) -> tuple[int, ...] | None:
    """Open runs after ``u`` items of one suit join runs at ``rank`` (2-13), or None."""
    shorts = [k for k in runs if k < size]
    if u < len(shorts):
        return None
    rest = u - len(shorts)
    new: list[int] = []
    for k in shorts:
        k += 1
        if k >= size:
            # It started at rank - size + 1: flag an ace-low start when a high ace waits.
            k = size + 1 if (hi and rank == size) else size
        new.append(k)
    longs = sorted(k for k in runs if k >= size)  # flag-free long runs extend first
    extend = min(rest, len(longs))
    new.extend(longs[:extend])
    rest -= extend
    if rest:
        if rank + size - 1 > last:
            return None  # a run started here could never reach min_size
        new.extend([1] * rest)
    return tuple(sorted(new))


def _splits(
    state: int, t: int, rank: int, size: int, high_cap: int, ace_low: bool, ace_high: bool
) -> tuple[tuple[int, int, int], ...]:
    """Ways ``t`` items of a face can go to runs: (new suit state, run items u, high h)."""
    key = (state, t, rank, size, high_cap, ace_low, ace_high)
    found = _split_cache.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int, int]] = []
    if rank == 1:
        for h in range(min(t, high_cap) + 1 if ace_high else 1):
            for u in range(t - h + 1 if ace_low else 1):
                out.append((_intern((h, (1,) * u)), u, h))
    else:
        hi, runs = _suit_states[state]
        last = 14 if hi else 13
        for u in range(t + 1):
            new_runs = _run_step(runs, u, rank, hi, size, last)
            if new_runs is not None:
                out.append((_intern((hi, new_runs)), u, 0))
    result = tuple(out)
    _split_cache[key] = result
    return result


def can_group(gmax: int, gsum: int, size: int, max_set: int) -> bool:
    """Whether a rank's ``gsum`` group items, at most ``gmax`` of one suit, fill groups
    of ``size`` to ``max_set`` cards."""
    if gsum == 0:
        return True
    groups = max(gmax, -(-gsum // max_set))
    return groups * size <= gsum


def final_ok(state: int, size: int) -> bool:
    """Whether a suit state can close after the king (high aces extend runs first)."""
    hi, runs = _suit_states[state]
    shorts = [k for k in runs if k < size]
    if not hi:
        return not shorts
    if any(k + 1 < size for k in shorts):
        return False
    return len(shorts) <= hi <= len(shorts) + runs.count(size)


Choice = tuple[int, int, int, int, int, int]
"""How one face's items are placed: (freed x, hand cards o, wild w, run items u, group
items g, high aces h)."""
FaceOption = tuple[int, int, int, int, int, int, Choice]
"""A way to place one face's items from one suit state: (new state, g, w, x, hand
cards o, tie-break gain, choice)."""
_option_cache: dict[tuple[int | bool, ...], tuple[FaceOption, ...]] = {}
"""Face options by the face's shape (shared by all problems; see :func:`face_options`)."""


def face_options(shape: tuple[int | bool, ...]) -> tuple[FaceOption, ...]:
    """:func:`_face_options` of one face's shape, remembered for every problem."""
    options = _option_cache.get(shape)
    if options is None:
        options = _face_options(*shape)  # type: ignore[arg-type]
        if len(_option_cache) > 200_000:
            _option_cache.clear()
        _option_cache[shape] = options
    return options


def _face_options(
    state: int,
    rank: int,
    real: int,
    kept_max: int,
    hand: int,
    cap: int,
    real_ext: int,
    wild_max: int,
    high_cap: int,
    in_runs: int,
    in_groups: int,
    in_high: int,
    size: int,
    ace_low: bool,
    ace_high: bool,
) -> tuple[FaceOption, ...]:
    """Every way to place one face's items from one suit state, best layout tie-break per
    outcome: (new state, g, w, freed x, hand cards o, tie-break gain, choice).

    For a given outcome (new state, g, w, x) the number of items, and so ``o``, is
    fixed, which is why the best choice does not depend on the hand cards' weights.
    """
    best: dict[tuple[int, int, int, int], tuple[int, int, Choice]] = {}
    for x in range(kept_max + 1):
        forced = real + kept_max - x
        if forced > cap:
            continue
        for o in range(hand + 1):
            if x > real + real_ext + o:
                continue  # freeing rule: a real card must stand for each freed joker
            for w in range(wild_max + 1):
                t = forced + o + w
                if t > cap:
                    break
                for new_state, u, h in _splits(state, t, rank, size, high_cap, ace_low, ace_high):
                    g = t - u - h
                    keep = (kept_max - x) + min(g, in_groups)
                    keep += min(u, in_runs - in_high) + min(h, in_high)
                    out_key = (new_state, g, w, x)
                    old = best.get(out_key)
                    if old is None or keep > old[1]:
                        best[out_key] = (o, keep, (x, o, w, u, g, h))
    return tuple(
        (new_state, g, w, x, o, keep, choice)
        for (new_state, g, w, x), (o, keep, choice) in best.items()
    )
