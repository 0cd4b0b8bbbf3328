"""The variant-neutral decision process every environment wrapper drives.

A *table* turns a variant's engine into a sequence of decisions by integer action id:
who acts, which ids are legal, what a step does and what it pays. The PettingZoo,
Gymnasium and OpenSpiel wrappers only talk to this protocol and to the variant's
observation encoder, so a variant plugs in with a table, an action encoding and an
encoder, and reuses every wrapper (``rami_v0`` is :class:`~rummykit.rl.rami_table.RamiTable`
in the PettingZoo wrapper).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from rummykit.core import IllegalActionError

__all__ = ["Episode", "RewardKind", "Table", "illegal_action_error"]

Episode = Literal["hand", "match"]
"""``hand``: one hand is an episode; ``match``: a match to the target with every bonus."""
RewardKind = Literal["points", "win"]
"""``points``: score points (zero-sum); ``win``: +1 / -1 / 0 at the end of the episode."""


class Table(Protocol):
    """A game driven by action ids; see :class:`rummykit.rl.gin_table.GinTable` and
    :class:`rummykit.rl.rami_table.RamiTable`."""

    @property
    def num_actions(self) -> int:
        """How many action ids there are."""
        ...

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        ...

    @property
    def current_player(self) -> int:
        """The seat to act."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the episode has ended."""
        ...

    @property
    def version(self) -> int:
        """Changes whenever the state changes (a cache key for observations)."""
        ...

    def reset(self, seed: int) -> None:
        """Start a new episode whose deal(s) come from ``seed``."""
        ...

    def legal_ids(self) -> Sequence[int]:
        """Ascending legal action ids of the seat to act (empty when over)."""
        ...

    def step(self, action_id: int) -> list[float]:
        """Apply one id for the seat to act; the reward of each seat for this step.

        Raises :class:`~rummykit.core.IllegalActionError` (state unchanged) for an id
        that is not legal.
        """
        ...

    def action_string(self, action_id: int) -> str:
        """A readable name of an action id."""
        ...

    def info(self, seat: int) -> dict[str, Any]:
        """Public facts for the seat (JSON-ready), e.g. the last hand's result."""
        ...


def illegal_action_error(
    action_id: object, seat: int, legal: Sequence[int], names: Sequence[str]
) -> IllegalActionError:
    """The error for an id outside the mask, listing the legal ids by name."""
    shown = ", ".join(f"{i} ({name})" for i, name in zip(legal, names, strict=True))
    return IllegalActionError(
        f"action {action_id!r} is not legal for seat {seat} now; legal ids: {shown or 'none'}",
        code="action_not_legal",
        seat=seat,
        rule="action mask",
    )
