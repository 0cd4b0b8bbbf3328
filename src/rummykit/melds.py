"""Sets and runs under a variant's meld rules, with jokers and several decks.

A meld is checked as a whole: :func:`check_meld` either returns a :class:`Meld` that
says what each card stands for (jokers resolved to a face) or raises
:class:`InvalidMeldError` with a reason a person can read.

>>> from rummykit.cards import parse_cards
>>> check_meld(parse_cards("AH 2H 3H"), GIN_MELDS).kind
'run'
>>> check_meld(parse_cards("QH KH AH"), GIN_MELDS)
Traceback (most recent call last):
...
rummykit.errors.InvalidMeldError: QH KH AH is not a meld: the ace is low only, no Q-K-A run
>>> meld = check_meld(parse_cards("JK 7S 8S"), RAMI_MELDS)
>>> [str(c) for c in meld.faces]
['6S', '7S', '8S']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.cards import FACES, RANKS, SUITS, Card, format_cards
from rummykit.errors import InvalidMeldError

__all__ = [
    "CAROUSEL_MELDS",
    "GIN_MELDS",
    "RAMI_MELDS",
    "InvalidMeldError",
    "Meld",
    "MeldRules",
    "check_meld",
    "is_meld",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class MeldRules:
    """What counts as a meld in one variant."""

    ace_low: bool = True
    """``A 2 3`` is a run."""
    ace_high: bool = False
    """``Q K A`` is a run (never both ends at once: no wrap)."""
    min_size: int = 3
    max_set_size: int = 4
    max_run_size: int = 13
    max_jokers: int | None = 0
    """Jokers allowed in one meld; ``None`` for any number."""
    jokers_declared: bool = False
    """True when a joker on the table must carry an explicit declaration (Carousel);
    false when the engine resolves it (Rami: the lower position at a run's end)."""


GIN_MELDS: Final = MeldRules()
RAMI_MELDS: Final = MeldRules(ace_high=True, max_jokers=1)
CAROUSEL_MELDS: Final = MeldRules(ace_high=True, max_jokers=None, jokers_declared=True)

StandIns = list[tuple[Card, Card | None]]
"""Each card of a meld with the natural card it stands for (``None``: an open joker)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld: its cards, and the face each card stands for."""

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    faces: tuple[Card | None, ...]
    """Per card, the natural face it stands for (a joker's resolved or declared face);
    ``None`` only for a joker in a set whose suit is still open."""
    rank: int
    """The set's rank, or the run's lowest rank (ace-high runs: 14 for a top ace)."""
    suit: str | None
    """The run's suit; ``None`` for a set."""

    @property
    def high_rank(self) -> int:
        """Top rank of a run (14 = ace high); for a set, its rank."""
        return self.rank + len(self.cards) - 1 if self.kind == "run" else self.rank

    def __str__(self) -> str:
        return format_cards(self.cards)


def _natural_rank_suit(card: int) -> tuple[int, int]:
    face = FACES[card]
    return face % 13 + 1, face // 13


class _Shown:
    """A meld's notation for an error message, written out only if one is raised."""

    __slots__ = ("cards",)

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards

    def __format__(self, spec: str) -> str:
        return format(format_cards(self.cards), spec)


def check_meld(meld_cards: Sequence[int], rules: MeldRules) -> Meld:
    """Validate ``cards`` as one meld under ``rules``; return it with jokers resolved.

    Raises:
        InvalidMeldError: the cards are not a legal set or run, with the reason.
    """
    cards = tuple(c if type(c) is Card else Card(c) for c in meld_cards)
    shown = _Shown(cards)  # formatted only when an error names the meld
    if len(cards) < rules.min_size:
        raise InvalidMeldError(
            f"{shown} is not a meld: at least {rules.min_size} cards are needed",
            code="meld_too_small",
            numbers={"least": rules.min_size},
        )
    jokers = [c for c in cards if c.is_joker]
    naturals = [c for c in cards if not c.is_joker]
    if rules.max_jokers is not None and len(jokers) > rules.max_jokers:
        if rules.max_jokers == 0:
            raise InvalidMeldError(
                f"{shown} is not a meld: jokers are not played in this variant", code="no_jokers"
            )
        raise InvalidMeldError(
            f"{shown} is not a meld: at most {rules.max_jokers} joker(s) per combination",
            code="meld_jokers_over_limit",
            numbers={"most": rules.max_jokers},
        )
    if rules.jokers_declared:
        for joker in jokers:
            if joker.declared is None:
                raise InvalidMeldError(
                    f"{shown}: a joker on the table must be declared, e.g. JK=5S",
                    code="undeclared_joker",
                )
    if not naturals and not all(j.declared is not None for j in jokers):
        raise InvalidMeldError(
            f"{shown} is not a meld: it needs at least one natural card", code="no_natural_card"
        )

    # Declared jokers count as their declared cards for the shape checks.
    stand_ins = [(c, c if not c.is_joker else c.declared) for c in cards]
    known = [face for _, face in stand_ins if face is not None]
    ranks = {_natural_rank_suit(face)[0] for face in known}
    suits = {_natural_rank_suit(face)[1] for face in known}

    set_error = None
    if len(ranks) == 1:
        try:
            return _as_set(cards, stand_ins, rules, shown)
        except InvalidMeldError as error:
            # Two or more known cards of one rank can never be a run, so the set's
            # reason (e.g. two identical cards) is the one to report.
            if len(known) > 1:
                raise
            set_error = error
    if len(suits) == 1:
        return _as_run(cards, stand_ins, rules, shown)
    if set_error is not None:
        raise set_error
    raise InvalidMeldError(
        f"{shown} is not a meld: a set needs one rank, a run needs one suit",
        code="not_set_or_run",
    )


def _too_big(
    shown: _Shown, kind: Literal["set", "run"], most: int, *, code: str
) -> InvalidMeldError:
    """The refusal of a set or run over its size limit."""
    return InvalidMeldError(
        f"{shown} is not a {kind}: at most {most} cards", code=code, numbers={"most": most}
    )


def _as_set(cards: tuple[Card, ...], stand_ins: StandIns, rules: MeldRules, shown: _Shown) -> Meld:
    if len(cards) > rules.max_set_size:
        raise _too_big(shown, "set", rules.max_set_size, code="set_too_big")
    used: set[int] = set()
    for card, face in stand_ins:
        if face is None:
            continue
        suit = _natural_rank_suit(face)[1]
        if suit in used:
            raise InvalidMeldError(
                f"{shown} is not a set: two cards of suit {SUITS[suit]} ({card}); "
                "a set's suits must all differ",
                code="set_suit_twice",
            )
        used.add(suit)
    rank = next(_natural_rank_suit(face)[0] for _, face in stand_ins if face is not None)
    free_suits = [s for s in range(4) if s not in used]
    open_jokers = [c for c, face in stand_ins if face is None]
    faces: list[Card | None] = []
    # A lone undeclared joker beside three naturals has exactly one suit left; with two
    # naturals its suit stays open (the Rami rules, §rami-3.6).
    resolvable = len(open_jokers) == len(free_suits)
    for _card, face in stand_ins:
        if face is not None:
            faces.append(Card(FACES[face]))
        elif resolvable:
            faces.append(Card((free_suits.pop(0)) * 13 + rank - 1))
        else:
            faces.append(None)
    return Meld("set", cards, tuple(faces), rank, None)


def _as_run(cards: tuple[Card, ...], stand_ins: StandIns, rules: MeldRules, shown: _Shown) -> Meld:
    if len(cards) > rules.max_run_size:
        raise _too_big(shown, "run", rules.max_run_size, code="run_too_big")
    suit = next(_natural_rank_suit(face)[1] for _, face in stand_ins if face is not None)
    known_ranks = sorted(_natural_rank_suit(face)[0] for _, face in stand_ins if face is not None)
    if len(set(known_ranks)) != len(known_ranks):
        raise InvalidMeldError(f"{shown} is not a run: a rank appears twice", code="run_rank_twice")
    n = len(cards)
    has_ace = known_ranks[0] == 1
    candidates: list[list[int]] = []
    if not has_ace or rules.ace_low:
        candidates.append(known_ranks)
    if has_ace and rules.ace_high:
        candidates.append(sorted(14 if r == 1 else r for r in known_ranks))
    if not candidates:
        raise InvalidMeldError(
            f"{shown} is not a meld: the ace may not be used in a run", code="ace_not_in_runs"
        )
    open_jokers = sum(1 for _, face in stand_ins if face is None)
    for ranks in candidates:
        low, high = ranks[0], ranks[-1]
        if high - low + 1 > n:
            continue
        gaps = (high - low + 1) - len(ranks)
        spare = open_jokers - gaps
        if spare < 0:
            continue
        # Extend downward first: an end joker takes the lower position (§rami-3.5).
        min_low = 1 if rules.ace_low else 2
        max_high = 14 if rules.ace_high else 13
        start = max(min_low, low - spare)
        if high + (spare - (low - start)) > max_high:
            continue
        if start + n - 1 > max_high:
            continue
        run_ranks = list(range(start, start + n))
        if 1 in run_ranks and 14 in run_ranks:
            continue
        missing = [r for r in run_ranks if r not in ranks]
        faces: list[Card | None] = []
        for _card, face in stand_ins:
            if face is not None:
                faces.append(Card(FACES[face]))
            else:
                rank = missing.pop(0)
                faces.append(Card(suit * 13 + (rank - 1 if rank < 14 else 0)))
        return Meld("run", cards, tuple(faces), start, SUITS[suit])
    if has_ace and not rules.ace_low and known_ranks[-1] - known_ranks[0] + 1 <= n:
        raise InvalidMeldError(
            f"{shown} is not a meld: the ace is high only, no A-2-3 run", code="ace_high_only"
        )
    if has_ace and known_ranks[-1] >= 12:
        # Which reading of the ace would have made the cards a run?
        high_ranks = sorted(14 if r == 1 else r for r in known_ranks)
        if high_ranks[-1] - high_ranks[0] + 1 <= n and not rules.ace_high:
            raise InvalidMeldError(
                f"{shown} is not a meld: the ace is low only, no Q-K-A run", code="ace_low_only"
            )
        if _cyclic_span(known_ranks) <= n:
            raise InvalidMeldError(
                f"{shown} is not a meld: no wrap around the ace (K-A-2)", code="run_wraps"
            )
    return _run_gap_error(shown, known_ranks, open_jokers)


def _cyclic_span(ranks: list[int]) -> int:
    """Length of the shortest stretch of the rank cycle ``... Q K A 2 ...`` holding ``ranks``."""
    widest_gap = max((ranks[(i + 1) % len(ranks)] - ranks[i]) % 13 for i in range(len(ranks)))
    return 13 - widest_gap + 1


def _run_gap_error(shown: _Shown, ranks: list[int], jokers: int) -> Meld:
    names = " ".join(RANKS[(r - 1) % 13] for r in ranks)
    if jokers:
        raise InvalidMeldError(
            f"{shown} is not a run: ranks {names} leave gaps that {jokers} joker(s) cannot fill",
            code="run_gaps",
            numbers={"jokers": jokers},
        )
    raise InvalidMeldError(
        f"{shown} is not a run: ranks {names} are not consecutive", code="run_not_consecutive"
    )


def is_meld(cards: Sequence[int], rules: MeldRules) -> bool:
    """True when ``cards`` form a legal meld under ``rules``."""
    try:
        check_meld(cards, rules)
    except InvalidMeldError:
        return False
    return True
