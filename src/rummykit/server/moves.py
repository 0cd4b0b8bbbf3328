"""The move pipeline: an action checked by the engine, committed, then acknowledged and sent.

All under the table's lock: the engine applies the action, the commit queue writes it
to the database (grouped with the other tables' writes into one transaction), and only
then is it acknowledged and broadcast. So every client sees the actions of a table in
log order, and a snapshot taken under the lock is never followed by an event it already
contains. A failure at any step replays the committed log, so memory always matches the
database.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.refusal_facts import refusal_params
from rummykit.rules import cited_rule
from rummykit.server.action_shapes import checked_action
from rummykit.server.commit_queue import CommitQueue
from rummykit.server.connections import Client, encode_json
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import ServerError
from rummykit.server.store import ActionRow, Store
from rummykit.table_game import JSON

__all__ = ["MovePipeline"]

log = logging.getLogger("rummykit.server")


class MovePipeline:
    """Applies, saves and broadcasts the actions of every table."""

    def __init__(self, store: Store, writer: CommitQueue) -> None:
        self.store = store
        self.writer = writer

    async def play(
        self, table: LiveTable, seat: int, action: JSON, reply_to: Client | None, request_id: Any
    ) -> int:
        """A person's action, refused unless the game is being played and it is the
        seat's turn, and unless it has the shape of one of the game's actions. In that
        order: a seat out of turn learns nothing about how its action would be read,
        and the game's parser only ever sees a well-shaped action."""
        async with table.lock:
            if table.status == "waiting":
                raise ServerError("not_started", "the game has not started yet")
            if table.status == "finished" or table.game.is_over:
                raise ServerError("game_over", "the game is over")
            current = table.game.current_seat
            if current is not None and seat != current:
                raise ServerError(
                    "not_your_turn",
                    f"seat {seat} cannot play now: it is seat {current}'s turn",
                    rule="not_your_turn",
                    rule_id=cited_rule(table.adapter.name, "not_your_turn", None),
                )
            shaped = checked_action(
                table.adapter.name, action, getattr(table.game, "action_type", None)
            )
            return await self.apply_locked(table, seat, shaped, "human", reply_to, request_id)

    async def apply_locked(
        self,
        table: LiveTable,
        seat: int,
        action: JSON,
        actor: str,
        reply_to: Client | None = None,
        request_id: Any = None,
    ) -> int:
        """Apply, commit, acknowledge and broadcast ``action``; the caller holds the lock."""
        game = table.game
        try:
            applied = game.apply(seat, action)
        except InvalidActionError as error:
            raise ServerError("invalid_action", str(error)) from None
        except IllegalActionError as error:
            code = "not_your_turn" if error.code == "not_your_turn" else "illegal_action"
            rule_id = cited_rule(table.adapter.name, error.code, error.rule)
            raise ServerError(
                code,
                str(error),
                rule=error.code,
                rule_id=rule_id,
                params=refusal_params(error),
            ) from None
        except Exception:
            log.exception("engine failure at table %s on %r", table.id, action)
            self.rebuild(table)
            raise ServerError("internal_error", "the server could not apply that move") from None
        seq = table.seq + 1
        row = ActionRow(seq, seat, applied.action, actor, time.time())
        status = "finished" if game.is_over else None
        try:
            await self.writer.commit(
                self.store.append_action(table.id, row, status=status, summary=table.summary_text())
            )
        except ServerError:  # refused by the store itself: a cluster node lost the lease
            self.rebuild(table)
            raise
        except Exception:
            log.exception("could not save action %d of table %s", seq, table.id)
            self.rebuild(table)
            raise ServerError(
                "storage_error", "the move could not be saved, so it did not happen; try again"
            ) from None
        table.actions.append((seat, applied.action))
        if status is not None:
            table.status = status
        if reply_to is not None:
            reply_to.send({"type": "ack", "id": request_id, "seq": seq})
        _send_update(table, seq, seat, actor, applied.events, applied.action)
        return seq

    @staticmethod
    def rebuild(table: LiveTable) -> None:
        """Replay the committed log after a failure, so memory matches the database."""
        table.game = table.adapter.replay(
            table.rules, seats=len(table.seats), seed=table.seed, actions=table.actions
        )


def _send_update(
    table: LiveTable, seq: int, seat: int, actor: str, events: Sequence[Event], action: JSON
) -> None:
    """Send every connection its ``update`` for the action ``seat`` just played.

    One view and one encoding per seat (and one for all spectators), built only for
    the seats somebody is connected to.
    """
    game = table.game
    texts: dict[int | None, str] = {}
    for client in table.clients():
        key = client.seat
        text = texts.get(key)
        if text is None:
            message: JSON = {
                "type": "update",
                "seq": seq,
                "actor": seat,
                "by": actor,
                "status": table.status,
                "events": game.events_for(events, key),
                "view": game.view(key),
            }
            if key == seat:
                message["action"] = action
            text = texts[key] = encode_json(message)
        client.send_text(text)
