"""Shared helpers for the Rami tests: rigged positions that keep every physical card.

:func:`rig` rearranges a freshly dealt round into a position (hands, table, discard
pile, top of the stock) by moving physical cards, so card conservation still holds and
the engine's own code runs from there. Cards are physical tokens: ``7H`` is the first
deck's seven of hearts, ``7H@1`` the second deck's, ``JK@2`` the third joker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from rummykit.cards import Card
from rummykit.core import IllegalActionError
from rummykit.games.rami import (
    RamiAction,
    RamiRound,
    RamiRules,
    new_round,
    parse_card_token,
)
from rummykit.games.rami.table import Combination, combination_from_cards


def cards(text: str) -> list[Card]:
    """Physical cards from tokens (``"7H 7H@1 JK"``)."""
    return [parse_card_token(token) for token in text.split()]


def card(text: str) -> Card:
    """One physical card from a token."""
    return parse_card_token(text)


def rig(
    *,
    players: int = 4,
    rules: RamiRules | None = None,
    hands: Mapping[int, str] | None = None,
    table: Sequence[tuple[int, str]] = (),
    discard: str | None = None,
    stock_top: str = "",
    current: int = 0,
    phase: str = "draw",
    opened: Iterable[int] = (),
    taken: str | None = None,
    seed: int = 1,
) -> RamiRound:
    """A round rearranged into a position, every physical card kept.

    ``hands`` gives exact hands (other seats keep their dealt cards minus any claimed);
    ``table`` lists ``(owner, cards)`` combinations; ``discard`` the discard pile,
    bottom to top; ``stock_top`` the next cards of the stock, first drawn first; every
    other card goes to the bottom of the stock.
    """
    rules = rules or RamiRules()
    rnd = new_round(rules, players, seed=seed, dealer=(current - 1) % players)
    everything = rnd.all_cards()
    claimed: list[Card] = []

    def claim(text: str) -> list[Card]:
        wanted = cards(text)
        for one in wanted:
            if one not in everything or one in claimed:
                raise ValueError(f"{one} is not available (missing or claimed twice)")
            claimed.append(one)
        return wanted

    hands = dict(hands or {})
    new_hands = {seat: claim(text) for seat, text in hands.items()}
    new_table: list[Combination] = [
        combination_from_cards(claim(text), owner, shifts=rules.end_joker_shifts)
        for owner, text in table
    ]
    pile = claim(discard) if discard is not None else []
    top = claim(stock_top)
    for seat in range(players):
        if seat not in new_hands:
            new_hands[seat] = [c for c in rnd.hands[seat] if c not in claimed]
            claimed.extend(new_hands[seat])
    if discard is None:
        pile = [c for c in rnd.discard_pile if c not in claimed][-1:]
        claimed.extend(pile)
    rest = [c for c in everything if c not in claimed]
    rnd.hands = [new_hands[seat] for seat in range(players)]
    rnd.table = new_table
    rnd.discard_pile = pile
    rnd.stock = rest + list(reversed(top))
    rnd.opened = [seat in set(opened) for seat in range(players)]
    for combo in new_table:
        rnd.opened[combo.owner] = True
    if any(rnd.opened):
        # Opened seats laid their cards in an earlier turn (no rami sec for them).
        rnd.turn = 8
        rnd.first_laid_turn = [0 if flag else -1 for flag in rnd.opened]
    rnd.current_player = current
    rnd.phase = phase  # type: ignore[assignment]
    if taken is not None:
        rnd.taken_card = card(taken)
        rnd.known[current].append(rnd.taken_card)
    return rnd


def illegal(rnd: RamiRound, action: RamiAction, code: str, *words: str) -> IllegalActionError:
    """Assert ``action`` is illegal with ``code`` (and words in the message), and that
    the state did not change."""
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(action)
    assert info.value.code == code, str(info.value)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert snapshot(rnd) == before
    return info.value


def snapshot(rnd: RamiRound) -> dict[str, Any]:
    """Everything observable about a round, for equality checks."""
    return {
        "phase": rnd.phase,
        "current": rnd.current_player,
        "hands": [sorted(hand) for hand in rnd.hands],
        "table": list(rnd.table),
        "stock": list(rnd.stock),
        "discard": list(rnd.discard_pile),
        "opened": list(rnd.opened),
        "taken": rnd.taken_card,
        "turn": rnd.turn,
        "refills": rnd.refills,
        "known": [list(k) for k in rnd.known],
        "result": rnd.result,
        "actions": len(rnd.actions),
        "history": len(rnd.history),
    }


def table_text(rnd: RamiRound) -> list[str]:
    """The table as notation, one string per combination."""
    return [str(combo) for combo in rnd.table]
