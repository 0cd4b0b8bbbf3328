"""Rami 40 / Rami 51 (French rummy): rules, the round engine and its scoring.

rules/rami.md. A round is a pure state machine for 2-6 players: :func:`new_round` deals
from a seed (or an explicit card order), :meth:`RamiRound.legal_actions` lists the
finite moves (draws, ``end_play``, discards), :meth:`RamiRound.check` validates the
open-ended ones (an opening with several combinations, a meld, a lay-off, a joker
swap), :meth:`RamiRound.apply` changes the state and returns the events it caused, and
:meth:`RamiRound.observation` is all one seat may know. Illegal actions raise
:class:`~rummykit.core.IllegalActionError` naming the card, the combination and the
rule, and change nothing. The multi-round game is :mod:`rummykit.games.rami.game`.

Several decks are in play, so every card keeps its physical identity (the copy bits of
:class:`~rummykit.cards.Card`): hands, piles and table combinations hold physical cards,
and action records name them (``7H`` for the first deck's, ``7H@1`` for the second's).

>>> rnd = new_round(preset("rami51"), players=4, seed=7)
>>> rnd.phase, rnd.current_player, len(rnd.stock)
('draw', 1, 55)
>>> [str(action) for action in rnd.legal_actions()]
['draw_stock', 'take_discard']
>>> events = rnd.apply(RamiAction.draw_stock())
>>> rnd.phase, [str(action) for action in rnd.legal_actions()]
('play', ['end_play'])
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, make_dataclass
from itertools import islice
from typing import Any, Final, Literal, overload

from rummykit.cards import (
    JOKER_FACE,
    MAX_COPIES,
    Card,
    DeckSpec,
    format_card,
    format_cards,
    make_rng,
    ordered_deck,
    parse_card,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError, rules_from_dict
from rummykit.games.rami.table import (
    JOKER_BIT,
    Combination,
    CombinationError,
    combination_from_cards,
    lay_off,
    pairs_with_joker,
    swap_joker,
)
from rummykit.melds import InvalidMeldError

__all__ = [
    "PRESETS",
    "Combination",
    "EventLog",
    "RamiAction",
    "RamiObservation",
    "RamiRound",
    "RamiRoundResult",
    "RamiRules",
    "card_token",
    "hand_value",
    "new_round",
    "parse_card_token",
    "parse_option",
    "preset",
    "score_round",
]

Phase = Literal["draw", "play", "discard", "over"]
ActionKind = Literal[
    "draw_stock", "take_discard", "open", "meld", "layoff", "swap_joker", "end_play", "discard"
]
_ACTION_KINDS: Final = frozenset(ActionKind.__args__)  # type: ignore[attr-defined]
_SPEC: Final = "rules/rami.md"
_MAX_ID: Final = 512
"""Physical card ids (face and copy bits) are below this."""


# =============================================================================== rules


@dataclass(frozen=True, slots=True, kw_only=True)
class RamiRules:
    """Every option of rules/rami.md (section 8 and the values of sections 1-6).

    The defaults are the reference rules of Rami 51. Options are validated when the
    object is built; :data:`PRESETS` holds the named variants.
    """

    opening_threshold: int = 51
    """Table value an opening must reach: 51 (Rami 51) or 40 (Rami 40)."""
    decks: int | Literal["auto"] = "auto"
    """Standard decks; ``auto``: 2 for 2-4 players, 3 for 5-6."""
    jokers: int | Literal["per_deck"] = 4
    """Jokers in the pack; ``per_deck``: one per deck (the house rule)."""
    hand_size: int = 13
    mandatory_final_discard: bool = False
    """True: the last card must be discarded; plays that empty the hand are illegal."""
    discard_must_be_melded: bool = False
    """True: taking the discard is one action with the play that lays that card."""
    discard_from_second_round: bool = False
    """True: nobody takes the discard in their own first turn."""
    opening_requires_pure_run: bool = False
    """True: an opening includes a run without a joker."""
    play_after_open_same_turn: bool = True
    """False: after opening, the player ends the play phase at once."""
    joker_hand_value: int = 20
    ace_hand_value: int = 11
    unopened_penalty: str = "count"
    """``count`` | ``flat:N`` (e.g. ``flat:100``) | ``double_count``."""
    rami_sec: str = "double"
    """``double`` | ``bonus:N`` (e.g. ``bonus:-50``, the winner's score) | ``off``."""
    rami_sec_exempt_opening: bool = True
    """An opening below the threshold is legal when it goes out in the same turn."""
    end_joker_shifts: bool = True
    """The real card an end joker stands for shifts it to the other end (a lay-off)."""
    winner_bonus: int = 0
    """The score of the player who goes out (some groups use -10)."""
    one_card_must_draw_stock: bool = False
    """True ("à carte"): a player holding a single card must draw from the stock."""
    max_reshuffles: int = 2
    """Refills of the stock from the discard pile per round; one more blocks the round."""
    max_turns: int = 300
    """The round is blocked after this many completed player-turns."""
    blocked_winner_scores_zero: bool = True
    """False: in a blocked round everyone, the lowest hand too, scores their hand."""
    end_mode: Literal["limit", "rounds", "elimination"] = "limit"
    limit: int = 500
    """``limit``: the game ends when a total reaches it; ``elimination``: players at or
    above it are out."""
    rounds: int = 10
    """``rounds``: how many rounds the game lasts."""
    dealer_rotation: Literal["left"] = "left"

    def __post_init__(self) -> None:
        numbers = {
            "opening_threshold": (0, 1000),
            "hand_size": (3, 20),
            "joker_hand_value": (0, 1000),
            "ace_hand_value": (0, 1000),
            "winner_bonus": (-1000, 1000),
            "max_reshuffles": (0, 100),
            "max_turns": (1, 100_000),
            "limit": (1, 1_000_000),
            "rounds": (1, 10_000),
        }
        for name, (low, high) in numbers.items():
            _check_int(name, getattr(self, name), low, high)
        if self.decks != "auto":
            _check_int("decks", self.decks, 1, 3, extra="or auto")
        if self.jokers != "per_deck":
            _check_int("jokers", self.jokers, 0, MAX_COPIES - 1, extra="or per_deck")
        for name in (
            "mandatory_final_discard",
            "discard_must_be_melded",
            "discard_from_second_round",
            "opening_requires_pure_run",
            "play_after_open_same_turn",
            "rami_sec_exempt_opening",
            "end_joker_shifts",
            "one_card_must_draw_stock",
            "blocked_winner_scores_zero",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"rami option {name} must be true or false")
        choices = {
            "end_mode": ("limit", "rounds", "elimination"),
            "dealer_rotation": ("left",),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"rami option {name} must be one of {', '.join(allowed)}, "
                    f"got {getattr(self, name)!r}"
                )
        _parse_unopened(self.unopened_penalty)
        _parse_rami_sec(self.rami_sec)

    # -- derived -------------------------------------------------------------------------

    def deck_spec(self, players: int) -> DeckSpec:
        """The pack for ``players`` (section 1): 108 / 160, or 106 / 159 (house)."""
        if not 2 <= players <= 6:
            raise ValueError(f"rami is played by 2-6 players, not {players}")
        decks = self.decks if self.decks != "auto" else (2 if players <= 4 else 3)
        jokers = decks if self.jokers == "per_deck" else self.jokers
        return DeckSpec(decks=decks, jokers=jokers)

    @property
    def unopened_rule(self) -> tuple[str, int]:
        """(``count`` | ``flat`` | ``double_count``, flat amount)."""
        return _parse_unopened(self.unopened_penalty)

    @property
    def rami_sec_rule(self) -> tuple[str, int]:
        """(``double`` | ``bonus`` | ``off``, bonus amount)."""
        return _parse_rami_sec(self.rami_sec)

    def hand_values(self) -> tuple[int, ...]:
        """Penalty of a card left in hand, indexed by card id (section 2, hand column)."""
        return _hand_value_table(self.joker_hand_value, self.ace_hand_value)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready options."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RamiRules:
        """Options from a dict; unknown names are an error, not silently dropped."""
        return rules_from_dict(cls, data, "rami")


def _check_int(name: str, value: object, low: int, high: int, extra: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"rami option {name} must be an integer {low}-{high}"
            + (f" {extra}" if extra else "")
            + f", got {value!r}"
        )


def _parse_amount(text: str, name: str, prefix: str) -> int:
    try:
        return int(text[len(prefix) :])
    except ValueError:
        raise ValueError(f"rami option {name}: {text!r} needs a number, e.g. {prefix}100") from None


def _parse_unopened(text: object) -> tuple[str, int]:
    if text in ("count", "double_count"):
        return str(text), 0
    if isinstance(text, str) and text.startswith("flat:"):
        amount = _parse_amount(text, "unopened_penalty", "flat:")
        if amount < 0:
            raise ValueError("rami option unopened_penalty: a flat penalty cannot be negative")
        return "flat", amount
    raise ValueError(
        f"rami option unopened_penalty must be count, flat:N or double_count, got {text!r}"
    )


def _parse_rami_sec(text: object) -> tuple[str, int]:
    if text in ("double", "off"):
        return str(text), 0
    if isinstance(text, str) and text.startswith("bonus:"):
        return "bonus", _parse_amount(text, "rami_sec", "bonus:")
    raise ValueError(f"rami option rami_sec must be double, bonus:N or off, got {text!r}")


_VALUE_TABLES: dict[tuple[int, int], tuple[int, ...]] = {}


def _hand_value_table(joker_value: int, ace_value: int) -> tuple[int, ...]:
    key = (joker_value, ace_value)
    table = _VALUE_TABLES.get(key)
    if table is None:
        values = []
        for card in range(_MAX_ID):
            face = card & 63
            if face == JOKER_FACE:
                values.append(joker_value)
            elif face > JOKER_FACE:
                values.append(0)
            else:
                rank = face % 13 + 1
                values.append(ace_value if rank == 1 else min(rank, 10))
        table = _VALUE_TABLES[key] = tuple(values)
    return table


def hand_value(cards: Iterable[int], rules: RamiRules | None = None) -> int:
    """Penalty of cards left in hand (section 2): pips, courts 10, ace 11, joker 20.

    >>> from rummykit.cards import parse_cards
    >>> hand_value(parse_cards("7C KD AS JK"))
    48
    """
    table = (rules or RamiRules()).hand_values()
    return sum(table[card & 0x1FF] for card in cards)


def parse_option(text: str) -> tuple[str, Any]:
    """A command-line option ``NAME=VALUE`` as a typed rami option.

    Booleans take true/false (yes/no, 1/0); numbers are integers; ``decks`` also takes
    ``auto`` and ``jokers`` ``per_deck``; the scoring options keep their text.

    >>> parse_option("unopened_penalty=flat:100"), parse_option("jokers=per_deck")
    (('unopened_penalty', 'flat:100'), ('jokers', 'per_deck'))
    >>> parse_option("max-turns=200"), parse_option("end_joker_shifts=false")
    (('max_turns', 200), ('end_joker_shifts', False))
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    raw = raw.strip()
    known = {f.name for f in fields(RamiRules)}
    if not sep or name not in known:
        raise ValueError(
            f"a rami option is NAME=VALUE with NAME one of: {', '.join(sorted(known))}"
        )
    default = getattr(_REFERENCE, name)
    if isinstance(default, bool):
        lowered = raw.lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"rami option {name} takes true or false, not {raw!r}")
        return name, lowered in ("true", "yes", "1")
    if name in ("decks", "jokers"):
        return name, int(raw) if raw.lstrip("-").isdigit() else raw
    if isinstance(default, int):
        try:
            return name, int(raw)
        except ValueError:
            raise ValueError(f"rami option {name} takes a whole number, not {raw!r}") from None
    return name, raw


_REFERENCE: Final = RamiRules()
PRESETS: Final[Mapping[str, RamiRules]] = {
    "rami51": _REFERENCE,
    "rami40": RamiRules(opening_threshold=40),
    "rami51-house": RamiRules(jokers="per_deck", unopened_penalty="flat:100"),
    "rami40-house": RamiRules(opening_threshold=40, jokers="per_deck", unopened_penalty="flat:100"),
}
"""The named variants: reference rules, and the house rules of sections 1 and 5 (one
joker per deck, a flat 100 for a player who never opened)."""


def preset(name: str) -> RamiRules:
    """The rules of a named variant (``rami51``, ``rami40``, ``rami51-house``, ...)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown rami preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None


# ================================================================ card tokens, actions


def card_token(card: int) -> str:
    """Notation of one physical card: ``7H`` (first deck), ``7H@1``, ``JK@2``.

    >>> card_token(parse_card_token("7H@1")), card_token(parse_card_token("JK"))
    ('7H@1', 'JK')
    """
    card = Card(card).physical
    copy = card.copy
    text = format_card(card)
    return text if copy == 0 else f"{text}@{copy}"


def parse_card_token(token: str) -> Card:
    """Inverse of :func:`card_token` (case-insensitive; ``T``/``10``; no ``@``: copy 0)."""
    base, sep, copy_text = token.strip().partition("@")
    try:
        card = parse_card(base)
    except ValueError as error:
        raise InvalidActionError(str(error)) from error
    if card.declared is not None:
        raise InvalidActionError(f"{token!r}: name a physical card, not a declared joker")
    copy = 0
    if sep:
        if not copy_text.isdigit() or not 0 <= int(copy_text) < MAX_COPIES:
            raise InvalidActionError(
                f"bad card token {token!r}: the copy after @ is 0-{MAX_COPIES - 1}"
            )
        copy = int(copy_text)
    return Card((card & 63) | (copy << 6))


def _card_arg(card: int | str) -> Card:
    if isinstance(card, str):
        return parse_card_token(card)
    card = int(card)
    if not 0 <= card < _MAX_ID or (card & 63) > JOKER_FACE:
        raise InvalidActionError(f"{card} is not a rami card id")
    return Card(card)


def _cards_arg(cards: Iterable[int | str] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return tuple(_card_arg(card) for card in cards)


Combos = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class RamiAction:
    """One move. Build with the class methods: ``RamiAction.layoff("9S", 2)`` etc.

    ``combos`` carries an opening's combinations (one for a meld); ``target`` the table
    index of a lay-off or swap; ``joker_target``/``joker_cards`` where a swapped joker
    goes (a lay-off onto that combination, or a new combination with those hand cards);
    ``then`` the play bundled with ``take_discard`` (option ``discard_must_be_melded``).
    """

    kind: ActionKind
    card: Card | None = None
    combos: Combos | None = None
    target: int | None = None
    joker_target: int | None = None
    joker_cards: tuple[Card, ...] | None = None
    then: RamiAction | None = None

    @classmethod
    def draw_stock(cls) -> RamiAction:
        return _DRAW_STOCK

    @classmethod
    def take_discard(cls, then: RamiAction | None = None) -> RamiAction:
        """Take the discard pile's top card; ``then``: the play that lays it."""
        if then is None:
            return _TAKE_DISCARD
        if then.kind not in ("open", "meld", "layoff"):
            raise InvalidActionError(
                f"the play bundled with take_discard is an open, meld or layoff, not {then.kind}"
            )
        return cls("take_discard", then=then)

    @classmethod
    def open(cls, combos: Iterable[Iterable[int | str] | str]) -> RamiAction:
        """Open with one or several combinations of hand cards."""
        built = tuple(_cards_arg(combo) for combo in combos)
        if not built:
            raise InvalidActionError("an opening lays at least one combination")
        return cls("open", combos=built)

    @classmethod
    def meld(cls, cards: Iterable[int | str] | str) -> RamiAction:
        """Lay one new combination (after opening)."""
        return cls("meld", combos=(_cards_arg(cards),))

    @classmethod
    def layoff(cls, card: int | str, target: int) -> RamiAction:
        """Lay ``card`` off onto table combination ``target`` (any player's)."""
        return cls("layoff", _card_arg(card), target=int(target))

    @classmethod
    def swap_joker(
        cls,
        card: int | str,
        target: int,
        *,
        joker_target: int | None = None,
        joker_cards: Iterable[int | str] | str | None = None,
    ) -> RamiAction:
        """Give ``card`` for the joker of combination ``target``; the joker goes onto
        ``joker_target`` or into a new combination with ``joker_cards`` (or stays in
        hand when it has no legal placement)."""
        if joker_target is not None and joker_cards is not None:
            raise InvalidActionError("a swapped joker goes to one place: a target or new cards")
        return cls(
            "swap_joker",
            _card_arg(card),
            target=int(target),
            joker_target=None if joker_target is None else int(joker_target),
            joker_cards=None if joker_cards is None else _cards_arg(joker_cards),
        )

    @classmethod
    def end_play(cls) -> RamiAction:
        return _END_PLAY

    @classmethod
    def discard(cls, card: int | str) -> RamiAction:
        card_id = _card_arg(card)
        return _DISCARDS[card_id]

    def __str__(self) -> str:
        text: str = self.kind
        if self.card is not None:
            text += " " + card_token(self.card)
        if self.combos is not None:
            text += " " + " | ".join(" ".join(map(card_token, combo)) for combo in self.combos)
        if self.target is not None:
            text += f" to {self.target}"
        if self.joker_target is not None:
            text += f", joker to {self.joker_target}"
        if self.joker_cards is not None:
            text += ", joker with " + " ".join(map(card_token, self.joker_cards))
        if self.then is not None:
            text += " + " + str(self.then)
        return text

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form, cards as physical tokens: ``{"kind": "discard", "card": "7H@1"}``."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            data["card"] = card_token(self.card)
        if self.combos is not None:
            data["combos"] = [" ".join(map(card_token, combo)) for combo in self.combos]
        if self.target is not None:
            data["target"] = self.target
        if self.joker_target is not None:
            data["joker_target"] = self.joker_target
        if self.joker_cards is not None:
            data["joker_cards"] = " ".join(map(card_token, self.joker_cards))
        if self.then is not None:
            data["then"] = self.then.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RamiAction:
        """Inverse of :meth:`to_json`; raises :class:`InvalidActionError` on bad input."""
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action is a JSON object, got {data!r}")
        kind = data.get("kind")
        if kind not in _ACTION_KINDS:
            raise InvalidActionError(
                f"unknown rami action kind {kind!r}; "
                f"expected one of {', '.join(sorted(_ACTION_KINDS))}"
            )
        try:
            if kind == "draw_stock":
                return _DRAW_STOCK
            if kind == "end_play":
                return _END_PLAY
            if kind == "take_discard":
                then = data.get("then")
                return cls.take_discard(None if then is None else cls.from_json(then))
            if kind == "discard":
                return cls.discard(data["card"])
            if kind == "open":
                return cls.open(data["combos"])
            if kind == "meld":
                combos = data["combos"]
                if len(combos) != 1:
                    raise InvalidActionError("a meld lays exactly one combination")
                return cls.meld(combos[0])
            if kind == "layoff":
                return cls.layoff(data["card"], int(data["target"]))
            return cls.swap_joker(
                data["card"],
                int(data["target"]),
                joker_target=data.get("joker_target"),
                joker_cards=data.get("joker_cards"),
            )
        except InvalidActionError:
            raise
        except (KeyError, ValueError, TypeError) as error:
            raise InvalidActionError(f"malformed {kind} action: {error!r}") from error


_DRAW_STOCK: Final = RamiAction("draw_stock")
_TAKE_DISCARD: Final = RamiAction("take_discard")
_END_PLAY: Final = RamiAction("end_play")
_DISCARDS: Final = tuple(RamiAction("discard", Card(card)) for card in range(_MAX_ID))


# The events of the frequent actions (a stock draw, a take, a discard) depend only on
# the kind, the seat and the card. Events are immutable, so each is built once, when it
# first happens, and shared: building one cost as much as the rest of a discard.
_CARD_EVENTS: Final[dict[str, dict[int, Event]]] = {
    "draw_stock": {},
    "take_discard": {},
    "discard": {},
}
"""Per kind, the shared events by ``seat * _MAX_ID + card``."""
_HIDDEN_DRAWS: Final = tuple(Event("draw_stock", seat, None, seat) for seat in range(6))
"""Per seat, its stock draw as the others see it (``Event.seen_by``: the card blanked)."""


def _card_event(kind: str, seat: int, card: Card) -> Event:
    """The shared event of ``kind`` (``draw_stock`` is private to the drawing seat)."""
    events = _CARD_EVENTS[kind]
    event = events.get(seat * _MAX_ID + card)
    if event is None:
        private = seat if kind == "draw_stock" else None
        event = events[seat * _MAX_ID + card] = Event(kind, seat, card, visible_to=private)
    return event


# ============================================================== results and scoring


@dataclass(frozen=True, slots=True)
class RamiRoundResult:
    """How a round ended, with every hand revealed and the penalties (low is good)."""

    outcome: Literal["out", "blocked"]
    winners: tuple[int, ...]
    """The player who went out, or the lowest hand(s) of a blocked round."""
    penalties: tuple[int, ...]
    """Per seat, this round's score (section 5)."""
    hand_values: tuple[int, ...]
    """Per seat, the raw penalty of the cards left in hand."""
    opened: tuple[bool, ...]
    hands: tuple[tuple[Card, ...], ...]
    rami_sec: bool = False
    blocked_reason: Literal["stock", "turns"] | None = None

    @property
    def winner(self) -> int | None:
        """The player who went out (``None`` for a blocked round)."""
        return self.winners[0] if self.outcome == "out" else None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, cards as physical tokens."""
        return {
            "outcome": self.outcome,
            "winners": list(self.winners),
            "penalties": list(self.penalties),
            "hand_values": list(self.hand_values),
            "opened": list(self.opened),
            "hands": [" ".join(map(card_token, hand)) for hand in self.hands],
            "rami_sec": self.rami_sec,
            "blocked_reason": self.blocked_reason,
        }


def score_round(
    rules: RamiRules,
    hands: Sequence[Iterable[int]],
    opened: Sequence[bool],
    *,
    winner: int | None,
    rami_sec: bool = False,
    active: Sequence[int] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Penalties of a finished round (section 5): ``(penalties, hand values, winners)``.

    ``winner`` is the player who went out, or ``None`` for a blocked round, where the
    lowest hand(s) win. Seats not in ``active`` score 0.

    >>> from rummykit.cards import parse_cards
    >>> hands = [[], parse_cards("7C KD AS JK"), parse_cards("KS QS 9D 9C 5H 2C"),
    ...          parse_cards("2H 3H")]
    >>> score_round(RamiRules(), hands, [True, True, False, True], winner=0)[0]
    (0, 48, 45, 5)
    """
    table = rules.hand_values()
    seats = range(len(hands)) if active is None else active
    raw = [0] * len(hands)
    for seat in seats:
        raw[seat] = sum(table[card & 0x1FF] for card in hands[seat])
    unopened, flat = rules.unopened_rule

    def base(seat: int) -> int:
        if opened[seat] or unopened == "count":
            return raw[seat]
        return flat if unopened == "flat" else 2 * raw[seat]

    penalties = [0] * len(hands)
    if winner is not None:
        sec_rule, bonus = rules.rami_sec_rule
        for seat in seats:
            if seat == winner:
                penalties[seat] = rules.winner_bonus + (
                    bonus if rami_sec and sec_rule == "bonus" else 0
                )
            else:
                penalty = base(seat)
                penalties[seat] = 2 * penalty if rami_sec and sec_rule == "double" else penalty
        winners: tuple[int, ...] = (winner,)
    else:
        low = min(raw[seat] for seat in seats)
        winners = tuple(seat for seat in seats if raw[seat] == low)
        for seat in seats:
            zero = seat in winners and rules.blocked_winner_scores_zero
            penalties[seat] = 0 if zero else base(seat)
    return tuple(penalties), tuple(raw), winners


# ================================================================== the observation


class EventLog(Sequence[Event]):
    """An immutable view of the first events of one seat's history.

    The engine keeps, per seat, an append-only list of the events that seat may see
    (stock draws of others masked); each observation holds a view of its first
    ``len(view)`` events, so observations share it instead of copying it.
    """

    __slots__ = ("_events", "_length")

    def __init__(self, events: Sequence[Event], length: int | None = None) -> None:
        self._events = events
        self._length = len(events) if length is None else length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[: self._length])[index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("event index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | tuple | list):
            return len(other) == self._length and all(
                a == b for a, b in zip(self, other, strict=False)
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


@dataclass(frozen=True, slots=True)
class RamiObservation:
    """What one seat may know: never another hand, never the stock order."""

    seat: int
    phase: Phase
    current_player: int
    dealer: int
    players: int
    active: tuple[int, ...]
    """The seats playing this round (all, unless some were eliminated)."""
    hand: tuple[Card, ...]
    """Own cards, sorted by face."""
    table: tuple[Combination, ...]
    """Every combination on the table, numbered by position, each with its owner."""
    discard_pile: tuple[Card, ...]
    """Bottom to top; every card in it was seen face up."""
    stock_size: int
    hand_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat, cards it took from the discard pile and still holds (public)."""
    taken_card: Card | None
    """The card this seat took from the discard pile this turn (it may not be discarded)."""
    opened_this_turn: bool
    turn: int
    """Completed player-turns this round."""
    refills: int
    """Times the stock was refilled from the discard pile this round."""
    rules: RamiRules
    history: Sequence[Event]
    """The events this seat may see, oldest first (others' stock draws masked)."""
    result: RamiRoundResult | None
    scores: tuple[int, ...] = ()
    """Game totals before this round (filled in by a game)."""
    round_number: int = 1

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None


# A frozen dataclass sets each of its 22 fields through ``object.__setattr__``, which
# made building an observation cost as much as applying an action. The engine builds
# them through a mutable twin with the very same slots (plain assignments) and then
# gives the finished object its real, frozen class: the layouts are identical, so the
# switch is allowed, and the result is an ordinary frozen RamiObservation.
_ObservationBuilder: Final = make_dataclass(
    "_ObservationBuilder", [field.name for field in fields(RamiObservation)], slots=True
)


# ======================================================================= the round

_SORT_KEY: Final = tuple(((card & 63) << 3) | ((card >> 6) & 7) for card in range(_MAX_ID))
_sort_key = _SORT_KEY.__getitem__


class RamiRound:
    """One round of Rami for 2-6 players. Build with :func:`new_round`."""

    __slots__ = (
        "_discards",
        "_private",
        "_public",
        "_seen",
        "_sorted",
        "actions",
        "active",
        "current_player",
        "dealer",
        "deck",
        "discard_pile",
        "first_laid_turn",
        "hands",
        "history",
        "known",
        "next_seat",
        "opened",
        "opened_this_turn",
        "phase",
        "players",
        "refill_seed",
        "refills",
        "result",
        "rules",
        "seed",
        "stock",
        "table",
        "taken_card",
        "turn",
        "turns_played",
    )

    rules: RamiRules
    players: int
    active: tuple[int, ...]
    next_seat: tuple[int, ...]
    dealer: int
    current_player: int
    phase: Phase
    hands: list[list[Card]]
    table: list[Combination]
    stock: list[Card]
    discard_pile: list[Card]
    opened: list[bool]
    opened_this_turn: bool
    known: list[list[Card]]
    taken_card: Card | None
    first_laid_turn: list[int]
    turn: int
    turns_played: list[int]
    refills: int
    refill_seed: int
    result: RamiRoundResult | None
    history: list[Event]
    actions: list[RamiAction]
    seed: int | None
    deck: tuple[Card, ...]
    _seen: list[list[Event]]
    _sorted: list[tuple[tuple[Card, ...], tuple[Card, ...]]]
    _discards: tuple[tuple[Card, ...], tuple[RamiAction, ...]]
    _public: list[Event]
    _private: list[list[int]]

    # -- public state ------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the round is scored (someone went out, or it was blocked)."""
        return self.phase == "over"

    @property
    def starting_player(self) -> int:
        """The player left of the dealer, who plays first."""
        return self.next_seat[self.dealer]

    @property
    def upcard(self) -> Card | None:
        """Top card of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted (engine-side; players see them via observation)."""
        return list(self._sorted_hand(seat))

    def _sorted_hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's hand sorted by face, remembered with the hand it was sorted from:
        a hand is observed and listed several times between two changes, and comparing
        it with the remembered one costs a fraction of sorting it again (a comparison,
        not a flag set by the engine, so a hand edited from outside is never missed)."""
        raw = tuple(self.hands[seat])
        known, ordered = self._sorted[seat]
        if raw != known:
            ordered = tuple(sorted(raw, key=_sort_key))
            self._sorted[seat] = (raw, ordered)
        return ordered

    def all_cards(self) -> list[Card]:
        """Every physical card of the round wherever it is (hands, table, piles)."""
        cards = [card for hand in self.hands for card in hand]
        cards.extend(card.physical for combo in self.table for card in combo.cards)
        cards.extend(self.stock)
        cards.extend(self.discard_pile)
        return cards

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[RamiAction]:
        """The finite legal actions of the player to act (empty when the round is over).

        Draws, ``end_play`` and discards are listed (and, when the only card left is the
        one just taken from the discard pile, the ways to lay it). Openings, melds,
        lay-offs and joker swaps are open-ended: :meth:`check` validates them, and
        :mod:`rummykit.games.rami.opening` / :mod:`rummykit.games.rami.layoffs`
        propose them. With ``discard_must_be_melded`` taking the discard is always
        bundled with a play, so it is not listed either.
        """
        phase = self.phase
        if phase == "draw":
            rules = self.rules
            if self.discard_pile and not (
                rules.discard_must_be_melded
                or rules.discard_from_second_round
                or rules.one_card_must_draw_stock
            ):
                return [_DRAW_STOCK, _TAKE_DISCARD]  # the common case, without the checks
            if self._take_discard_error(self.current_player) is None and not (
                rules.discard_must_be_melded
            ):
                return [_DRAW_STOCK, _TAKE_DISCARD]
            return [_DRAW_STOCK]
        if phase == "play":
            hand = self.hands[self.current_player]
            if len(hand) == 1 and hand[0] == self.taken_card:
                return self._last_card_plays(hand[0])
            return [_END_PLAY]
        if phase == "discard":
            ordered = self._sorted_hand(self.current_player)
            made_from, discards = self._discards
            if made_from is not ordered:  # the discards of the same sorted hand, kept
                discards = tuple([_DISCARDS[card] for card in ordered])
                self._discards = (ordered, discards)
            taken = self.taken_card
            if taken is None:
                return list(discards)
            return [action for action in discards if action.card != taken]
        return []

    def _last_card_plays(self, card: Card) -> list[RamiAction]:
        """The ways to lay the one card left, the card just taken from the discard pile
        (``end_play`` is refused then): its lay-offs, and its joker swaps, each with the
        first place the freed joker can go."""
        face = card & 63
        shifts = self.rules.end_joker_shifts
        plays: list[RamiAction] = []
        for index, combo in enumerate(self.table):
            if combo.accepts >> face & 1 or combo.shift_face == face:
                plays.append(RamiAction("layoff", card, target=index))
            elif combo.swap_face == face:
                after = self.table.copy()
                after[index] = swap_joker(combo, card, shifts=shifts)[0]
                target = next(
                    (i for i, other in enumerate(after) if other.accepts & JOKER_BIT), None
                )
                plays.append(RamiAction("swap_joker", card, target=index, joker_target=target))
        return plays

    def check(self, action: RamiAction) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now; else nothing."""
        self.clone().apply(action)

    def is_legal(self, action: RamiAction) -> bool:
        """True when ``action`` may be applied now."""
        try:
            self.check(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    # -- applying actions ----------------------------------------------------------------

    def apply(self, action: RamiAction) -> list[Event]:
        """Apply ``action`` for the player to act; return the events it caused.

        Raises:
            IllegalActionError: the action is not legal now (the state is unchanged).
            InvalidActionError: the action is malformed.
        """
        if type(action) is not RamiAction:
            raise InvalidActionError(f"not a rami action: {action!r}")
        seat = self.current_player
        kind = action.kind
        phase = self.phase
        if action is _END_PLAY and phase == "play":
            # The most frequent play: no event, nothing to record but the action.
            self._end_play(seat)
            self.actions.append(action)
            return []
        if phase == "draw":
            if kind == "draw_stock":
                events = self._draw_stock(seat)
            elif kind == "take_discard":
                events, action = self._take_discard(seat, action)
            else:
                raise self._wrong_phase(action, "draw from the stock or take the discard")
        elif phase == "discard":
            if kind != "discard":
                raise self._wrong_phase(action, "discard a card")
            events, action = self._discard(seat, action)
        elif phase == "play":
            events, action = self._play(seat, action)
        else:
            raise IllegalActionError(
                f"the round is over; {action} is not possible", code="round_over", seat=seat
            )
        self.actions.append(action)
        self.history.extend(events)
        public = self._public
        for event in events:
            seat_only = event.visible_to
            if seat_only is None:
                public.append(event)
            else:
                self._private[seat_only].append(len(public))
                public.append(
                    _HIDDEN_DRAWS[seat_only]
                    if event.kind == "draw_stock" and event.seat == seat_only
                    else event.seen_by(None)
                )
        return events

    def _wrong_phase(self, action: RamiAction, expected: str) -> IllegalActionError:
        seat = self.current_player
        return IllegalActionError(
            f"seat {seat} cannot {action.kind.replace('_', ' ')} now: in the {self.phase} "
            f"phase the player must {expected} ({_SPEC} section 4)",
            code="wrong_phase",
            seat=seat,
            card=action.card,
            rule=f"{_SPEC} section 4",
        )

    # -- draw ----------------------------------------------------------------------------

    def _draw_stock(self, seat: int) -> list[Event]:
        if not self.stock:  # only a hand-made position can get here (refills run first)
            raise IllegalActionError(
                f"seat {seat} cannot draw: the stock is empty ({_SPEC} section 4)",
                code="stock_empty",
                seat=seat,
                rule=f"{_SPEC} section 4",
            )
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.taken_card = None
        self.phase = "play"
        return [_card_event("draw_stock", seat, card)]

    def _take_discard_error(self, seat: int) -> IllegalActionError | None:
        rules = self.rules
        top = self.discard_pile[-1] if self.discard_pile else None
        if top is None:
            return IllegalActionError(
                f"seat {seat} cannot take the discard: the pile is empty ({_SPEC} section 4)",
                code="discard_pile_empty",
                seat=seat,
                rule=f"{_SPEC} section 4",
            )
        if rules.discard_from_second_round and self.turns_played[seat] == 0:
            return IllegalActionError(
                f"seat {seat} cannot take {format_card(top)} from the discard pile in their "
                "first turn (discard_from_second_round)",
                code="discard_in_first_turn",
                seat=seat,
                card=top,
                rule="discard_from_second_round",
            )
        if rules.one_card_must_draw_stock and len(self.hands[seat]) == 1:
            return IllegalActionError(
                f"seat {seat} holds one card and must draw from the stock, not take "
                f"{format_card(top)} (one_card_must_draw_stock)",
                code="one_card_draws_stock",
                seat=seat,
                card=top,
                rule="one_card_must_draw_stock",
            )
        return None

    def _take_discard(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        error = self._take_discard_error(seat)
        if error is not None:
            raise error
        then = action.then
        rules = self.rules
        card = self.discard_pile[-1]
        if then is None and rules.discard_must_be_melded:
            raise IllegalActionError(
                f"seat {seat} cannot simply take {format_card(card)}: the card taken from the "
                "discard pile must be laid in the same action, by an opening, a combination "
                "or a lay-off (discard_must_be_melded)",
                code="discard_must_be_melded",
                seat=seat,
                card=card,
                rule="discard_must_be_melded",
            )
        self.discard_pile.pop()
        hand = self.hands[seat]
        hand.append(card)
        self.known[seat].append(card)
        self.taken_card = card
        self.phase = "play"
        events = [_card_event("take_discard", seat, card)]
        if then is None:
            return events, action
        try:
            if then.kind not in ("open", "meld", "layoff"):
                raise InvalidActionError(
                    "the play bundled with take_discard is an open, meld or layoff, "
                    f"not {then.kind}"
                )
            if rules.discard_must_be_melded:
                then = self._require_lays(seat, then, card)
            more, then = self._play(seat, then)
        except (IllegalActionError, InvalidActionError):
            hand.remove(card)
            self.known[seat].remove(card)
            self.discard_pile.append(card)
            self.taken_card = None
            self.phase = "draw"
            raise
        events.extend(more)
        return events, RamiAction("take_discard", then=then)

    def _require_lays(self, seat: int, then: RamiAction, card: Card) -> RamiAction:
        """``then`` with the physical taken card in place of the first card of its face;
        raise when it does not lay that face at all."""
        face = card & 63
        if then.kind == "layoff" and then.card is not None and then.card & 63 == face:
            return RamiAction("layoff", card, target=then.target)
        if then.kind in ("open", "meld"):
            combos = [list(combo) for combo in then.combos or ()]
            for combo in combos:
                for index, named in enumerate(combo):
                    if named & 63 == face:
                        combo[index] = card
                        return RamiAction(then.kind, combos=tuple(tuple(c) for c in combos))
        raise IllegalActionError(
            f"seat {seat} must lay {format_card(card)}, the card taken from the discard "
            f"pile, in the play bundled with the take (discard_must_be_melded)",
            code="discard_must_be_melded",
            seat=seat,
            card=card,
            rule="discard_must_be_melded",
        )

    # -- play ----------------------------------------------------------------------------

    def _play(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        kind = action.kind
        if kind == "end_play":
            return self._end_play(seat), action
        if kind == "open":
            return self._open(seat, action)
        if kind not in ("meld", "layoff", "swap_joker"):
            raise self._wrong_phase(
                action, "open, meld, lay off, swap a joker or end the play phase"
            )
        verb = {"meld": "meld", "layoff": "lay off", "swap_joker": "swap a joker"}[kind]
        if not self.opened[seat]:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} before opening: lay-offs, melds and joker swaps "
                f"come after the opening ({_SPEC} section 4)",
                code="not_opened",
                seat=seat,
                card=action.card,
                rule=f"{_SPEC} section 4",
            )
        if self.opened_this_turn and not self.rules.play_after_open_same_turn:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} in the turn they opened "
                "(play_after_open_same_turn=false)",
                code="play_after_open",
                seat=seat,
                card=action.card,
                rule="play_after_open_same_turn",
            )
        if kind == "meld":
            return self._meld(seat, action)
        if kind == "layoff":
            return self._layoff(seat, action)
        return self._swap(seat, action)

    def _resolve(self, seat: int, cards: Sequence[Card], verb: str) -> list[Card]:
        """Map named cards to distinct physical cards of the hand (the exact copy when
        held, else another copy of the same face)."""
        hand = self.hands[seat]
        chosen: list[Card] = []
        for card in cards:
            if card in hand and card not in chosen:
                chosen.append(card)
                continue
            face = card & 63
            match = None
            for held in sorted(hand, key=_sort_key):
                if held & 63 == face and held not in chosen:
                    match = held
                    break
            if match is None:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb} {format_card(card)}: "
                    + (
                        "it is named twice"
                        if any(c & 63 == face for c in chosen)
                        else "it is not in the hand"
                    ),
                    code="card_not_in_hand",
                    seat=seat,
                    card=card,
                    rule="cards in hand",
                )
            chosen.append(match)
        return chosen

    def _build(self, seat: int, cards: Sequence[Card], verb: str) -> Combination:
        try:
            return combination_from_cards(cards, seat, shifts=self.rules.end_joker_shifts)
        except InvalidMeldError as error:
            raise IllegalActionError(
                f"seat {seat} cannot {verb}: {error} ({_SPEC} section 3)",
                code="invalid_combination",
                seat=seat,
                card=cards[0] if cards else None,
                rule=f"{_SPEC} section 3",
            ) from None

    def _check_remaining(
        self, seat: int, remaining: Sequence[Card], table: Sequence[Combination], verb: str
    ) -> None:
        """A play may not empty the hand under ``mandatory_final_discard``, and may not
        leave only the card taken from the discard pile when it cannot be laid too."""
        rules = self.rules
        if not remaining:
            if rules.mandatory_final_discard:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb}: it would empty the hand, and the last card "
                    "must be discarded (mandatory_final_discard)",
                    code="final_discard_required",
                    seat=seat,
                    rule="mandatory_final_discard",
                )
            return
        taken = self.taken_card
        if len(remaining) == 1 and remaining[0] == taken:
            layable = not rules.mandatory_final_discard and any(
                combo.accepts >> (taken & 63) & 1
                or taken & 63 in (combo.shift_face, combo.swap_face)
                for combo in table
            )
            if not layable:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb}: only {format_card(taken)}, the card just "
                    "taken from the discard pile, would be left; it may not be discarded "
                    f"this turn and cannot be laid off or swapped in ({_SPEC} section 4)",
                    code="taken_card_stranded",
                    seat=seat,
                    card=taken,
                    rule=f"{_SPEC} section 4",
                )

    def _open(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        rules = self.rules
        if self.opened[seat]:
            raise IllegalActionError(
                f"seat {seat} has already opened; lay new combinations with meld",
                code="already_opened",
                seat=seat,
                rule=f"{_SPEC} section 4",
            )
        combos_in = action.combos or ()
        if not combos_in:
            raise InvalidActionError("an opening lays at least one combination")
        flat = [card for combo in combos_in for card in combo]
        chosen = self._resolve(seat, flat, "open with")
        combos: list[Combination] = []
        resolved: list[tuple[Card, ...]] = []
        start = 0
        for combo in combos_in:
            cards = chosen[start : start + len(combo)]
            start += len(combo)
            combos.append(self._build(seat, cards, "open with " + format_cards(cards)))
            resolved.append(tuple(cards))
        total = sum(combo.value for combo in combos)
        remaining = list(self.hands[seat])
        for card in chosen:
            remaining.remove(card)
        threshold = rules.opening_threshold
        exempt = False
        if total < threshold:
            goes_out = (not remaining and not rules.mandatory_final_discard) or (
                len(remaining) == 1 and remaining[0] != self.taken_card
            )
            if not (rules.rami_sec_exempt_opening and goes_out):
                parts = " + ".join(f"{c} ({c.value})" for c in combos)
                raise IllegalActionError(
                    f"seat {seat} cannot open with {parts} = {total}: the opening must reach "
                    f"{threshold} ({_SPEC} section 4"
                    + (
                        "; below it only an opening that goes out this turn is allowed"
                        if rules.rami_sec_exempt_opening
                        else ""
                    )
                    + ")",
                    code="opening_below_threshold",
                    seat=seat,
                    card=chosen[0],
                    rule="opening_threshold",
                )
            exempt = True
        if rules.opening_requires_pure_run and not any(
            combo.kind == "run" and combo.joker < 0 for combo in combos
        ):
            raise IllegalActionError(
                f"seat {seat} cannot open without a run free of jokers (opening_requires_pure_run)",
                code="pure_run_required",
                seat=seat,
                card=chosen[0],
                rule="opening_requires_pure_run",
            )
        new_table = self.table + combos
        self._check_remaining(seat, remaining, new_table, "open this way")
        first = len(self.table)
        self.table = new_table
        self._lay_from_hand(seat, chosen)
        self.opened[seat] = True
        self.opened_this_turn = True
        events = [
            Event(
                "open",
                seat,
                detail={
                    "combos": [str(c) for c in combos],
                    "targets": list(range(first, first + len(combos))),
                    "value": total,
                    "exempt": exempt,
                },
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action if list(flat) == chosen else RamiAction("open", combos=tuple(resolved))
        return events, normalized

    def _lay_from_hand(self, seat: int, cards: Iterable[Card]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for card in cards:
            hand.remove(card)
            if card in known:
                known.remove(card)
        if self.first_laid_turn[seat] < 0:
            self.first_laid_turn[seat] = self.turn

    def _after_play(self, seat: int) -> list[Event]:
        if self.hands[seat]:
            return []
        return self._go_out(seat, discarded=False)

    def _meld(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        combos_in = action.combos or ()
        if len(combos_in) != 1:
            raise InvalidActionError("a meld lays exactly one combination")
        chosen = self._resolve(seat, combos_in[0], "meld")
        combo = self._build(seat, chosen, "meld " + format_cards(chosen))
        remaining = list(self.hands[seat])
        for card in chosen:
            remaining.remove(card)
        new_table = [*self.table, combo]
        self._check_remaining(seat, remaining, new_table, "meld " + format_cards(chosen))
        self.table = new_table
        self._lay_from_hand(seat, chosen)
        events = [Event("meld", seat, detail={"combo": str(combo), "target": len(new_table) - 1})]
        events.extend(self._after_play(seat))
        normalized = action if list(combos_in[0]) == chosen else RamiAction.meld(chosen)
        return events, normalized

    def _target(self, seat: int, index: int | None, card: Card | None, verb: str) -> Combination:
        if index is None or not 0 <= index < len(self.table):
            raise IllegalActionError(
                f"seat {seat} cannot {verb}: there is no combination {index} on the table "
                f"({len(self.table)} combination(s), numbered from 0)",
                code="no_such_combination",
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 4",
            )
        return self.table[index]

    def _layoff(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        if action.card is None:
            raise InvalidActionError("a layoff names a card")
        (card,) = self._resolve(seat, (action.card,), "lay off")
        index = action.target
        combo = self._target(seat, index, card, f"lay off {format_card(card)}")
        assert index is not None
        try:
            new = lay_off(combo, card, shifts=self.rules.end_joker_shifts)
        except CombinationError as error:
            raise IllegalActionError(
                f"seat {seat}: {error} (combination {index}, {combo.describe()} of seat "
                f"{combo.owner})",
                code=error.code,
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 3",
            ) from None
        remaining = list(self.hands[seat])
        remaining.remove(card)
        new_table = self.table.copy()
        new_table[index] = new
        self._check_remaining(seat, remaining, new_table, f"lay off {format_card(card)}")
        self.table = new_table
        self._lay_from_hand(seat, (card,))
        shifted = combo.shift_face == card & 63 and combo.joker >= 0
        events = [
            Event(
                "layoff",
                seat,
                card,
                detail={"target": index, "combo": str(new), "joker_shifted": shifted},
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action if action.card == card else RamiAction("layoff", card, target=index)
        return events, normalized

    def _swap(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        rules = self.rules
        if action.card is None:
            raise InvalidActionError("a joker swap names the real card")
        (card,) = self._resolve(seat, (action.card,), "swap with")
        index = action.target
        combo = self._target(seat, index, card, f"swap {format_card(card)} for a joker")
        assert index is not None
        shifts = rules.end_joker_shifts
        try:
            new, joker = swap_joker(combo, card, shifts=shifts)
        except CombinationError as error:
            raise IllegalActionError(
                f"seat {seat}: {error} (combination {index}, {combo.describe()} of seat "
                f"{combo.owner})",
                code=error.code,
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 4",
            ) from None
        table = self.table.copy()
        table[index] = new
        remaining = list(self.hands[seat])
        remaining.remove(card)
        laid: list[Card] = [card]
        destination = "hand"
        if action.joker_target is not None:
            dest_index = action.joker_target
            dest = (
                table[dest_index]
                if 0 <= dest_index < len(table)
                else self._target(seat, dest_index, joker, "place the joker")
            )
            try:
                table[dest_index] = lay_off(dest, joker, shifts=shifts)
            except CombinationError as error:
                raise IllegalActionError(
                    f"seat {seat} cannot place the swapped joker on combination {dest_index}: "
                    f"{error}",
                    code="joker_placement",
                    seat=seat,
                    card=joker,
                    rule=f"{_SPEC} section 4",
                ) from None
            destination = f"combination {dest_index}"
        elif action.joker_cards is not None:
            others = self._resolve_from(seat, remaining, action.joker_cards, "meld the joker with")
            built = self._build(
                seat, [joker, *others], "meld the swapped joker with " + format_cards(others)
            )
            for other in others:
                remaining.remove(other)
            laid.extend(others)
            table.append(built)
            destination = f"new combination {len(table) - 1}"
        else:
            placement = joker_placement(remaining, table)
            if placement is not None:
                raise IllegalActionError(
                    f"seat {seat} must place the swapped joker again this turn: it can go "
                    f"{placement} ({_SPEC} section 4)",
                    code="joker_must_be_placed",
                    seat=seat,
                    card=joker,
                    rule=f"{_SPEC} section 4",
                )
            remaining.append(joker)
        self._check_remaining(seat, remaining, table, f"swap {format_card(card)}")
        self.table = table
        self._lay_from_hand(seat, laid)
        if destination == "hand":
            self.hands[seat].append(joker)
        events = [
            Event(
                "swap_joker",
                seat,
                card,
                detail={
                    "target": index,
                    "combo": str(new),
                    "joker": card_token(joker),
                    "joker_to": destination,
                },
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action
        if action.card != card or (
            action.joker_cards is not None and list(action.joker_cards) != laid[1:]
        ):
            normalized = RamiAction(
                "swap_joker",
                card,
                target=index,
                joker_target=action.joker_target,
                joker_cards=None if action.joker_cards is None else tuple(laid[1:]),
            )
        return events, normalized

    def _resolve_from(
        self, seat: int, pool: Sequence[Card], cards: Sequence[Card], verb: str
    ) -> list[Card]:
        saved = self.hands[seat]
        self.hands[seat] = list(pool)
        try:
            return self._resolve(seat, cards, verb)
        finally:
            self.hands[seat] = saved

    def _end_play(self, seat: int) -> list[Event]:
        hand = self.hands[seat]
        if len(hand) == 1 and hand[0] == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot end the play phase holding only {format_card(hand[0])}, "
                f"the card just taken from the discard pile: it may not be discarded this turn; "
                f"lay it to go out ({_SPEC} section 4)",
                code="taken_card_stranded",
                seat=seat,
                card=hand[0],
                rule=f"{_SPEC} section 4",
            )
        self.phase = "discard"
        return []

    # -- discard and the end of a turn -------------------------------------------------

    def _discard(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        card = action.card
        hand = self.hands[seat]
        if card is None:
            raise InvalidActionError("a discard names a card")
        try:
            index = hand.index(card)
        except ValueError:
            (card,) = self._resolve(seat, (card,), "discard")
            action = _DISCARDS[card]
            index = hand.index(card)
        if card == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot discard {format_card(card)}: the card taken from the "
                f"discard pile may not be discarded in the same turn ({_SPEC} section 4)",
                code="discard_taken_card",
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 4",
            )
        del hand[index]
        known = self.known[seat]
        if known and card in known:
            known.remove(card)
        self.discard_pile.append(card)
        events = [_card_event("discard", seat, card)]
        if not hand:
            events.extend(self._go_out(seat, discarded=True))
            return events, action
        events.extend(self._end_turn(seat))
        return events, action

    def _end_turn(self, seat: int) -> list[Event]:
        self.turn += 1
        self.turns_played[seat] += 1
        self.taken_card = None
        self.opened_this_turn = False
        rules = self.rules
        if self.turn >= rules.max_turns:
            return self._block("turns")
        if not self.stock:
            pile = self.discard_pile
            if self.refills >= rules.max_reshuffles or len(pile) < 2:
                return self._block("stock")
            self.refills += 1
            new_stock = pile[:-1]
            random.Random(self.refill_seed + self.refills).shuffle(new_stock)
            self.stock = new_stock
            self.discard_pile = [pile[-1]]
            events = [
                Event("refill", None, detail={"refills": self.refills, "stock": len(new_stock)})
            ]
        else:
            events = []
        self.current_player = self.next_seat[seat]
        self.phase = "draw"
        return events

    def _go_out(self, seat: int, *, discarded: bool) -> list[Event]:
        rami_sec = self.first_laid_turn[seat] == self.turn
        penalties, raw, winners = score_round(
            self.rules,
            self.hands,
            self.opened,
            winner=seat,
            rami_sec=rami_sec,
            active=self.active,
        )
        self._finish(
            RamiRoundResult(
                outcome="out",
                winners=winners,
                penalties=penalties,
                hand_values=raw,
                opened=tuple(self.opened),
                hands=tuple(tuple(self.hand_cards(s)) for s in range(self.players)),
                rami_sec=rami_sec,
            )
        )
        return [
            Event(
                "round_over",
                seat,
                detail={
                    "outcome": "out",
                    "by_discard": discarded,
                    "rami_sec": rami_sec,
                    "penalties": list(penalties),
                },
            )
        ]

    def _block(self, reason: Literal["stock", "turns"]) -> list[Event]:
        penalties, raw, winners = score_round(
            self.rules, self.hands, self.opened, winner=None, active=self.active
        )
        self._finish(
            RamiRoundResult(
                outcome="blocked",
                winners=winners,
                penalties=penalties,
                hand_values=raw,
                opened=tuple(self.opened),
                hands=tuple(tuple(self.hand_cards(s)) for s in range(self.players)),
                blocked_reason=reason,
            )
        )
        return [
            Event(
                "round_over",
                None,
                detail={
                    "outcome": "blocked",
                    "reason": reason,
                    "winners": list(winners),
                    "penalties": list(penalties),
                },
            )
        ]

    def _finish(self, result: RamiRoundResult) -> None:
        self.result = result
        self.phase = "over"
        self.taken_card = None

    # -- views ----------------------------------------------------------------------------

    def observation(
        self, seat: int, *, scores: tuple[int, ...] = (), round_number: int = 1
    ) -> RamiObservation:
        """Everything ``seat`` may know, and nothing else.

        ``scores`` and ``round_number`` are the game's, filled in by
        :class:`~rummykit.games.rami.game.RamiGame`.
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"this round has seats 0-{self.players - 1}, not {seat!r}")
        # The public history (stock draws masked), with this seat's own draws shown.
        seen = self._seen[seat]
        start = len(seen)
        public = self._public
        if start < len(public):
            seen.extend(public[start:])
            own = self._private[seat]
            history = self.history
            for index in reversed(own):
                if index < start:
                    break
                seen[index] = history[index]
        mine = self.current_player == seat
        built = _ObservationBuilder(
            seat,
            self.phase,
            self.current_player,
            self.dealer,
            self.players,
            self.active,
            self._sorted_hand(seat),
            tuple(self.table),
            tuple(self.discard_pile),
            len(self.stock),
            tuple(map(len, self.hands)),
            tuple(self.opened),
            tuple(map(tuple, self.known)),
            self.taken_card if mine else None,
            self.opened_this_turn and mine,
            self.turn,
            self.refills,
            self.rules,
            EventLog(seen, len(seen)),
            self.result,
            scores,
            round_number,
        )
        built.__class__ = RamiObservation  # see _ObservationBuilder
        view: RamiObservation = built
        return view

    def clone(self) -> RamiRound:
        """An independent copy (cheap: a few small lists; combinations are immutable)."""
        other = RamiRound.__new__(RamiRound)
        other.rules = self.rules
        other.players = self.players
        other.active = self.active
        other.next_seat = self.next_seat
        other.dealer = self.dealer
        other.current_player = self.current_player
        other.phase = self.phase
        other.hands = [hand.copy() for hand in self.hands]
        other.table = self.table.copy()
        other.stock = self.stock.copy()
        other.discard_pile = self.discard_pile.copy()
        other.opened = self.opened.copy()
        other.opened_this_turn = self.opened_this_turn
        other.known = [known.copy() for known in self.known]
        other.taken_card = self.taken_card
        other.first_laid_turn = self.first_laid_turn.copy()
        other.turn = self.turn
        other.turns_played = self.turns_played.copy()
        other.refills = self.refills
        other.refill_seed = self.refill_seed
        other.result = self.result
        other.history = self.history.copy()
        other.actions = self.actions.copy()
        other.seed = self.seed
        other.deck = self.deck
        other._seen = [[] for _ in range(self.players)]
        other._sorted = self._sorted.copy()
        other._discards = self._discards
        other._public = self._public.copy()
        other._private = [own.copy() for own in self._private]
        return other

    # -- records and replay -------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record (rules, seats, deal order, refill seed, actions) that
        replays this round exactly."""
        return {
            "variant": "rami-round",
            "rules": self.rules.to_dict(),
            "players": self.players,
            "active": list(self.active),
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": " ".join(map(card_token, self.deck)),
            "refill_seed": self.refill_seed,
            "actions": [action.to_json() for action in self.actions],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RamiRound:
        """Rebuild a round from :meth:`to_record` by replaying its actions."""
        if record.get("variant", "rami-round") != "rami-round":
            raise ValueError(f"not a rami round record: variant {record.get('variant')!r}")
        rules = RamiRules.from_dict(record.get("rules", {}))
        deck_text = record.get("deck")
        deck = [parse_card_token(t) for t in deck_text.split()] if deck_text else None
        rnd = new_round(
            rules,
            int(record["players"]),
            seed=record.get("seed"),
            dealer=int(record.get("dealer", 0)),
            deck=deck,
            refill_seed=record.get("refill_seed"),
            active=record.get("active"),
        )
        rnd.seed = record.get("seed")
        for data in record.get("actions", ()):
            rnd.apply(RamiAction.from_json(data))
        return rnd

    def __repr__(self) -> str:
        return (
            f"<RamiRound phase={self.phase} player={self.current_player} turn={self.turn} "
            f"stock={len(self.stock)} table={len(self.table)}>"
        )


def joker_placement(hand: Sequence[int], table: Sequence[Combination]) -> str | None:
    """Where a joker could legally go this turn, described, or ``None`` (section 4).

    A lay-off onto a combination without a joker, or a new combination with two natural
    cards of ``hand`` (same rank, or same suit within two positions).
    """
    for index, combo in enumerate(table):
        if combo.accepts & JOKER_BIT:
            return f"onto combination {index} ({combo})"
    naturals = sorted({card & 63 for card in hand if card & 63 != JOKER_FACE})
    for i, first in enumerate(naturals):
        for second in naturals[i + 1 :]:
            if pairs_with_joker(first, second):
                return f"into a new combination with {format_card(first)} {format_card(second)}"
    return None


# ======================================================================== dealing


def new_round(
    rules: RamiRules | None = None,
    players: int = 4,
    seed: int | random.Random | None = None,
    *,
    dealer: int = 0,
    deck: Sequence[int] | None = None,
    refill_seed: int | None = None,
    active: Sequence[int] | None = None,
) -> RamiRound:
    """Deal a round (section 1): 13 cards each, one upcard, the rest the stock.

    Args:
        rules: the options (reference Rami 51 by default).
        players: seats 0 to ``players - 1``.
        seed: an int or RNG for a reproducible shuffle; ``None`` shuffles from a
            cryptographically secure source.
        dealer: the dealer's seat; the player to the dealer's left (the next seat)
            plays first and is dealt the first card.
        deck: an explicit card order, top card first (tests, replays, puzzles); it
            overrides ``seed``.
        refill_seed: seeds the reshuffles of the discard pile into a new stock; by
            default drawn from ``seed`` (or from a secure source).
        active: the seats that play (default all); others were eliminated. The pack is
            chosen by the number of active seats.
    """
    rules = rules or RamiRules()
    if not 2 <= players <= 6:
        raise ValueError(f"rami is played by 2-6 players, not {players}")
    seats = tuple(range(players)) if active is None else tuple(sorted(set(active)))
    if len(seats) < 2 or any(not 0 <= s < players for s in seats):
        raise ValueError(f"at least two active seats among 0-{players - 1} are needed: {active!r}")
    if dealer not in seats:
        raise ValueError(f"the dealer must be an active seat, not {dealer!r}")
    spec = rules.deck_spec(len(seats))
    rng: random.Random | None = None
    if deck is not None:
        order = ordered_deck(deck, spec)
    elif seed is None:
        order = shuffled_deck(spec, None)
    else:
        rng = make_rng(seed)
        order = shuffled_deck(spec, rng)
    needed = len(seats) * rules.hand_size + 2
    if len(order) < needed:
        raise ValueError(
            f"a pack of {len(order)} cards is too small to deal {rules.hand_size} cards to "
            f"{len(seats)} players with an upcard and a stock"
        )
    if refill_seed is None:
        refill_seed = rng.getrandbits(64) if rng is not None else secrets.randbits(64)
    next_seat = list(range(players))
    for index, seat in enumerate(seats):
        next_seat[seat] = seats[(index + 1) % len(seats)]
    rnd = RamiRound.__new__(RamiRound)
    rnd.rules = rules
    rnd.players = players
    rnd.active = seats
    rnd.next_seat = tuple(next_seat)
    rnd.dealer = dealer
    rnd.seed = seed if isinstance(seed, int) and deck is None else None
    rnd.deck = tuple(order)
    rnd.refill_seed = int(refill_seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    seat = dealer
    position = 0
    for _ in range(rules.hand_size):
        for _ in seats:
            seat = next_seat[seat]
            hands[seat].append(order[position])
            position += 1
    rnd.hands = hands
    upcard = order[position]
    rnd.discard_pile = [upcard]
    # The stock is a list with its top card last, so drawing is a pop().
    rnd.stock = list(reversed(order[position + 1 :]))
    rnd.table = []
    rnd.opened = [False] * players
    rnd.opened_this_turn = False
    rnd.known = [[] for _ in range(players)]
    rnd.taken_card = None
    rnd.first_laid_turn = [-1] * players
    rnd.turn = 0
    rnd.turns_played = [0] * players
    rnd.refills = 0
    rnd.result = None
    rnd.phase = "draw"
    rnd.current_player = next_seat[dealer]
    rnd.history = [Event("deal", dealer, detail={"upcard": format_card(upcard)})]
    rnd.actions = []
    rnd._seen = [[] for _ in range(players)]
    rnd._sorted = [((), ())] * players
    rnd._discards = ((), ())
    rnd._public = list(rnd.history)
    rnd._private = [[] for _ in range(players)]
    return rnd
