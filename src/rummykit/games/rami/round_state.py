"""The state of a Rami round, and how a turn and the round end.

:class:`RoundState` holds every field of a round (the engine class
:class:`~rummykit.games.rami.round.RamiRound` adds the moves on top of it): the seats,
hands, table, piles, whose turn and which phase, the history, and the caches the hot
paths keep. The end of a turn (reshuffles, the turn limit) and of the round (a player
goes out, or the round is blocked, then scored) are here too.
"""

from __future__ import annotations

import random
from typing import Final, Literal

from rummykit.cards import FACES, MAX_COPIES, PHYSICAL_IDS, Card, copy_of
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.observation import Phase
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.scoring import RamiRoundResult, score_round
from rummykit.games.rami.table import Combination
from rummykit.hand_engine import HandEngine

__all__ = ["SORT_KEY", "RoundState", "sort_key"]

SORT_KEY: Final = tuple(FACES[card] * MAX_COPIES + copy_of(card) for card in range(PHYSICAL_IDS))
"""Per physical card id, its place in a sorted hand: by face, then by deck."""
sort_key = SORT_KEY.__getitem__


class RoundState(HandEngine):
    """Every field of one round of Rami, and the end of a turn and of the round."""

    refusals = (IllegalActionError, InvalidActionError)

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
            ordered = tuple(sorted(raw, key=sort_key))
            self._sorted[seat] = (raw, ordered)
        return ordered

    def all_cards(self) -> list[Card]:
        """Every physical card of the round wherever it is (hands, table, piles)."""
        cards = [card for hand in self.hands for card in hand]
        cards.extend(card.physical for combo in self.table for card in combo.cards)
        cards.extend(self.stock)
        cards.extend(self.discard_pile)
        return cards

    def _wrong_phase(self, action: RamiAction, expected: str, rule: str) -> IllegalActionError:
        """The refusal of an action out of its phase; ``rule`` is the one for this phase."""
        seat = self.current_player
        return IllegalActionError(
            f"seat {seat} cannot {action.kind.replace('_', ' ')} now: in the {self.phase} "
            f"phase the player must {expected}",
            code="wrong_phase",
            seat=seat,
            card=action.card,
            rule=rule,
        )

    # -- the end of a turn and of the round -----------------------------------------

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
        result = self._score(seat, rami_sec=rami_sec)
        detail = {
            "outcome": "out",
            "by_discard": discarded,
            "rami_sec": rami_sec,
            "penalties": list(result.penalties),
        }
        return [Event("round_over", seat, detail=detail)]

    def _block(self, reason: Literal["stock", "turns"]) -> list[Event]:
        result = self._score(None, blocked_reason=reason)
        detail = {
            "outcome": "blocked",
            "reason": reason,
            "winners": list(result.winners),
            "penalties": list(result.penalties),
        }
        return [Event("round_over", None, detail=detail)]

    def _score(
        self,
        winner: int | None,
        *,
        rami_sec: bool = False,
        blocked_reason: Literal["stock", "turns"] | None = None,
    ) -> RamiRoundResult:
        """Score the round (``winner`` went out, or nobody: it is blocked), every hand
        revealed, and end it."""
        penalties, raw, winners = score_round(
            self.rules,
            self.hands,
            self.opened,
            winner=winner,
            rami_sec=rami_sec,
            active=self.active,
        )
        result = RamiRoundResult(
            outcome="blocked" if winner is None else "out",
            winners=winners,
            penalties=penalties,
            hand_values=raw,
            opened=tuple(self.opened),
            hands=tuple(tuple(self.hand_cards(s)) for s in range(self.players)),
            rami_sec=rami_sec,
            blocked_reason=blocked_reason,
        )
        self._finish(result)
        return result

    def _finish(self, result: RamiRoundResult) -> None:
        self.result = result
        self.phase = "over"
        self.taken_card = None
