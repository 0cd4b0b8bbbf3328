"""Bots' turns: bot seats, and stand-ins for people who left, play when it is their turn.

A bot acts from its seat's observation after ``bot_delay`` seconds (a slow bot thinks
in a worker thread, so that it never holds up the other tables). A human seat whose
connections are all gone is held for ``seat_timeout`` seconds; after that, while some
other human is at the table, a stand-in bot plays its turns until its owner returns.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
import time
from typing import Any

from rummykit.server.config import ServerConfig
from rummykit.server.live_table import LiveTable, Seat
from rummykit.server.moves import MovePipeline
from rummykit.table_game import JSON

__all__ = ["BotTurns", "make_bots"]

log = logging.getLogger("rummykit.server")


def make_bots(table: LiveTable) -> None:
    """Seat a bot of its level at every bot seat of ``table``."""
    for seat in table.seats:
        if seat.kind != "bot":
            continue
        level = seat.level or table.adapter.default_bot_level
        try:
            seat.bot = table.adapter.make_bot(
                level, table.rules, seed=secrets.randbits(63), players=len(table.seats)
            )
        except ValueError as error:
            # A bot registered by a plugin that this server has not loaded: the
            # seat keeps its level (and plays again once the plugin is back), the
            # default level plays it meanwhile.
            log.warning(
                "table %s seat %d: bot level %r is unavailable (%s); %r plays it",
                table.id,
                seat.index,
                level,
                error,
                table.adapter.default_bot_level,
            )
            seat.bot = table.adapter.make_bot(
                table.adapter.default_bot_level,
                table.rules,
                seed=secrets.randbits(63),
                players=len(table.seats),
            )


class BotTurns:
    """Plays the automatic seats of every table: one driver task per table at most."""

    def __init__(
        self, config: ServerConfig, moves: MovePipeline, tasks: set[asyncio.Task[Any]]
    ) -> None:
        self.config = config
        self.moves = moves
        self.tasks = tasks
        """The manager's background tasks (cancelled when it closes)."""
        self.stopped = False
        self._cost: dict[tuple[str, str], collections.deque[float]] = {}
        """Seconds the last decisions took, per (variant, bot name)."""
        self.threaded: set[tuple[str, str]] = set()
        """The (variant, bot name) pairs that think in a worker thread now."""

    def stop(self) -> None:
        """Start no bot turn from now on (the server is closing)."""
        self.stopped = True

    def kick(self, table: LiveTable) -> None:
        """Let the bots play if it is their turn (one driver task per table)."""
        if self.stopped or (table.driver is not None and not table.driver.done()):
            return
        if self._automatic_player(table) is None:
            return
        task = asyncio.ensure_future(self._drive(table))
        table.driver = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _standin_allowed(self, table: LiveTable, seat: Seat) -> bool:
        if seat.kind != "human" or seat.clients or seat.away_since is None:
            return False
        if time.monotonic() - seat.away_since < self.config.seat_timeout:
            return False
        return any(other.clients for other in table.seats if other is not seat)

    def _automatic_player(self, table: LiveTable) -> tuple[int, Any, str] | None:
        if table.status != "playing" or table.game.is_over:
            return None
        current = table.game.current_seat
        if current is None:
            return None
        seat = table.seats[current]
        if seat.kind == "bot":
            return current, seat.bot, "bot"
        if self._standin_allowed(table, seat):
            if seat.standin is None:
                seat.standin = table.adapter.make_bot(
                    table.adapter.default_bot_level,
                    table.rules,
                    seed=secrets.randbits(63),
                    players=len(table.seats),
                )
            return current, seat.standin, "standin"
        return None

    async def _decision(self, table: LiveTable, seat: int, bot: Any) -> JSON:
        """The bot's action, decided on the loop or, for a slow bot, in a thread.

        Called under the table lock, so the game does not change while the bot reads
        it from another thread. A bot thinks in a thread while the median of its last
        five decisions (per variant and bot) took over ``bot_thread_after``: a median,
        because on a loaded machine the process is descheduled now and then, and one
        such decision must not send a fast bot to the thread. Wall time, because
        reading a CPU clock is a system call (on a loaded virtual machine py-spy found
        the server inside it a third of the time); in a thread it includes waiting for
        the GIL.
        """
        # Timed per variant and level (bots of different levels may share a name).
        level = table.seats[seat].level if bot is table.seats[seat].bot else None
        key = (table.adapter.name, level or str(getattr(bot, "name", type(bot).__name__)))
        recent = self._cost.get(key)
        if recent is None:
            recent = self._cost[key] = collections.deque(maxlen=5)
        limit = self.config.bot_thread_after
        slow = limit <= 0 or (bool(recent) and sorted(recent)[len(recent) // 2] > limit)

        def decide() -> tuple[JSON, float]:
            start = time.perf_counter()
            action = table.game.bot_action(seat, bot)
            return action, time.perf_counter() - start

        action, spent = await asyncio.to_thread(decide) if slow else decide()
        recent.append(spent)
        if slow != (key in self.threaded):
            (self.threaded.add if slow else self.threaded.discard)(key)
            log.info(
                "%s bot %r now thinks %s (median of its last decisions %.1f ms)",
                key[0],
                key[1],
                "in a worker thread" if slow else "on the event loop",
                1000 * sorted(recent)[len(recent) // 2],
            )
        return action

    async def _drive(self, table: LiveTable) -> None:
        while not self.stopped:
            if self._automatic_player(table) is None:
                return
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            async with table.lock:
                player = self._automatic_player(table)
                if player is None:
                    return
                seat, bot, actor = player
                try:
                    action = await self._decision(table, seat, bot)
                    await self.moves.apply_locked(table, seat, action, actor)
                except Exception:
                    log.exception("bot at table %s seat %d failed", table.id, seat)
                    return
            if self.config.bot_delay <= 0:
                await asyncio.sleep(0)  # let others in between bot moves
