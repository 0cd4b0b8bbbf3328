"""The Rami engine's fast paths agree with the straightforward ones (hypothesis).

Observations are built through a mutable twin class and then given their frozen class;
the events of draws, takes and discards are shared objects. Both must be
indistinguishable from objects built the ordinary way.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.bots.rami_heuristic import RamiRandomBot
from rummykit.core import Event
from rummykit.variants.rami import RamiObservation, RamiRound, RamiRules, new_round


def _positions(seed: int, players: int) -> list[RamiRound]:
    rnd = new_round(RamiRules(), players, seed=seed)
    bots = [RamiRandomBot(seed * 7 + seat) for seat in range(players)]
    seen = [rnd.clone()]
    while not rnd.is_over:
        seat = rnd.current_player
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
        if (rnd.phase == "play" and rnd.turn % 9 == 0) or rnd.is_over:
            seen.append(rnd.clone())
    return seen


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_observations_equal_ordinary_frozen_dataclasses(seed: int, players: int) -> None:
    for rnd in _positions(seed, players):
        for seat in range(players):
            fast = rnd.observation(seat)
            ordinary = RamiObservation(
                *(getattr(fast, field.name) for field in dataclasses.fields(RamiObservation))
            )
            assert type(fast) is RamiObservation
            assert fast == ordinary
            assert fast.hand == tuple(sorted(rnd.hands[seat], key=lambda c: (c & 63, c >> 6)))
            with pytest.raises(dataclasses.FrozenInstanceError):
                fast.turn = 0  # type: ignore[misc]
            replaced = dataclasses.replace(fast, scores=(1,) * players, round_number=2)
            assert replaced.scores == (1,) * players and replaced.hand == fast.hand


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_shared_events_equal_freshly_built_ones(seed: int) -> None:
    rnd = _positions(seed, 4)[-1]
    for event in rnd.history:
        fresh = Event(event.kind, event.seat, event.card, event.visible_to, dict(event.detail))
        assert event == fresh
    for seat in range(4):
        for event in rnd.observation(seat).history:
            if event.kind == "draw_stock":
                assert event.card is None or event.visible_to == seat
    replayed = RamiRound.from_record(rnd.to_record())
    assert replayed.history == rnd.history
