"""Carousel: manipulation rummy with up to three draws and a knock (rules/carousel.md).

Every turn begins with an automatic draw. While the player has drawn fewer than three
cards and has not melded, he either draws again or submits a meld: the **complete new
table layout**, checked as a whole by :func:`rummykit.games.carousel.arrange.check_layout`.
After a meld he may meld again or end the turn; at the end of his turn he may knock
with a hand value of 5 or less. When the stock runs out every player gets one final,
draw-less turn.

>>> hand = new_hand(CarouselRules(), players=3, seed=1)
>>> hand.current_player, len(hand.hand_cards(hand.current_player)), hand.draws
(1, 11, 1)
>>> [str(a) for a in hand.legal_actions()]
['draw']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

from rummykit.cards import (
    JOKER_FACE,
    Card,
    DeckSpec,
    format_card,
    format_cards,
    ordered_deck,
    parse_cards,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError, rules_from_dict
from rummykit.melds import CAROUSEL_MELDS, MeldRules

__all__ = [
    "CarouselAction",
    "CarouselHand",
    "CarouselHandResult",
    "CarouselObservation",
    "CarouselRules",
    "carousel_hand_value",
    "new_hand",
    "score_carousel_hand",
]

_SPEC: Final = "rules/carousel.md"
Phase = Literal["play", "over"]
ActionKind = Literal["draw", "meld", "end_turn", "knock"]
Layout = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CarouselRules:
    """Every option of rules/carousel.md section 9; defaults are the reference rules."""

    knock_limit: int = 5
    target: int = 150
    game_bonus: int = 100
    round_bonus: int = 25
    round_bonus_to: Literal["others", "all"] = "others"
    undercut_bonus: int = 10
    going_out_bonus: int = 25
    max_draws: int = 3
    meld_after_last_draw: bool = False
    joker_value: int = 25
    ace_high_value: int = 1
    """What an ace counts in hand (always the same, high or low)."""
    decks: int | None = None
    """``None``: one deck for 2 players, two for 3-5 (``decks_by_players``)."""
    final_lap_draw: Literal["none"] = "none"
    nonknocker_ties: Literal["all_win", "knocker_rule_only"] = "all_win"
    joker_copy_limit: bool = True

    def __post_init__(self) -> None:
        numbers = {
            "knock_limit": (0, 500),
            "target": (1, 100_000),
            "game_bonus": (0, 10_000),
            "round_bonus": (0, 10_000),
            "undercut_bonus": (0, 10_000),
            "going_out_bonus": (0, 10_000),
            "max_draws": (1, 10),
            "joker_value": (0, 1000),
            "ace_high_value": (0, 100),
        }
        for name, (low, high) in numbers.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(
                    f"carousel option {name} must be an integer {low}-{high}, got {value!r}"
                )
        if self.decks is not None and self.decks not in (1, 2, 3):
            raise ValueError(f"carousel option decks must be 1-3 or null, got {self.decks!r}")
        choices: dict[str, tuple[str, ...]] = {
            "round_bonus_to": ("others", "all"),
            "final_lap_draw": ("none",),
            "nonknocker_ties": ("all_win", "knocker_rule_only"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"carousel option {name} must be one of {', '.join(allowed)}, "
                    f"got {getattr(self, name)!r}"
                )
        for name in ("meld_after_last_draw", "joker_copy_limit"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"carousel option {name} must be true or false")

    def decks_for(self, players: int) -> int:
        """Decks (and jokers) used with ``players`` players."""
        if self.decks is not None:
            return self.decks
        return 1 if players == 2 else 2

    @property
    def meld_rules(self) -> MeldRules:
        """Groups of distinct suits, sequences with the ace low or high, declared jokers."""
        return CAROUSEL_MELDS

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready options."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CarouselRules:
        """Options from a dict; unknown names are an error."""
        return rules_from_dict(cls, data, "carousel")


def carousel_hand_value(cards: Iterable[int], rules: CarouselRules | None = None) -> int:
    """Hand value: joker 25, J/Q/K 10, pips, ace 1 (rules/carousel.md section 1).

    >>> carousel_hand_value(parse_cards("2C 3D JK KH AS"))
    41
    """
    rules = rules or CarouselRules()
    total = 0
    for card in cards:
        face = card & 63
        if face == JOKER_FACE:
            total += rules.joker_value
        elif face % 13 == 0:
            total += rules.ace_high_value
        else:
            total += min(face % 13 + 1, 10)
    return total


@dataclass(frozen=True, slots=True)
class CarouselAction:
    """``draw`` (draw again), ``meld`` (a complete new table layout), ``end_turn``,
    ``knock`` (end the turn and knock)."""

    kind: ActionKind
    layout: Layout | None = None

    @classmethod
    def draw(cls) -> CarouselAction:
        return _DRAW

    @classmethod
    def end_turn(cls) -> CarouselAction:
        return _END_TURN

    @classmethod
    def knock(cls) -> CarouselAction:
        return _KNOCK

    @classmethod
    def meld(cls, layout: Iterable[Iterable[int | str] | str]) -> CarouselAction:
        """A meld action from the whole new table (melds as cards or notation)."""
        melds: list[tuple[Card, ...]] = []
        try:
            for meld in layout:
                cards = parse_cards(meld) if isinstance(meld, str) else [Card(c) for c in meld]
                melds.append(tuple(cards))
        except ValueError as error:
            raise InvalidActionError(f"malformed layout: {error}") from error
        return cls("meld", tuple(melds))

    def __str__(self) -> str:
        if self.layout is None:
            return self.kind
        return "meld " + " | ".join(format_cards(meld) for meld in self.layout)

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.layout is not None:
            data["layout"] = [format_cards(meld) for meld in self.layout]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CarouselAction:
        """Inverse of :meth:`to_json`."""
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action is a JSON object, got {data!r}")
        kind = data.get("kind")
        if kind == "meld":
            layout = data.get("layout")
            if not isinstance(layout, list) or not all(isinstance(m, str) for m in layout):
                raise InvalidActionError("a meld action needs a layout: a list of meld strings")
            return cls.meld(layout)
        simple = {"draw": _DRAW, "end_turn": _END_TURN, "knock": _KNOCK}
        if not isinstance(kind, str) or kind not in simple:  # any JSON value may come
            raise InvalidActionError(
                f"unknown carousel action kind {repr(kind)[:40]}; "
                "expected draw, meld, end_turn or knock"
            )
        return simple[kind]


_DRAW: Final = CarouselAction("draw")
_END_TURN: Final = CarouselAction("end_turn")
_KNOCK: Final = CarouselAction("knock")


@dataclass(frozen=True, slots=True)
class CarouselHandResult:
    """How a hand ended and what each seat scored."""

    reason: Literal["knock", "went_out", "stock_exhausted"]
    knocker: int | None
    """The knocker, or the player who went out."""
    values: tuple[int, ...]
    """Each seat's hand value at the end."""
    winners: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "reason": self.reason,
            "knocker": self.knocker,
            "values": list(self.values),
            "winners": list(self.winners),
            "points": list(self.points),
            "hands": [format_cards(hand) for hand in self.hands],
        }


def score_carousel_hand(
    values: Sequence[int],
    *,
    knocker: int | None,
    went_out: bool,
    rules: CarouselRules | None = None,
    first_seat: int = 0,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Winners and points of a hand (rules/carousel.md section 5).

    ``knocker`` is the knocker or the player who went out; ``first_seat`` starts the
    turn order used to break ties under ``nonknocker_ties=knocker_rule_only``.

    >>> score_carousel_hand([3, 10, 25, 7], knocker=0, went_out=False)
    ((0,), (33, 0, 0, 0))
    >>> score_carousel_hand([4, 4, 4, 30], knocker=0, went_out=False)
    ((1, 2), (0, 36, 36, 0))
    """
    rules = rules or CarouselRules()
    players = len(values)
    low = min(values)
    tied = [seat for seat in range(players) if values[seat] == low]
    if knocker is not None and knocker in tied and len(tied) > 1:
        winners = [seat for seat in tied if seat != knocker]
        knocker_tie = True
    else:
        winners = tied
        knocker_tie = False
    # Without a knock (stock exhausted) ties always share the win (section 5.6).
    if (
        len(winners) > 1
        and not knocker_tie
        and knocker is not None
        and rules.nonknocker_ties == "knocker_rule_only"
    ):
        start = (knocker + 1) % players if knocker is not None else first_seat
        order = [(start + i) % players for i in range(players)]
        winners = [min(winners, key=order.index)]
    points = [0] * players
    for winner in winners:
        gain = sum(values[seat] - values[winner] for seat in range(players) if seat != winner)
        if knocker is not None and winner != knocker:
            gain += rules.undercut_bonus
        if went_out and winner == knocker:
            gain += rules.going_out_bonus
        points[winner] = gain
    return tuple(sorted(winners)), tuple(points)


@dataclass(frozen=True, slots=True)
class CarouselObservation:
    """What one seat may know: own hand, the table, counts. Never another hand or the
    stock order."""

    seat: int
    players: int
    phase: Phase
    current_player: int
    dealer: int
    hand: tuple[Card, ...]
    table: Layout
    hand_sizes: tuple[int, ...]
    stock_size: int
    draws: int
    """Cards the player to act has drawn this turn."""
    melded: bool
    """Whether the player to act has melded this turn."""
    final_lap: bool
    history: tuple[Event, ...]
    result: CarouselHandResult | None
    scores: tuple[int, ...] = ()
    target: int = 150


class CarouselHand:
    """One hand of Carousel for 2-5 players. Build with :func:`new_hand`."""

    __slots__ = (
        "actions",
        "current_player",
        "dealer",
        "deck",
        "decks",
        "draws",
        "final_lap",
        "hands",
        "history",
        "lap_left",
        "melded",
        "phase",
        "players",
        "result",
        "rules",
        "seed",
        "stock",
        "table",
    )

    rules: CarouselRules
    players: int
    decks: int
    phase: Phase
    current_player: int
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    table: list[tuple[Card, ...]]
    draws: int
    melded: bool
    final_lap: bool
    lap_left: int
    result: CarouselHandResult | None
    history: list[Event]
    actions: list[CarouselAction]
    seed: int | None
    deck: tuple[Card, ...]

    # -- state -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is scored."""
        return self.phase == "over"

    def hand_cards(self, seat: int) -> list[Card]:
        """A seat's cards (engine-side; players see theirs through observation)."""
        return list(self.hands[seat])

    def hand_value(self, seat: int) -> int:
        """The seat's hand value now."""
        return carousel_hand_value(self.hands[seat], self.rules)

    def may_draw(self) -> bool:
        """Whether the player to act may draw again now."""
        return (
            self.phase == "play"
            and not self.final_lap
            and not self.melded
            and self.draws < self.rules.max_draws
            and bool(self.stock)
        )

    def may_meld(self) -> bool:
        """Whether the player to act may submit a meld now (section 3)."""
        if self.phase != "play":
            return False
        if self.final_lap or self.melded or self.draws < self.rules.max_draws:
            return True
        return self.rules.meld_after_last_draw

    def may_end_turn(self) -> bool:
        """Whether the turn may end now: after a meld, after the last draw, on an empty
        stock, or in a final turn."""
        if self.phase != "play":
            return False
        return self.final_lap or self.melded or self.draws >= self.rules.max_draws or not self.stock

    def legal_actions(self) -> list[CarouselAction]:
        """The finite legal actions: draw, end_turn, knock. Melds are open-ended: use
        :meth:`check` or the solver (``rummykit.games.carousel.arrange.best_placement``)."""
        actions: list[CarouselAction] = []
        if self.may_draw():
            actions.append(_DRAW)
        if self.may_end_turn():
            actions.append(_END_TURN)
            if self.hand_value(self.current_player) <= self.rules.knock_limit:
                actions.append(_KNOCK)
        return actions

    def check(self, action: CarouselAction) -> None:
        """Raise :class:`IllegalActionError` when ``action`` is illegal now."""
        self.clone().apply(action)

    def is_legal(self, action: CarouselAction) -> bool:
        """True when ``action`` may be applied now."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # -- actions ---------------------------------------------------------------------

    def apply(self, action: CarouselAction) -> list[Event]:
        """Apply an action of the player to act; return the events.

        Raises:
            IllegalActionError: not legal now (the state is unchanged).
            InvalidActionError: malformed.
        """
        if not isinstance(action, CarouselAction):
            raise InvalidActionError(f"not a carousel action: {action!r}")
        seat = self.current_player
        if self.phase == "over":
            raise IllegalActionError(
                f"seat {seat}: the hand is over; {action.kind} is not possible",
                code="hand_over",
                seat=seat,
            )
        kind = action.kind
        if kind == "draw":
            events = self._draw_again(seat)
        elif kind == "meld":
            events = self._meld(seat, action)
        elif kind == "end_turn":
            events = self._end_turn(seat, knock=False)
        elif kind == "knock":
            events = self._end_turn(seat, knock=True)
        else:
            raise InvalidActionError(f"unknown carousel action kind {kind!r}")
        self.actions.append(action)
        self.history.extend(events)
        return events

    def _draw_again(self, seat: int) -> list[Event]:
        if not self.may_draw():
            if self.final_lap:
                why = "final-lap turns have no draw"
            elif self.melded:
                why = "once a meld has been made no further draw that turn"
            elif self.draws >= self.rules.max_draws:
                why = f"at most {self.rules.max_draws} draws per turn"
            else:
                why = "the stock is empty"
            raise IllegalActionError(
                f"seat {seat} cannot draw again: {why} ({_SPEC} section 3)",
                code="draw_not_allowed",
                seat=seat,
                rule=f"{_SPEC} section 3",
            )
        return self._draw(seat)

    def _draw(self, seat: int) -> list[Event]:
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.draws += 1
        events = [Event("draw", seat, card, visible_to=seat, detail={"draw": self.draws})]
        if not self.stock:
            # Every player gets one final turn, from the next one round to this one.
            self.lap_left = self.players
            events.append(Event("stock_exhausted", seat))
        return events

    def _meld(self, seat: int, action: CarouselAction) -> list[Event]:
        from rummykit.games.carousel.arrange import IllegalLayoutError, check_layout

        if not self.may_meld():
            raise IllegalActionError(
                f"seat {seat} cannot meld now: no melding after the last "
                f"({self.rules.max_draws}) draw of a turn ({_SPEC} section 3)",
                code="meld_after_last_draw",
                seat=seat,
                rule="meld_after_last_draw",
            )
        hand = self.hands[seat]
        new_table = self._resolve(seat, action.layout or ())
        try:
            check_layout(
                self.table,
                new_table,
                hand,
                rules=self.rules.meld_rules,
                decks=self.decks,
                joker_copy_limit=self.rules.joker_copy_limit,
            )
        except IllegalLayoutError as error:
            # The checker's message names the meld, the card and (mostly) the rule.
            cited = "" if _SPEC in str(error) else f" ({error.rule or _SPEC + ' section 3'})"
            raise IllegalActionError(
                f"seat {seat}: {error}{cited}",
                code="illegal_layout",
                seat=seat,
                card=error.card,
                rule=error.rule,
            ) from None
        on_table = {c.physical for meld in self.table for c in meld}
        placed = [c for meld in new_table for c in meld if c.physical not in on_table]
        placed_ids = {int(c.physical) for c in placed}
        self.hands[seat] = [c for c in hand if int(c) not in placed_ids]
        self.table = list(new_table)
        self.melded = True
        events = [
            Event(
                "meld",
                seat,
                detail={
                    "layout": [format_cards(meld) for meld in new_table],
                    "from_hand": format_cards(placed),
                },
            )
        ]
        if not self.hands[seat]:
            events.append(Event("went_out", seat))
            events.extend(self._score(knocker=seat, went_out=True, reason="went_out"))
        return events

    def _resolve(self, seat: int, layout: Layout) -> list[tuple[Card, ...]]:
        """Map a layout written in faces onto physical cards (table cards first).

        Two copies of one face are interchangeable in play, so a natural card is matched
        to a table copy when one is free, then to a hand copy. A joker is matched to a
        table joker with the same declaration (it keeps it), then to another table joker
        (freed and re-declared), then to a joker from the hand.
        """
        table_naturals: dict[int, list[Card]] = {}
        table_jokers: list[Card] = []
        for meld in self.table:
            for card in meld:
                if card.is_joker:
                    table_jokers.append(card)
                else:
                    table_naturals.setdefault(card.face, []).append(card)
        hand_naturals: dict[int, list[Card]] = {}
        hand_jokers: list[Card] = []
        for card in self.hands[seat]:
            if card.is_joker:
                hand_jokers.append(card)
            else:
                hand_naturals.setdefault(card.face, []).append(card)
        resolved: list[list[Card | None]] = []
        pending: list[tuple[int, int, Card]] = []
        for m, meld in enumerate(layout):
            row: list[Card | None] = []
            for i, card in enumerate(meld):
                card = Card(card)
                if card.is_joker:
                    if card.declared is None:
                        raise IllegalActionError(
                            f"seat {seat}: a joker on the table needs a declaration, e.g. JK=5S "
                            f"({_SPEC} section 2)",
                            code="undeclared_joker",
                            seat=seat,
                            card=card,
                            rule=f"{_SPEC} section 2",
                        )
                    keep = next((j for j in table_jokers if j.declared == card.declared), None)
                    if keep is not None:
                        table_jokers.remove(keep)
                        row.append(keep)
                    else:
                        row.append(None)
                        pending.append((m, i, card))
                    continue
                pool = table_naturals.get(card.face) or hand_naturals.get(card.face)
                if not pool:
                    raise IllegalActionError(
                        f"seat {seat} cannot place {format_card(card)}: it is neither on the "
                        f"table (free) nor in the hand ({_SPEC} section 3b)",
                        code="card_not_available",
                        seat=seat,
                        card=card,
                        rule=f"{_SPEC} section 3b",
                    )
                row.append(pool.pop(0))
            resolved.append(row)
        free_jokers = table_jokers + hand_jokers
        for m, i, card in pending:
            if not free_jokers:
                raise IllegalActionError(
                    f"seat {seat} cannot place {format_card(card)}: no joker is available "
                    f"on the table or in the hand ({_SPEC} section 3b)",
                    code="card_not_available",
                    seat=seat,
                    card=card,
                    rule=f"{_SPEC} section 3b",
                )
            declared = card.declared
            assert declared is not None
            resolved[m][i] = free_jokers.pop(0).declare(declared)
        return [tuple(c for c in row if c is not None) for row in resolved]

    def _end_turn(self, seat: int, *, knock: bool) -> list[Event]:
        if not self.may_end_turn():
            raise IllegalActionError(
                f"seat {seat} cannot {'knock' if knock else 'end the turn'} yet: after drawing "
                f"{self.draws} card(s) without melding the player must meld or draw again "
                f"({_SPEC} section 3)",
                code="turn_not_finished",
                seat=seat,
                rule=f"{_SPEC} section 3",
            )
        if knock:
            value = self.hand_value(seat)
            if value > self.rules.knock_limit:
                raise IllegalActionError(
                    f"seat {seat} cannot knock: hand value {value} is over the knock limit of "
                    f"{self.rules.knock_limit} ({_SPEC} section 4)",
                    code="hand_over_knock_limit",
                    seat=seat,
                    rule="knock_limit",
                )
            return [
                Event("knock", seat, detail={"value": value}),
                *self._score(knocker=seat, went_out=False, reason="knock"),
            ]
        events = [Event("end_turn", seat)]
        if self.final_lap:
            self.lap_left -= 1
            if self.lap_left <= 0:
                events.extend(self._score(knocker=None, went_out=False, reason="stock_exhausted"))
                return events
        elif not self.stock:
            self.final_lap = True
            events.append(Event("final_lap", None, detail={"turns": self.lap_left}))
        self._next_turn(events)
        return events

    def _next_turn(self, events: list[Event]) -> None:
        self.current_player = (self.current_player + 1) % self.players
        self.draws = 0
        self.melded = False
        if not self.final_lap:
            events.extend(self._draw(self.current_player))

    def _score(
        self,
        *,
        knocker: int | None,
        went_out: bool,
        reason: Literal["knock", "went_out", "stock_exhausted"],
    ) -> list[Event]:
        values = tuple(self.hand_value(seat) for seat in range(self.players))
        winners, points = score_carousel_hand(
            values,
            knocker=knocker,
            went_out=went_out,
            rules=self.rules,
            first_seat=(self.current_player + 1) % self.players,
        )
        self.result = CarouselHandResult(
            reason=reason,
            knocker=knocker,
            values=values,
            winners=winners,
            points=points,
            hands=tuple(tuple(hand) for hand in self.hands),
        )
        self.phase = "over"
        return [Event("hand_scored", None, detail=self.result.to_json())]

    # -- views -----------------------------------------------------------------------

    def observation(self, seat: int) -> CarouselObservation:
        """Everything ``seat`` may know, and nothing else."""
        if not 0 <= seat < self.players:
            raise ValueError(f"this hand has seats 0-{self.players - 1}, not {seat!r}")
        acting = self.current_player
        return CarouselObservation(
            seat=seat,
            players=self.players,
            phase=self.phase,
            current_player=acting,
            dealer=self.dealer,
            hand=tuple(sorted(self.hands[seat], key=_sort_key)),
            table=tuple(self.table),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            stock_size=len(self.stock),
            draws=self.draws,
            melded=self.melded,
            final_lap=self.final_lap,
            history=tuple(event.seen_by(seat) for event in self.history),
            result=self.result,
        )

    def clone(self) -> CarouselHand:
        """An independent copy."""
        other = CarouselHand.__new__(CarouselHand)
        for name in CarouselHand.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [hand.copy() for hand in self.hands]
        other.stock = self.stock.copy()
        other.table = self.table.copy()
        other.history = self.history.copy()
        other.actions = self.actions.copy()
        return other

    # -- records ---------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record (rules, players, seed, deal order, actions)."""
        return {
            "variant": "carousel",
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": [int(card) for card in self.deck],
            "actions": [action.to_json() for action in self.actions],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CarouselHand:
        """Rebuild a hand from :meth:`to_record`."""
        if record.get("variant") != "carousel":
            raise ValueError(f"not a carousel record: variant {record.get('variant')!r}")
        rules = CarouselRules.from_dict(record.get("rules", {}))
        players = int(record["players"])
        deck = [Card(int(card)) for card in record["deck"]]
        hand = new_hand(rules, players=players, dealer=int(record.get("dealer", 0)), deck=deck)
        for data in record.get("actions", ()):
            hand.apply(CarouselAction.from_json(data))
        return hand


def _sort_key(card: Card) -> tuple[int, int]:
    face = card.face
    return (4, 0) if face == JOKER_FACE else (face // 13, face % 13)


def new_hand(
    rules: CarouselRules | None = None,
    *,
    players: int = 3,
    seed: int | random.Random | None = None,
    dealer: int = 0,
    deck: Sequence[int] | None = None,
) -> CarouselHand:
    """Deal a hand: 10 cards each from the dealer's left, the rest is the stock; the
    player left of the dealer starts (with the automatic first draw done)."""
    rules = rules or CarouselRules()
    if not 2 <= players <= 5:
        raise ValueError(f"carousel is for 2-5 players, not {players!r}")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
    decks = rules.decks_for(players)
    spec = DeckSpec(decks=decks, jokers=decks)
    if 10 * players >= spec.size:
        raise ValueError(f"{decks} deck(s) are too few for {players} players")
    order = ordered_deck(deck, spec) if deck is not None else shuffled_deck(spec, seed)
    hand = CarouselHand.__new__(CarouselHand)
    hand.rules = rules
    hand.players = players
    hand.decks = decks
    hand.dealer = dealer
    hand.seed = seed if isinstance(seed, int) and deck is None else None
    hand.deck = tuple(order)
    hand.hands = [[] for _ in range(players)]
    for i in range(10 * players):
        hand.hands[(dealer + 1 + i) % players].append(order[i])
    # The stock keeps its top card last, so a draw is a pop().
    hand.stock = list(reversed(order[10 * players :]))
    hand.table = []
    hand.phase = "play"
    hand.current_player = (dealer + 1) % players
    hand.draws = 0
    hand.melded = False
    hand.final_lap = False
    hand.lap_left = 0
    hand.result = None
    hand.history = [Event("deal", dealer, detail={"players": players, "decks": decks})]
    hand.actions = []
    hand.history.extend(hand._draw(hand.current_player))
    return hand
