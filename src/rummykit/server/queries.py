"""Questions a seated player may ask without playing: ``check`` an action, get a ``hint``.

Both answer from the engine through the variant's adapter (``Game.check``,
``Game.hint``), so the browser never needs a rule of its own: the Rami opening builder
asks what its combinations add up to against the threshold, the Carousel editor asks
whether its layout is legal, and either may ask for the solver's best play. Neither
changes the table or its log.

A check is cheap and runs under the table lock. A hint may search for a while (the
Carousel placement solver), so only the seat's observation is taken under the lock and
the search runs in a worker thread; at most :data:`MAX_HINTS` run at once.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Final

from rummykit.core import InvalidActionError
from rummykit.server.action_shapes import checked_action
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import ServerError
from rummykit.table_game import JSON

__all__ = ["MAX_HINTS", "check_action", "hint"]

MAX_HINTS: Final = 2
"""Hint searches running at once across the server (each holds a worker thread)."""

_hint_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _slots() -> asyncio.Semaphore:
    # One semaphore per event loop: a semaphore belongs to the loop it first waits in,
    # and a process may run several servers (tests do) each with its own loop.
    loop = asyncio.get_running_loop()
    slots = _hint_slots.get(loop)
    if slots is None:
        slots = _hint_slots[loop] = asyncio.Semaphore(MAX_HINTS)
    return slots


def _playing(table: LiveTable) -> None:
    if table.status == "waiting":
        raise ServerError("not_started", "the game has not started yet")
    if table.status == "finished" or table.game.is_over:
        raise ServerError("game_over", "the game is over")


async def check_action(table: LiveTable, seat: int, action: Any) -> JSON:
    """Whether ``seat`` may play ``action`` now, and what the engine says about it."""
    async with table.lock:
        _playing(table)
        action_type = getattr(table.game, "action_type", None)
        shaped = checked_action(table.adapter.name, action, action_type)
        try:
            return table.game.check(seat, shaped)
        except InvalidActionError as error:
            raise ServerError("invalid_action", str(error)) from None


async def hint(table: LiveTable, seat: int) -> JSON:
    """The solver's advice for ``seat`` from its own observation."""
    async with table.lock:
        _playing(table)
        advise = table.game.hint(seat)
        seq = table.seq
    async with _slots():
        advice = await asyncio.to_thread(advise)
    return {"seq": seq, **advice}
