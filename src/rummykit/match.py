"""The whole game, written once: hands dealt one after another until the game ends.

Every game in rummykit is a series of **hands** (Rami calls them rounds) played to an
end condition (Gin's match to 100, Carousel's game to 150, Rami's penalty limit). A
:class:`Match` owns what they share: the seed and the first dealer drawn from it, one
shuffle seed per hand, dealing the next hand as soon as one ends, the record that
replays the whole game, replay itself, and cloning. A game supplies only what differs:
how to deal a hand (:meth:`Match._new_hand`), what a finished hand changes and whether
the game is over (:meth:`Match._settle`), and how a record keeps explicit decks.

Platform vocabulary (the same for every game): ``hand``, ``hand_number``, ``results``
(one per finished hand), ``finished_hands``, ``scores`` (running per-seat points of the
finished hands, before end-of-game bonuses; penalties in Rami), ``result`` (the final
result, with ``totals`` and ``winners``), ``is_over``, ``current_player``, ``players``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rummykit.cards import make_rng
from rummykit.core import Event, IllegalActionError
from rummykit.errors import InvalidOptionError, InvalidRecordError
from rummykit.i18n import N_, Translator, translator

__all__ = ["FinalResult", "HandLike", "Match", "SheetRow"]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: a label, a cell per seat, and a note after them."""

    label: str
    cells: Sequence[str]
    note: str = ""


def format_sheet(
    label_title: str, players: int, rows: Sequence[SheetRow], tr: Translator | None = None
) -> list[str]:
    """Rows as aligned text columns: the labels left, a column per seat right-aligned
    (headed ``seat N`` in ``tr``'s language, English by default).

    >>> for line in format_sheet("hand", 2, [SheetRow("1", ["+7", ""], "knock")]):
    ...     print(line)
    hand  seat 0  seat 1
    1         +7          knock
    """
    tr = tr or translator("en")
    heads = [tr.gettext("seat {seat}", seat=seat) for seat in range(players)]
    label_width = (
        max(len(label_title), *(len(row.label) for row in rows)) if rows else len(label_title)
    )
    widths = [
        max(len(heads[seat]), *(len(row.cells[seat]) for row in rows)) if rows else len(heads[seat])
        for seat in range(players)
    ]

    def line(label: str, cells: Sequence[str], note: str = "") -> str:
        text = f"{label:<{label_width}}  " + "  ".join(
            f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True)
        )
        return f"{text}  {note}" if note else text

    return [line(label_title, heads), *(line(row.label, row.cells, row.note) for row in rows)]


_TIED = {"match": N_("the match is tied"), "game": N_("the game is tied")}


class HandLike(Protocol):
    """What a match needs of one hand's engine."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def actions(self) -> Sequence[Any]: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> list[Event]: ...

    def check(self, action: Any) -> object:
        """Raise if illegal; what it returns (a game's check of a meld) is the game's."""

    def clone(self) -> Any: ...


class FinalResult(Protocol):
    """What a match needs of its final result: per-seat totals and who won."""

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def winners(self) -> Sequence[int]: ...


HandT = TypeVar("HandT", bound=HandLike)
ResultT = TypeVar("ResultT", bound=FinalResult)


class Match(ABC, Generic[HandT, ResultT]):
    """Hands of one game until it ends (see the module docstring).

    Subclasses set :attr:`record_kind` and :attr:`rules_type` and implement
    :meth:`_new_hand`, :meth:`_settle` and :meth:`_parse_action`; games whose records
    keep more per hand override :meth:`_store_hands` and :meth:`_stored_hands`.
    """

    record_kind: ClassVar[str]
    """The ``variant`` field of this game's records (``gin-match``, ``rami-game``...)."""
    rules_type: ClassVar[type[Any]]
    record_players: ClassVar[bool] = True
    """Whether records name the number of players (not for a two-player-only game)."""
    fixed_players: ClassVar[int] = 2
    """The number of players of a game whose records do not name it."""

    rules: Any
    players: int
    seed: int | None
    first_dealer: int
    hand: HandT
    results: list[Any]
    finished_hands: list[HandT]
    result: ResultT | None

    def __init__(
        self,
        rules: Any,
        *,
        players: int,
        seed: int | None,
        first_dealer: int | None,
        stored: Sequence[Any] = (),
    ) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self._rng: random.Random | None = make_rng(seed) if seed is not None else None
        # Drawn even when the caller names the dealer, so replays consume the same numbers.
        drawn = (self._rng or make_rng(None)).randrange(players)
        if first_dealer is None:
            first_dealer = drawn
        if isinstance(first_dealer, bool) or first_dealer not in range(players):
            raise InvalidOptionError(
                f"first_dealer must be a seat 0-{players - 1}, not {first_dealer!r}",
                option="first_dealer",
            )
        self.first_dealer = first_dealer
        self._stored = list(stored)
        self.results = []
        self.finished_hands = []
        self.result = None
        self._start()
        self.hand = self._deal(first_dealer)

    # -- what a game supplies --------------------------------------------------------

    def _start(self) -> None:
        """Set up per-game state before the first deal (totals, eliminated seats)."""

    @abstractmethod
    def _new_hand(self, dealer: int, seed: int | None, stored: Any | None) -> HandT:
        """Deal a hand: from ``seed``, or from a record's ``stored`` hand (a deck)."""

    @abstractmethod
    def _settle(self, finished: HandT) -> list[Event]:
        """The hand just finished (already in :attr:`results`): update the game, then
        either set :attr:`result` or return the next dealer via :meth:`_next_hand`.
        Returns the events announcing it."""

    @abstractmethod
    def _parse_action(self, data: Mapping[str, Any]) -> Any:
        """An action from its JSON form."""

    def _hand_result(self, hand: HandT) -> Any:
        return hand.result  # type: ignore[attr-defined]

    def _store_hands(self, hands: Sequence[HandT], record: dict[str, Any]) -> None:
        """Keep the decks of an unseeded game in its record."""
        record["decks"] = [self._stored_deck(hand) for hand in hands]

    def _stored_deck(self, hand: HandT) -> Any:
        return hand.to_record()["deck"]  # type: ignore[attr-defined]

    @classmethod
    def _stored_hands(cls, record: Mapping[str, Any]) -> list[Any]:
        """The per-hand data :meth:`_store_hands` wrote (one entry per hand)."""
        return list(record.get("decks", ()))

    # -- dealing -----------------------------------------------------------------------

    def _deal(self, dealer: int) -> HandT:
        index = len(self.results)
        stored = self._stored[index] if index < len(self._stored) else None
        if stored is not None:
            return self._new_hand(dealer, None, stored)
        seed = self._rng.getrandbits(63) if self._rng is not None else None
        return self._new_hand(dealer, seed, None)

    def _next_hand(self, dealer: int) -> None:
        self.hand = self._deal(dealer)

    # -- state ---------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has its final result."""
        return self.result is not None

    @property
    def current_player(self) -> int:
        """The seat to act in the current hand."""
        return self.hand.current_player

    @property
    def hand_number(self) -> int:
        """1 for the first hand, and so on (the current or last hand)."""
        return len(self.results) + (0 if self.is_over else 1)

    def legal_actions(self) -> list[Any]:
        """The current hand's finite legal actions (none once the game is over)."""
        return [] if self.is_over else self.hand.legal_actions()

    def check(self, action: Any) -> object:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now; else return
        what the hand's check returns (``None``, or what a game's check found)."""
        self._refuse_when_over(action)
        return self.hand.check(action)

    def _refuse_when_over(self, action: Any) -> None:
        if self.is_over:
            raise IllegalActionError(
                f"the {self.game_word} is over; {action} is not possible",
                code=f"{self.game_word}_over",
                rule=self._over_rule,
            )

    game_word: ClassVar[str] = "game"
    """What a whole game is called: ``match`` for Gin, whose refusals and events say so."""

    hand_word: ClassVar[str] = N_("hand")
    """What one deal is called (``round`` in Rami): the score sheet's first column, the
    views' hand count, the research interfaces' episode; marked for the catalogs."""

    _over_rule: ClassVar[str | None] = None
    """The id of the game's rule that ends it, which a move after the end breaks."""

    # -- play ----------------------------------------------------------------------------

    def apply(self, action: Any) -> list[Event]:
        """Apply an action to the current hand; deal the next hand or end the game."""
        self._refuse_when_over(action)
        events = self.hand.apply(action)
        if self.hand.is_over:
            finished = self.hand
            self.results.append(self._hand_result(finished))
            self.finished_hands.append(finished)
            events.extend(self._settle(finished))
        return events

    def clone(self) -> Any:
        """An independent copy (finished hands are shared: they never change)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.results = self.results.copy()
        other.finished_hands = self.finished_hands.copy()
        other._stored = self._stored
        self._clone_state(other)
        other.hand = self.hand.clone()
        return other

    def _clone_state(self, other: Any) -> None:
        """Copy the game's own mutable state into ``other`` (a shallow copy so far)."""

    # -- the score sheet ------------------------------------------------------------------

    def score_sheet(self, language: str = "en") -> str:
        """The score sheet as text: a line per hand, the game's closing lines (bonuses,
        totals), then who won; headings, labels and notes in ``language``."""
        tr = translator(language)
        rows = [*self._hand_rows(tr), *self._closing_rows(tr)]
        lines = format_sheet(tr.gettext(self.hand_word), self.players, rows, tr)
        if self.result is not None:
            lines.append(self._winners_line(tr, self.result))
        return "\n".join(lines)

    def _hand_rows(self, tr: Translator) -> list[SheetRow]:
        """A row per finished hand (the game's own cells and note, in ``tr``'s language)."""
        raise NotImplementedError

    def _closing_rows(self, tr: Translator) -> list[SheetRow]:
        """The rows after the hands: once the game is over, its final rows and the totals."""
        final = self.result
        if final is None:
            return []
        totals = SheetRow(tr.gettext("total"), [str(total) for total in final.totals])
        return [*self._final_rows(final, tr), totals]

    def _final_rows(self, final: ResultT, tr: Translator) -> list[SheetRow]:
        """The rows of a finished game before its totals (bonuses)."""
        return []

    def _winners_line(self, tr: Translator, final: ResultT) -> str:
        winners = tuple(final.winners)
        if len(winners) == 1:
            return tr.gettext("seat {seat} wins", seat=winners[0])
        if len(winners) == self.players:
            return tr.gettext(_TIED[self.game_word])
        seats = ", ".join(tr.gettext("seat {seat}", seat=seat) for seat in winners)
        return tr.gettext("winners: {seats}", seats=seats)

    # -- records -------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record that replays the game (rules, seed, dealer, actions)."""
        hands = [*self.finished_hands] + ([] if self.is_over else [self.hand])
        record: dict[str, Any] = {"variant": self.record_kind, "rules": self.rules.to_dict()}
        if self.record_players:
            record["players"] = self.players
        record["seed"] = self.seed
        record["first_dealer"] = self.first_dealer
        record["actions"] = [action.to_json() for hand in hands for action in hand.actions]
        if self.seed is None:
            self._store_hands(hands, record)
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Any:
        """Rebuild a game from :meth:`to_record` by replaying every action."""
        if record.get("variant") != cls.record_kind:
            raise InvalidRecordError(
                f"not a {cls.record_kind} record: variant {record.get('variant')!r}"
            )
        stored = cls._stored_hands(record)
        seed = record.get("seed")
        if seed is None and not stored:
            raise InvalidRecordError("a record without a seed must list its decks")
        game = cls._from_record_start(record, seed, stored)
        for data in record.get("actions", ()):
            if game.is_over:
                raise InvalidRecordError("the record has actions after the end of the game")
            game.apply(game._parse_action(data))
        return game

    @classmethod
    def _from_record_start(
        cls, record: Mapping[str, Any], seed: int | None, stored: Sequence[Any]
    ) -> Any:
        """The game as dealt before the record's first action: the generic constructor,
        since a game's public one takes no stored decks."""
        game = cls.__new__(cls)
        players = int(record["players"]) if cls.record_players else cls.fixed_players
        Match.__init__(
            game,
            cls.rules_type.from_dict(record.get("rules", {})),
            players=players,
            seed=seed,
            first_dealer=int(record.get("first_dealer", 0)),
            stored=stored,
        )
        return game
