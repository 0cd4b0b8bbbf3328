"""The layout rule and the placement solver under one game's options.

:func:`~rummykit.games.carousel.layout.check_layout` and
:func:`~rummykit.games.carousel.arrange.best_placement` take the meld rules, the joker
copy limit and the joker's value one by one (the solver is also used without a game);
the engine, the bots and the hint all read them from the game's
:class:`~rummykit.games.carousel.rules.CarouselRules`, here, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.games.carousel.arrange import Placement, best_placement
from rummykit.games.carousel.layout import LayoutCheck, check_layout
from rummykit.games.carousel.rules import CarouselRules

__all__ = ["best_placement_under", "check_layout_under"]


def check_layout_under(
    rules: CarouselRules,
    decks: int,
    old_table: Sequence[Sequence[int]],
    new_table: Sequence[Sequence[int]],
    hand: Sequence[int],
) -> LayoutCheck:
    """:func:`check_layout` with the options of ``rules`` (raises as it does)."""
    return check_layout(
        old_table,
        new_table,
        hand,
        rules=rules.meld_rules,
        decks=decks,
        joker_copy_limit=rules.joker_copy_limit,
    )


def best_placement_under(
    rules: CarouselRules,
    decks: int,
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    few_changes: bool = False,
) -> Placement | None:
    """:func:`best_placement` (by value) with the options of ``rules``."""
    return best_placement(
        list(table),
        list(hand),
        rules=rules.meld_rules,
        decks=decks,
        joker_copy_limit=rules.joker_copy_limit,
        joker_value=rules.joker_value,
        few_changes=few_changes,
    )
