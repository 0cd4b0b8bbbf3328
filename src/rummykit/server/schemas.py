"""The declared shapes of what clients send: websocket messages and REST bodies.

Every message and body is checked against its model before any other code reads it,
so no handler ever meets a list where it expects a string. A value of the wrong JSON
type is refused (``bad_message`` on the websocket, ``bad_request`` over REST) with the
field and the reason; fields a model does not name are ignored (newer clients may send
more). What the values mean (a seat token, a variant, a game's action) is checked
after, by the code that knows.

>>> message("act", {"type": "act", "action": {"kind": "pass"}, "seat": 0}).seat
0
>>> message("act", {"type": "act", "action": "pass"})
Traceback (most recent call last):
...
rummykit.server.protocol.ServerError: bad_message: action: Input should be a valid dictionary
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from pydantic import ValidationError as PydanticError

from rummykit.server.protocol import ServerError

__all__ = [
    "ActBody",
    "ActMessage",
    "CheckMessage",
    "CreateTableBody",
    "HelloMessage",
    "JoinBody",
    "Message",
    "body",
    "message",
]

Name = Annotated[StrictStr, Field(max_length=200)]
Word = Annotated[StrictStr, Field(max_length=64)]
Scalar = StrictStr | StrictInt | StrictFloat | StrictBool | None


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Message(_Model):
    """A websocket message with nothing but its type (``ping``, ``sync``, ``hint``,
    ``start``, ``rematch``)."""

    type: StrictStr
    id: StrictStr | StrictInt | None = None


class HelloMessage(Message):
    """``hello``: the protocol version, a seat token (none to watch), a name."""

    v: Scalar = 1
    token: StrictStr | StrictInt | None = None
    """A string; a number is let through to be refused as a ``bad_token``."""
    name: Name | None = None


class ActMessage(Message):
    """``act``: the game's action, and optionally the seat it is for (one's own)."""

    action: dict[str, Any]
    seat: StrictInt | None = None


class CheckMessage(Message):
    """``check``: the game's action to check."""

    action: dict[str, Any]


_MESSAGES: dict[str, type[Message]] = {
    "hello": HelloMessage,
    "act": ActMessage,
    "check": CheckMessage,
}


class SeatSpec(_Model):
    kind: Word
    name: Name | None = None
    level: Word | None = None


class CreateTableBody(_Model):
    """``POST /api/tables``."""

    variant: Word = "gin"
    preset: Word | None = None
    options: Annotated[dict[Word, Scalar], Field(max_length=64)] | None = None
    seats: Annotated[list[SeatSpec], Field(max_length=16)] | None = None
    seed: StrictInt | None = None


class JoinBody(_Model):
    """``POST /api/tables/{id}/join``."""

    name: Name | None = None


class ActBody(_Model):
    """``POST /api/tables/{id}/actions``."""

    action: dict[str, Any]
    seat: StrictInt | None = None


Model = TypeVar("Model", bound=_Model)


def _problems(error: PydanticError) -> str:
    return "; ".join(
        ".".join(str(part) for part in problem["loc"]) + ": " + problem["msg"]
        for problem in error.errors(include_url=False)[:5]
    )


def message(kind: str, data: dict[str, Any]) -> Message:
    """The websocket message ``data`` of type ``kind``, checked (``bad_message``)."""
    model = _MESSAGES.get(kind, Message)
    try:
        return model.model_validate(data)
    except PydanticError as error:
        raise ServerError("bad_message", _problems(error), request_id=data.get("id")) from None


def body(model: type[Model], data: dict[str, Any]) -> Model:
    """A REST body, checked against ``model`` (``bad_request``)."""
    try:
        return model.model_validate(data)
    except PydanticError as error:
        raise ServerError("bad_request", _problems(error)) from None
