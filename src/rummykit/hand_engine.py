"""What every game's hand engine shares: whether an action is legal, and records.

A hand engine (Gin's hand, Rami's round, Carousel's hand) refuses an illegal action by
raising :class:`~rummykit.core.IllegalActionError` and changing nothing. Its
``check(action)`` raises the same refusal without playing the action; by default it
plays it on a clone. ``is_legal`` is that check as a yes or no.

A hand's record is its kind, its rules, what its deal needs (seed, dealer, deck...) and
its actions; replaying the actions on the same deal rebuilds the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from rummykit.core import IllegalActionError
from rummykit.errors import InvalidRecordError

__all__ = ["HandEngine"]


class HandEngine:
    """The base of a hand engine: :meth:`check` and :meth:`is_legal` from ``clone()``
    and ``apply(action)``, which the engine supplies."""

    __slots__ = ()

    refusals: ClassVar[tuple[type[Exception], ...]] = (IllegalActionError,)
    """What :meth:`is_legal` takes as a no (Rami adds a malformed open-ended play)."""
    record_kind: ClassVar[str]
    """The ``variant`` of this engine's records (``gin``, ``rami-round``...)."""
    record_kind_required: ClassVar[bool] = False
    """Whether a record must name its kind (else a record without one is taken as one)."""
    action_type: ClassVar[Any]
    """The engine's action class (with ``from_json``), for replays."""

    rules: Any
    actions: list[Any]

    def clone(self) -> Any:
        """An independent copy of the hand."""
        raise NotImplementedError

    def apply(self, action: Any) -> Any:
        """Play ``action`` for the player to act; return the events it caused.

        Raises:
            IllegalActionError: the action is not legal now (the state is unchanged).
            InvalidActionError: the action is malformed.
        """
        raise NotImplementedError

    def check(self, action: Any) -> object:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now; else nothing."""
        self.clone().apply(action)
        return None

    def is_legal(self, action: Any) -> bool:
        """True when ``action`` may be applied now."""
        try:
            self.check(action)
        except self.refusals:
            return False
        return True

    def _record(self, **deal: Any) -> dict[str, Any]:
        """A JSON-ready record: the kind, the rules, what the deal needs, the actions."""
        return {
            "variant": self.record_kind,
            "rules": self.rules.to_dict(),
            **deal,
            "actions": [action.to_json() for action in self.actions],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Self:
        """Rebuild a hand from its record (``to_record``) by replaying its actions."""
        kind = cls.record_kind
        if record.get("variant", None if cls.record_kind_required else kind) != kind:
            raise InvalidRecordError(
                f"not a {kind.replace('-', ' ')} record: variant {record.get('variant')!r}"
            )
        hand = cls._dealt_from_record(record)
        parse = cls.action_type.from_json
        for data in record.get("actions", ()):
            hand.apply(parse(data))
        return hand

    @classmethod
    def _dealt_from_record(cls, record: Mapping[str, Any]) -> Self:
        """The hand as a record says it was dealt, before any action."""
        raise NotImplementedError
