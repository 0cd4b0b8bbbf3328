"""The websocket protocol's shared pieces: version, errors, message parsing, rate limit.

Every message is one JSON object with a ``type``. ``docs/protocol.md`` documents the
messages; this module holds what both the websocket handler and the REST routes use.

>>> parse_message('{"type": "ping", "id": 1}', max_bytes=100)
{'type': 'ping', 'id': 1}
>>> parse_message('{"type": ', max_bytes=100)
Traceback (most recent call last):
...
rummykit.server.protocol.ServerError: bad_json: the message is not valid JSON (line 1 column 10)
"""

from __future__ import annotations

import json
import time
from typing import Any, Final

from rummykit.errors import RummykitError

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "MAX_JSON_DEPTH",
    "PROTOCOL_VERSION",
    "RateLimiter",
    "ServerError",
    "load_json",
    "parse_message",
]

PROTOCOL_VERSION: Final = 1
"""Version of the websocket protocol; a client says which one it speaks in ``hello``."""

CLIENT_MESSAGE_TYPES: Final = frozenset(
    {"hello", "act", "check", "hint", "start", "rematch", "sync", "ping"}
)

_HTTP_STATUS: Final = {
    "not_found": 404,
    "bad_token": 403,
    "not_seated": 403,
    "not_your_seat": 403,
    "not_your_turn": 409,
    "illegal_action": 409,
    "not_started": 409,
    "already_started": 409,
    "game_over": 409,
    "not_finished": 409,
    "seats_not_joined": 409,
    "storage_error": 503,
    "moved": 503,
    "unavailable": 503,
    "internal_error": 500,
    "too_large": 413,
    "body_too_large": 413,
    "request_timeout": 408,
    "method_not_allowed": 405,
    "rate_limited": 429,
    "too_many_tables": 429,
    "too_many_connections": 429,
}

MAX_JSON_DEPTH: Final = 16
"""Deepest nesting of arrays and objects accepted in a message or request body: the
deepest action (a Rami take_discard with its play) is 4 deep; Python's parser itself
gives up (RecursionError) somewhere past a thousand."""


class ServerError(RummykitError):
    """A request the server refuses: a stable ``code`` and a sentence for people.

    ``rule`` carries the engine's own code for an illegal action (e.g.
    ``discard_taken_card``) so that programs can tell the reasons apart; ``rule_id`` the
    rule of the game's rules page it enforces (``gin-3.5``), when there is one.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        rule_id: str | None = None,
        request_id: Any = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}", code=code)
        self.message = message
        self.rule = rule
        self.rule_id = rule_id
        # The refusal's facts (seat, card, numbers), from which a browser says it in the
        # reader's language (rummykit.refusals.refusal_params).
        self.params = params
        self.request_id = request_id

    @property
    def http_status(self) -> int:
        """The HTTP status of this error on the REST routes."""
        return _HTTP_STATUS.get(self.code, 400)

    def to_json(self, request_id: Any = None) -> dict[str, Any]:
        """The ``error`` message sent to the client."""
        data: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule is not None:
            data["rule"] = self.rule
        if self.rule_id is not None:
            data["rule_id"] = self.rule_id
        if self.params:
            data["params"] = self.params
        if request_id is None:
            request_id = self.request_id
        if request_id is not None:
            data["id"] = request_id
        return data


def parse_message(text: str | bytes, *, max_bytes: int) -> dict[str, Any]:
    """Decode one client message, refusing oversized, malformed and untyped ones."""
    if len(text) > max_bytes:
        raise ServerError(
            "too_large", f"the message has {len(text)} bytes; the limit is {max_bytes}"
        )
    data = load_json(text, "the message")
    if not isinstance(data, dict):
        raise ServerError("bad_message", 'a message is a JSON object with a "type"')
    request_id = data.get("id")
    if request_id is not None and not (
        isinstance(request_id, int | str)
        and not isinstance(request_id, bool)
        and len(str(request_id)) <= 64
    ):
        raise ServerError("bad_message", '"id" must be a short string or a number')
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ServerError("bad_message", 'the message has no "type" string', request_id=request_id)
    if kind not in CLIENT_MESSAGE_TYPES:
        raise ServerError(
            "unknown_type",
            f"unknown message type {kind[:40]!r}; "
            f"expected one of {', '.join(sorted(CLIENT_MESSAGE_TYPES))}",
            request_id=request_id,
        )
    return data


def load_json(text: str | bytes, what: str) -> Any:
    """Parse JSON text, refusing (``bad_json``) what is not JSON or nests too deeply.

    >>> load_json("[" * 4000 + "]" * 4000, "the body")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.server.protocol.ServerError: bad_json: the body nests arrays or objects more ...
    """
    deep = ServerError(
        "bad_json", f"{what} nests arrays or objects more than {MAX_JSON_DEPTH} deep"
    )
    try:
        data = json.loads(text)
    except RecursionError:
        raise deep from None
    except (ValueError, UnicodeDecodeError) as error:
        where = ""
        if isinstance(error, json.JSONDecodeError):
            where = f" (line {error.lineno} column {error.colno})"
        raise ServerError("bad_json", f"{what} is not valid JSON{where}") from None
    if not _within_depth(data):
        raise deep
    return data


def _within_depth(data: Any) -> bool:
    # Iterative, so that checking a deep value cannot itself overflow the stack.
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_JSON_DEPTH:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0
        """Messages refused since the last one allowed."""

    def allow(self) -> bool:
        """Take a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False

    def wait(self) -> float:
        """Seconds until a token is there again (0 when one is)."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else 0.0

    def full(self) -> bool:
        """True once the bucket has refilled: it then holds nothing worth keeping."""
        elapsed = time.monotonic() - self.stamp
        return self.tokens + elapsed * self.rate >= self.burst
