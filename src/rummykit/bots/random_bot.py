"""A bot that picks uniformly among the legal actions, for any variant."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from rummykit.cards import make_rng
from rummykit.errors import BotError

__all__ = ["RandomBot"]

ActionT = TypeVar("ActionT")


class RandomBot:
    """Uniformly random legal actions from a seeded RNG (``None``: a secure seed)."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = make_rng(seed)

    def act(self, observation: Any, legal_actions: Sequence[ActionT]) -> ActionT:
        """A uniformly random element of ``legal_actions``."""
        if not legal_actions:
            raise BotError("no legal action to choose from", bot=self.name)
        return self.rng.choice(legal_actions)
