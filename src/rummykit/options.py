"""Rule options, each declared once on its rules dataclass field.

A game's rules are a frozen dataclass; every field is an :func:`option` carrying its
range (``low``/``high``), its choices, or a check of its own, and a line of help. Every
layer reads the options from there: the rules class validates itself
(:func:`check_options` in ``__post_init__``), the command line parses ``NAME=VALUE``
(:meth:`Option.parse`), the server's lobby lists them (:meth:`Option.to_json`) and
coerces what a browser sends (:meth:`Option.from_json`).

>>> from dataclasses import dataclass
>>> from typing import Literal
>>> @dataclass(frozen=True)
... class Rules:
...     knock_limit: int = option(10, low=0, high=200, help="most deadwood to knock")
...     tie: Literal["knocker", "defender"] = option("defender", help="who wins a tie")
...     def __post_init__(self) -> None:
...         check_options(self)
>>> [(o.name, o.kind) for o in options_of(Rules)]
[('knock_limit', 'int'), ('tie', 'choice')]
>>> Rules(knock_limit=300)
Traceback (most recent call last):
...
rummykit.errors.InvalidOptionError: knock_limit must be a whole number 0-200, not 300
>>> option_of(Rules, "knock_limit").parse("7"), option_of(Rules, "tie").choices
(7, ('knocker', 'defender'))
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rummykit.errors import InvalidOptionError

__all__ = [
    "Option",
    "check_options",
    "option",
    "option_of",
    "options_of",
    "replace_options",
    "rules_from_mapping",
]

OptionKind = Literal["int", "bool", "choice", "text"]
_META = "rummykit_option"


@dataclass(frozen=True, slots=True)
class _Declared:
    low: int | None
    high: int | None
    choices: tuple[Any, ...] | None
    check: Callable[[Any], str | None] | None
    help: str
    shown: str | None


def option(
    default: Any,
    *,
    low: int | None = None,
    high: int | None = None,
    choices: tuple[Any, ...] | None = None,
    check: Callable[[Any], str | None] | None = None,
    help: str = "",
    shown: str | None = None,
) -> Any:
    """A rules field with its declaration: ``low``/``high`` bound a whole number,
    ``choices`` list the values allowed (by default a ``Literal``'s), ``check`` returns
    a complaint for a value the others cannot describe (``None`` when it is fine), and
    ``shown`` describes such values for people (``"count or flat:N"``)."""
    declared = _Declared(low, high, choices, check, help, shown)
    return dataclasses.field(default=default, metadata={_META: declared})


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option as every layer sees it."""

    name: str
    kind: OptionKind
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()
    """Allowed values of a choice (words and, for some options, numbers)."""
    optional: bool = False
    """``None`` is allowed (it means "decided by the rules", e.g. decks by seats)."""
    help: str = ""
    shown: str | None = None
    check_value: Callable[[Any], str | None] | None = None

    def allowed(self) -> str:
        """The allowed values in words."""
        if self.shown:
            return self.shown
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            words = ", ".join(str(choice) for choice in self.choices)
            if self.low is not None and self.high is not None:
                # A choice of words and numbers (``auto`` or 1-3 decks).
                return f"{words} or a whole number {self.low}-{self.high}"
            return "one of " + words
        if self.kind == "int":
            if self.low is not None and self.high is not None:
                return f"a whole number {self.low}-{self.high}"
            if self.low is not None:
                return f"a whole number of at least {self.low}"
            return "a whole number"
        return "text"

    def check(self, value: Any) -> Any:
        """``value`` if it is allowed, else :class:`InvalidOptionError` naming the range."""
        if value is None and self.optional:
            return value
        ok = True
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice" and self.check_value is None:
            ok = any(value == c and type(value) is type(c) for c in self.choices)
            if not ok and self.low is not None and _is_int(value):
                ok = self.low <= value <= (self.high if self.high is not None else value)
        elif self.kind == "int":
            ok = _is_int(value) and (self.low is None or value >= self.low)
            ok = ok and (self.high is None or value <= self.high)
        elif self.kind == "text":
            ok = isinstance(value, str)
        complaint = None
        if ok and self.check_value is not None:
            complaint = self.check_value(value)
        elif not ok and self.check_value is not None and self.kind == "choice":
            complaint = self.check_value(value)
            ok = complaint is None
        if not ok or complaint is not None:
            because = f" ({complaint})" if complaint else ""
            raise InvalidOptionError(
                f"{self.name} must be {self.allowed()}, not {value!r}{because}", option=self.name
            )
        return value

    def parse(self, text: str) -> Any:
        """A value typed as text (command line ``-o NAME=VALUE``), checked.

        Booleans take true/false/yes/no/on/off/1/0; ``none`` clears an optional value.
        """
        raw = text.strip()
        value: Any = raw
        lowered = raw.lower()
        if self.optional and lowered in ("none", "null", ""):
            return None
        if self.kind == "bool":
            words = {"true": True, "yes": True, "on": True, "1": True}
            words |= {"false": False, "no": False, "off": False, "0": False}
            if lowered not in words:
                raise InvalidOptionError(
                    f"{self.name} takes true or false, not {raw!r}", option=self.name
                )
            value = words[lowered]
        elif self.kind == "int" or (self.kind == "choice" and _digits(raw)):
            if _digits(raw):
                value = int(raw)
            elif self.kind == "int":
                raise InvalidOptionError(
                    f"{self.name} takes a whole number, not {raw!r}", option=self.name
                )
        return self.check(value)

    def from_json(self, value: Any) -> Any:
        """A value as a browser sends it (choices as strings), checked."""
        if self.optional and value == "auto" and "auto" not in self.choices:
            return None
        if isinstance(value, str) and self.kind != "text":
            return self.parse(value)
        return self.check(value)

    def menu(self) -> tuple[str, ...]:
        """Every value a lobby offers, as text: the choices, the numbers of a word-or-
        number option (``auto``, ``1``-``3``), and ``auto`` for an optional number."""
        words = [str(choice) for choice in self.choices]
        if self.kind == "choice" and self.low is not None and self.high is not None:
            words += [str(n) for n in range(self.low, self.high + 1)]
        elif (
            self.kind == "int" and self.optional and self.low is not None and self.high is not None
        ):
            words = ["auto", *(str(n) for n in range(self.low, self.high + 1))]
        return tuple(words)

    def to_json(self) -> dict[str, Any]:
        """The option for a lobby: name, kind, default, range or choices, help.

        An optional number with a small range is offered as a choice (``auto`` for
        ``None``), as is a word-or-number option; their values arrive as text.
        """
        menu = self.menu()
        kind = "choice" if menu else self.kind
        default = self.default
        if kind == "choice":
            default = "auto" if default is None else str(default)
        data: dict[str, Any] = {"name": self.name, "kind": kind, "default": default}
        if menu:
            data["choices"] = list(menu)
        if self.low is not None:
            data["min"] = self.low
        if self.high is not None:
            data["max"] = self.high
        if self.optional:
            data["optional"] = True
        if self.help:
            data["help"] = self.help
        return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _digits(text: str) -> bool:
    return text.lstrip("-").isdigit()


_CACHE: dict[type[Any], tuple[Option, ...]] = {}


def options_of(rules_type: type[Any]) -> tuple[Option, ...]:
    """The options of a rules dataclass, in field order."""
    cached = _CACHE.get(rules_type)
    if cached is None:
        cached = _CACHE[rules_type] = _read_options(rules_type)
    return cached


def _read_options(rules_type: type[Any]) -> tuple[Option, ...]:
    hints = typing.get_type_hints(rules_type)
    found = []
    for item in dataclasses.fields(rules_type):
        declared: _Declared | None = item.metadata.get(_META)
        if declared is None:
            declared = _Declared(None, None, None, None, "", None)
        found.append(_option(item, hints[item.name], declared))
    return tuple(found)


def _option(item: dataclasses.Field[Any], hint: Any, declared: _Declared) -> Option:
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    members = args if origin in (typing.Union, types.UnionType) else ()
    optional = type(None) in members
    literals: list[Any] = []
    plain = [m for m in members if m is not type(None)] or [hint]
    for member in plain:
        if typing.get_origin(member) is Literal:
            literals.extend(typing.get_args(member))
    kind: OptionKind
    if declared.choices is not None or literals:
        kind = "choice"
    elif plain == [bool]:
        kind = "bool"
    elif int in plain:
        kind = "int"
    else:
        kind = "text"
    choices = declared.choices if declared.choices is not None else tuple(literals)
    return Option(
        name=item.name,
        kind=kind,
        default=item.default,
        low=declared.low,
        high=declared.high,
        choices=choices,
        optional=optional,
        help=declared.help,
        shown=declared.shown,
        check_value=declared.check,
    )


def option_of(rules_type: type[Any], name: str) -> Option:
    """One option by name (``-`` may stand for ``_``); unknown names list the known."""
    key = name.strip().replace("-", "_")
    for found in options_of(rules_type):
        if found.name == key:
            return found
    known = ", ".join(o.name for o in options_of(rules_type))
    raise InvalidOptionError(f"unknown option {name!r}; known: {known}", option=name)


def check_options(rules: Any) -> None:
    """Check every option of a rules object (its ``__post_init__`` calls this)."""
    for declared in options_of(type(rules)):
        declared.check(getattr(rules, declared.name))


def rules_from_mapping(rules_type: type[Any], data: Mapping[str, Any]) -> Any:
    """Rules from a mapping of options; unknown names are an error, not dropped."""
    known = {o.name for o in options_of(rules_type)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidOptionError(
            f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}",
            option=unknown[0],
        )
    return rules_type(**dict(data))


def replace_options(rules: Any, changes: Mapping[str, Any]) -> Any:
    """``rules`` with ``changes`` applied (names checked, values checked by the class)."""
    for name in changes:
        option_of(type(rules), name)
    return dataclasses.replace(rules, **dict(changes))
