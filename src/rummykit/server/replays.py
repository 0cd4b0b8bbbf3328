"""A finished game's replay: its record, and the whole table after every action.

The game is replayed from its stored row, so a replay shows exactly what the log
holds; every hand is shown, since the game is over.
"""

from __future__ import annotations

from rummykit.server.store import TableRow
from rummykit.server.variants import get_adapter
from rummykit.table_game import JSON

__all__ = ["replay_record", "replay_steps", "row_summary"]


def replay_steps(row: TableRow) -> list[JSON]:
    """Step 0 (the deal), then one step per action: who played what, its events, the state."""
    adapter = get_adapter(row.variant)
    game = adapter.new_game(row.rules, seats=len(row.seats), seed=row.seed)
    steps: list[JSON] = [
        {"seq": 0, "seat": None, "action": None, "events": [], "state": game.reveal()}
    ]
    for action in row.actions:
        applied = game.apply(action.seat, action.action)
        steps.append(
            {
                "seq": action.seq,
                "seat": action.seat,
                "by": action.actor,
                "action": action.action,
                "events": game.events_for(applied.events, None),
                "state": game.reveal(),
            }
        )
    return steps


def _public_seats(row: TableRow) -> list[JSON]:
    """The seats as anyone may see them: no token."""
    return [
        {"seat": i, "kind": s["kind"], "name": s["name"], "level": s.get("level")}
        for i, s in enumerate(row.seats)
    ]


def replay_record(row: TableRow) -> JSON:
    """What it takes to replay the game elsewhere: variant, rules, seed, seats, actions."""
    return {
        "variant": row.variant,
        "preset": row.preset,
        "rules": row.rules,
        "seed": row.seed,
        "seats": _public_seats(row),
        "actions": [
            {"seq": a.seq, "seat": a.seat, "action": a.action, "by": a.actor} for a in row.actions
        ],
    }


def row_summary(row: TableRow) -> JSON:
    """A stored table as the lists of tables and games show it (no token, no seed)."""
    return {
        "id": row.id,
        "variant": row.variant,
        "preset": row.preset,
        "status": row.status,
        "seq": row.action_count,
        "seats": _public_seats(row),
        "summary": row.summary,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "finished_at": row.finished_at,
        "rematch_of": row.rematch_of,
        "rematch_id": row.rematch_id,
    }
