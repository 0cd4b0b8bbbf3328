"""A lobby's request for a new table, checked and turned into the table's row and tokens.

Every refusal is a ``bad_request`` naming what is wrong, checked in the order the
request is read: variant, preset and options, then the seats, then the seed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from rummykit.server.live_table import clean_name, hash_token
from rummykit.server.protocol import ServerError
from rummykit.server.store import TableRow
from rummykit.server.variants import VariantAdapter, get_adapter
from rummykit.table_game import JSON

__all__ = ["parse_table_request"]


def parse_table_request(
    request: Mapping[str, Any], *, allow_seed: bool
) -> tuple[TableRow, VariantAdapter, list[str | None]]:
    """The row of the table ``request`` asks for, its variant, and each seat's token."""
    if not isinstance(request, Mapping):
        raise ServerError("bad_request", "a table request is a JSON object")
    try:
        adapter = get_adapter(request.get("variant", "gin"))
        preset = request.get("preset") or next(iter(adapter.presets))
        rules = adapter.make_rules(str(preset), request.get("options") or {})
    except (ValueError, TypeError) as error:
        raise ServerError("bad_request", str(error)) from None
    seats, tokens = _new_seats(adapter, request.get("seats"))
    seed = secrets.randbits(63)
    if request.get("seed") is not None:
        if not allow_seed:
            raise ServerError("bad_request", "this server does not accept chosen seeds")
        if not isinstance(request["seed"], int) or not 0 <= request["seed"] < 2**63:
            raise ServerError("bad_request", "seed must be a non-negative 63-bit integer")
        seed = request["seed"]
    row = TableRow(
        id=secrets.token_urlsafe(6),
        variant=adapter.name,
        preset=str(preset),
        rules=rules,
        seed=seed,
        seats=seats,
        status="waiting",
        rematch_of=None,
    )
    return row, adapter, tokens


def _new_seats(adapter: VariantAdapter, specs: Any) -> tuple[list[JSON], list[str | None]]:
    """The stored seats and the people's tokens (``None`` for a bot) for ``specs``."""
    if specs is None:
        specs = [{"kind": "human"}] + [{"kind": "bot"}] * (adapter.min_seats - 1)
    if not isinstance(specs, list) or not adapter.min_seats <= len(specs) <= adapter.max_seats:
        raise ServerError(
            "bad_request",
            f"{adapter.title} takes {adapter.min_seats}-{adapter.max_seats} seats, "
            'given as a list of {"kind": "human" | "bot", ...}',
        )
    seats: list[JSON] = []
    tokens: list[str | None] = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, Mapping) or spec.get("kind") not in ("human", "bot"):
            raise ServerError("bad_request", f"seat {index}: kind must be human or bot")
        if spec["kind"] == "bot":
            levels = adapter.bot_levels
            level = spec.get("level") or adapter.default_bot_level
            if level not in levels:
                raise ServerError(
                    "bad_request",
                    f"seat {index}: bot level {level!r} is not one of {', '.join(levels)}",
                )
            name = clean_name(spec.get("name"), f"Bot ({level})")
            seats.append({"kind": "bot", "name": name, "level": level, "joined": True})
            tokens.append(None)
        else:
            token = secrets.token_urlsafe(24)
            name = clean_name(spec.get("name"), f"Player {index + 1}")
            seats.append(
                {
                    "kind": "human",
                    "name": name,
                    "token_hash": hash_token(token),
                    "joined": False,
                }
            )
            tokens.append(token)
    if all(seat["kind"] == "bot" for seat in seats):
        raise ServerError("bad_request", "a table needs at least one human seat")
    return seats, tokens
