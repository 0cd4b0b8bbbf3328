"""Rami scoring (the Rami rules, section 5): a round's result and its penalties.

Low is good: each seat scores the cards left in hand (pips, courts 10, ace 11, joker
20), doubled or flat for a player who never opened, doubled for everyone after a rami
sec; the player who went out scores the winner's bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rummykit.cards import Card
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.tokens import card_token

__all__ = ["RamiRoundResult", "hand_value", "score_round"]


def hand_value(cards: Iterable[int], rules: RamiRules | None = None) -> int:
    """Penalty of cards left in hand (section 2): pips, courts 10, ace 11, joker 20.

    >>> from rummykit.cards import parse_cards
    >>> hand_value(parse_cards("7C KD AS JK"))
    48
    """
    table = (rules or RamiRules()).hand_values()
    return sum(table[card] for card in cards)


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
        raw[seat] = sum(table[card] for card in hands[seat])
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
