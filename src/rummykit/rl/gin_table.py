"""Gin as a sequence of decisions by action id: the core every gin environment drives.

:class:`GinTable` wraps a :class:`~rummykit.games.gin.hand.GinHand` (one hand is an
episode) or a :class:`~rummykit.games.gin.match.GinMatch` (a match to the target
with every bonus) and speaks the 241 ids of :mod:`rummykit.rl.gin_actions`:

* the legal ids are exactly the first ids of the engine's legal actions
  (``legal_actions()``); a knock is the two-step macro ``55`` then the knock card;
  ``55`` then ``54`` declares big gin;
* the knocker's melds are laid automatically (the engine's deadwood-minimising
  arrangement), unless ``knock_melds="choose"``: then the knocker picks meld ids after
  the knock card and ends with ``54``; only melds that still allow a legal knock are
  offered, so a knock can always be completed;
* the defender's melds and layoffs are always the engine's optimal show (with
  ``auto_layoff=False`` the table submits that show for the defender);
* an id outside the legal set raises :class:`~rummykit.core.IllegalActionError` and
  changes nothing.

What a seat sees is a :class:`SeatView`, derived only from the engine's
``observation(seat)``: at every new deal (and at the end of a match) the view is rebuilt from a full
observation; inside a hand it is updated from each new event *as that seat sees it*
(``Event.seen_by(seat)``, the filter ``observation()`` applies to its history). The
tests check at every step that the incremental view equals the view rebuilt from the
full observation, and ``incremental=False`` always rebuilds it.

>>> table = GinTable()
>>> table.reset(seed=7)
>>> table.current_player, [table.action_string(i) for i in table.legal_ids()]
(0, ['Draw upcard', 'Pass'])
>>> table.step(54)
[0.0, 0.0]
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from rummykit.cards import format_card, format_cards, parse_card
from rummykit.core import Event
from rummykit.games.gin import (
    GinAction,
    GinHand,
    GinMatch,
    GinObservation,
    GinRules,
    cards_of_mask,
    mask_value,
    min_deadwood_mask,
    new_hand,
)
from rummykit.rl.gin_actions import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELD_CARDS,
    MELD_MASKS,
    NUM_ACTIONS,
    PASS,
    action_string,
)
from rummykit.rl.table import Episode, RewardKind, illegal_action_error

__all__ = ["PHASES", "GinTable", "KnockMelds", "SeatView", "describe"]

KnockMelds = Literal["auto", "choose"]
PHASES: Final = ("offer", "draw", "discard", "knock_card", "knock_melds", "over")
"""Decision phases as the observation shows them: the engine's phases plus the two
steps of the knock macro (shown only to the knocker)."""
_FIRST_ID: Final = {
    "take_upcard": DRAW_UPCARD,
    "draw_discard": DRAW_UPCARD,
    "draw_stock": DRAW_STOCK,
    "pass": PASS,
}
_BOUNDARY: Final = frozenset({"new_hand", "match_over"})
"""Events after which the views are rebuilt from full observations (a new deal, or
the final match scores); every other event is folded into the views."""


@dataclass(slots=True, eq=True)
class SeatView:
    """What one seat knows, as bitmasks and counts (see ``docs/rl.md``)."""

    hand: int = 0
    taken: int = -1
    """The card this seat took from the pile this turn, or -1."""
    pile: list[int] = field(default_factory=list)
    """The discard pile, bottom to top."""
    pile_mask: int = 0
    opponent_known: int = 0
    opponent_discarded: int = 0
    opponent_declined: int = 0
    """Upcards the opponent passed on, and pile tops it left for the stock."""
    stock_size: int = 0
    opponent_hand_size: int = 0
    phase: str = "offer"
    to_act: bool = False
    dealer: bool = False
    scores: tuple[int, int] = (0, 0)
    """Match points of this seat and of the other seat."""
    target: int = 100

    @classmethod
    def from_observation(cls, observation: GinObservation) -> SeatView:
        """The view of a full engine observation (the reference derivation)."""
        seat = observation.seat
        history = cls()
        for event in observation.history:
            history.fold(event, seat)
        return cls(
            hand=_mask(observation.hand),
            taken=-1 if observation.taken_card is None else int(observation.taken_card),
            pile=[int(card) for card in observation.discard_pile],
            pile_mask=_mask(observation.discard_pile),
            opponent_known=_mask(observation.opponent_known_cards),
            opponent_discarded=history.opponent_discarded,
            opponent_declined=history.opponent_declined,
            stock_size=observation.stock_size,
            opponent_hand_size=observation.opponent_hand_size,
            phase=observation.phase,
            to_act=observation.current_player == seat,
            dealer=observation.dealer == seat,
            scores=(observation.scores[seat], observation.scores[1 - seat]),
            target=observation.target,
        )

    def fold(self, event: Event, seat: int) -> None:
        """Update the view with one event as ``seat`` sees it."""
        kind = event.kind
        mine = event.seat == seat
        card = event.card
        if kind == "discard":
            assert card is not None
            bit = 1 << card
            self.pile.append(int(card))
            self.pile_mask |= bit
            if mine:
                self.hand &= ~bit
            else:
                self.opponent_known &= ~bit
                self.opponent_discarded |= bit
                self.opponent_hand_size -= 1
            self.taken = -1
        elif kind == "draw_stock":
            self.stock_size -= 1
            if mine:
                assert card is not None
                self.hand |= 1 << card
            else:
                self.opponent_hand_size += 1
                if self.pile:
                    self.opponent_declined |= 1 << self.pile[-1]
            self.taken = -1
        elif kind in ("take_upcard", "draw_discard"):
            assert card is not None
            self.pile.pop()
            self.pile_mask &= ~(1 << card)
            if mine:
                self.hand |= 1 << card
                self.taken = int(card)
            else:
                self.opponent_known |= 1 << card
                self.opponent_hand_size += 1
        elif kind == "pass":
            if not mine and self.pile:
                self.opponent_declined |= 1 << self.pile[-1]
        elif kind in ("knock", "gin"):
            assert card is not None
            if mine:
                self.hand &= ~(1 << card)
            else:
                self.opponent_known &= ~(1 << card)
                self.opponent_hand_size -= 1
            self.taken = -1
        elif kind == "big_gin":
            self.taken = -1
        elif kind == "deal":
            upcard = event.detail.get("upcard")
            self.pile = [] if upcard is None else [int(parse_card(str(upcard)))]
            self.pile_mask = _mask(self.pile)


def _signed(winner: int | None, value: int) -> list[float]:
    """``value`` to the winner and its negation to the other seat (zero-sum)."""
    if winner is None or value == 0:
        return [0.0, 0.0]
    return [float(value), -float(value)] if winner == 0 else [-float(value), float(value)]


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


@dataclass(slots=True)
class _Pending:
    """The knocker's macro in progress."""

    stage: Literal["knock_card", "knock_melds"]
    card: int = -1
    melds: list[int] = field(default_factory=list)
    covered: int = 0


class GinTable:
    """One gin episode (a hand or a match) driven by the 241 action ids.

    Args:
        rules: the gin options (reference rules by default).
        episode: ``hand`` or ``match``.
        reward: ``points`` (zero-sum score points: in a match each hand's points as it
            is scored, then the bonuses, so an episode sums to the difference of the
            final totals) or ``win`` (+1 / -1 / 0 for the episode's winner).
        knock_melds: ``auto`` (the engine lays the knocker's best melds) or ``choose``.
        dealer: the dealer of a hand (or the first dealer of a match); ``None`` draws
            it from the episode seed.
        incremental: keep seat views up to date from events (fast); ``False`` rebuilds
            them from a full ``observation(seat)`` at every step (reference).
    """

    num_actions: Final = NUM_ACTIONS
    num_seats: Final = 2
    current_player: int
    """The seat to act (kept up to date after every step: the wrappers read it a lot)."""
    is_over: bool
    """True once the hand (``hand`` episodes) or the match is over."""
    version: int
    """Changes whenever the state changes (the wrappers' cache key)."""

    def __init__(
        self,
        rules: GinRules | None = None,
        *,
        episode: Episode = "hand",
        reward: RewardKind = "points",
        knock_melds: KnockMelds = "auto",
        dealer: int | None = None,
        incremental: bool = True,
    ) -> None:
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        if reward not in ("points", "win"):
            raise ValueError(f"reward must be 'points' or 'win', not {reward!r}")
        if knock_melds not in ("auto", "choose"):
            raise ValueError(f"knock_melds must be 'auto' or 'choose', not {knock_melds!r}")
        if dealer not in (None, 0, 1):
            raise ValueError(f"dealer must be 0, 1 or None, not {dealer!r}")
        rules = rules or GinRules()
        if knock_melds == "choose" and rules.ace_high_runs:
            raise ValueError(
                "knock_melds='choose' needs ace-low runs: the action encoding has no Q-K-A run"
            )
        self.rules = rules
        self.episode: Episode = episode
        self.reward: RewardKind = reward
        self.knock_melds: KnockMelds = knock_melds
        self.dealer = dealer
        self.incremental = incremental
        self._match: GinMatch | None = None
        self._hand: GinHand | None = None
        self._pending: _Pending | None = None
        self._legal: list[int] = []
        self._actions: list[GinAction | None] = []
        """The engine action of each legal id (``None``: a step of the knock macro)."""
        self._knocks: dict[int, GinAction] = {}
        self._big_gin: GinAction | None = None
        self._views: list[SeatView] = [SeatView(), SeatView()]
        self._views_version = -1
        self.version = 0
        self.current_player = 0
        self.is_over = False
        self.last_result: dict[str, Any] | None = None
        """The last finished hand's result (JSON form), for ``info``."""

    # -- state ---------------------------------------------------------------------------

    @property
    def hand(self) -> GinHand:
        """The current (or last) hand."""
        if self._hand is None:
            raise RuntimeError("call reset() before using the table")
        return self._hand

    @property
    def match(self) -> GinMatch | None:
        """The match in ``match`` episodes."""
        return self._match

    def reset(self, seed: int | None = None, *, deck: Sequence[int] | None = None) -> None:
        """Deal a new episode from ``seed`` (or, for a hand, an explicit card order)."""
        rng = random.Random(seed) if seed is not None else None
        if self.episode == "match":
            if deck is not None:
                raise ValueError("an explicit deck deals a single hand, not a match")
            self._match = GinMatch(self.rules, seed, first_dealer=self.dealer)
            self._hand = self._match.hand
        else:
            dealer = self.dealer
            if dealer is None:
                dealer = (rng or random.Random()).randrange(2)
            self._match = None
            hand_seed = rng.getrandbits(63) if rng is not None else None
            self._hand = new_hand(self.rules, hand_seed, dealer=dealer, deck=deck)
        self._pending = None
        self.last_result = None
        self.version += 1
        self._snapshot()
        self._compute_choices()

    def legal_ids(self) -> list[int]:
        """Ascending legal ids of the seat to act (empty once the episode is over)."""
        return self._legal

    def action_string(self, action_id: int) -> str:
        return action_string(action_id)

    def seat_state(self, seat: int) -> tuple[SeatView, str | None, int]:
        """``(view(seat), *knock_stage(seat))`` in one call (the observation encoder's)."""
        if not self.incremental:
            return (self.view(seat), *self.knock_stage(seat))
        view = self._views[seat]
        hand = self._hand
        assert hand is not None
        view.phase = hand.phase
        to_act = view.to_act = hand.current_player == seat
        pending = self._pending
        if pending is None or not to_act:
            return view, None, 0
        return view, pending.stage, pending.covered

    def knock_stage(self, seat: int) -> tuple[str | None, int]:
        """``(phase, melds mask)`` of ``seat``'s knock macro, or ``(None, 0)``."""
        pending = self._pending
        if pending is None or seat != self.current_player:
            return None, 0
        return pending.stage, pending.covered

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now (shared object: do not modify)."""
        if not self.incremental:
            if self._views_version != self.version:
                self._snapshot()
            return self._views[seat]
        view = self._views[seat]
        hand = self._hand
        assert hand is not None
        view.phase = hand.phase
        view.to_act = hand.current_player == seat
        return view

    def clone(self) -> GinTable:
        """An independent copy (the engine's cheap ``clone``, not a deep copy)."""
        other = GinTable.__new__(GinTable)
        other.__dict__.update(self.__dict__)
        if self._match is not None:
            other._match = self._match.clone()
            other._hand = other._match.hand
        elif self._hand is not None:
            other._hand = self._hand.clone()
        pending = self._pending
        if pending is not None:
            other._pending = _Pending(
                pending.stage, pending.card, list(pending.melds), pending.covered
            )
        other._legal = list(self._legal)
        other._actions = list(self._actions)
        other._knocks = dict(self._knocks)
        other._views = [replace(view, pile=list(view.pile)) for view in self._views]
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> GinTable:
        return self.clone()

    def reference_view(self, seat: int) -> SeatView:
        """The view rebuilt from a full ``observation(seat)`` (for tests and checks)."""
        game = self._match if self._match is not None else self.hand
        return SeatView.from_observation(game.observation(seat))

    def info(self, seat: int) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.last_result is not None:
            data["last_hand"] = self.last_result
        if self._match is not None:
            data["scores"] = list(self._match.points)
            if self._match.result is not None:
                data["match"] = self._match.result.to_json()
        return data

    # -- stepping --------------------------------------------------------------------------

    def step(self, action_id: int) -> list[float]:
        """Apply one id for the seat to act; each seat's reward for this step."""
        legal = self._legal
        if type(action_id) is int:
            key = action_id
        else:
            try:
                key = -1 if isinstance(action_id, bool) else operator.index(action_id)
            except TypeError:
                key = -1
        try:
            index = legal.index(key)
        except ValueError:
            seat = self.hand.current_player
            raise illegal_action_error(
                action_id, seat, legal, [action_string(i) for i in legal]
            ) from None
        pending = self._pending
        if pending is None:
            action = self._actions[index]
            if action is None:  # 55: start the knock macro
                self._pending = _Pending("knock_card")
                self._changed()
                return [0.0, 0.0]
            return self._apply(action)
        if pending.stage == "knock_card":
            if key == PASS:
                assert self._big_gin is not None
                return self._apply(self._big_gin)
            if self.knock_melds == "choose":
                pending.stage = "knock_melds"
                pending.card = key
                self._changed()
                return [0.0, 0.0]
            return self._apply(self._knocks[key])
        if key == PASS:
            melds = [MELD_CARDS[i - MELD_BASE] for i in sorted(pending.melds)]
            return self._apply(GinAction.knock(pending.card, melds))
        pending.melds.append(key)
        pending.covered |= MELD_MASKS[key - MELD_BASE]
        self._changed()
        return [0.0, 0.0]

    def apply_action(self, action: GinAction) -> list[float]:
        """Apply an engine action for the seat to act, bypassing the id macros (bots).

        Raises :class:`~rummykit.core.IllegalActionError` (state unchanged) when the
        engine rejects it or a knock macro is in progress.
        """
        if self._pending is not None:
            raise illegal_action_error(
                str(action),
                self.current_player,
                self._legal,
                [action_string(i) for i in self._legal],
            )
        return self._apply(action)

    def _changed(self) -> None:
        self.version += 1
        self._compute_choices()

    def _apply(self, action: GinAction) -> list[float]:
        match = self._match
        hand = self._hand
        assert hand is not None
        if match is not None:
            results_before = len(match.results)
            events = match.apply(action)
            # The defender's show: always the engine's optimal one.
            while hand.phase == "layoff":
                events.extend(match.apply(hand.legal_actions()[0]))
            self._hand = match.hand
            rewards = self._match_rewards(results_before)
        else:
            events = hand.apply(action)
            while hand.phase == "layoff":
                events.extend(hand.apply(hand.legal_actions()[0]))
            rewards = [0.0, 0.0] if hand.result is None else self._hand_rewards()
        self._pending = None
        if self.incremental:
            if len(events) == 1 and events[0].kind not in _BOUNDARY:
                # The usual step: one event, which the engine has just appended to each
                # seat's filtered history (``hand.seen``, what ``observation()`` shows).
                event = events[0]
                first, second = self._views
                visible = event.visible_to
                if visible is None:
                    first.fold(event, 0)
                    second.fold(event, 1)
                elif hand.seen[visible][-1] is event:
                    first.fold(hand.seen[0][-1], 0)
                    second.fold(hand.seen[1][-1], 1)
                else:
                    self._fold(events)
            else:
                self._fold(events)
        self.version += 1
        self._compute_choices()
        return rewards

    def _fold(self, events: list[Event]) -> None:
        """Bring both views up to date with the new events, each as that seat sees it."""
        for event in events:
            if event.kind in _BOUNDARY:
                self._snapshot()
                return
        first, second = self._views
        for event in events:
            visible = event.visible_to
            first.fold(event if visible is None or visible == 0 else event.seen_by(0), 0)
            second.fold(event if visible is None or visible == 1 else event.seen_by(1), 1)

    def _hand_rewards(self) -> list[float]:
        result = self.hand.result
        if result is None:
            return [0.0, 0.0]
        self.last_result = result.to_json()
        value = result.points if self.reward == "points" else min(result.points, 1)
        return _signed(result.winner, value)

    def _match_rewards(self, results_before: int) -> list[float]:
        match = self._match
        assert match is not None
        new = match.results[results_before:]
        if not new:
            return [0.0, 0.0]
        self.last_result = new[-1].to_json()
        rewards = [0.0, 0.0]
        if self.reward == "points":
            for result in new:
                gained = _signed(result.winner, result.points)
                rewards = [rewards[0] + gained[0], rewards[1] + gained[1]]
        final = match.result
        if final is not None:
            if self.reward == "win":
                rewards = _signed(final.winner, 1)
            else:
                points = final.hand_points
                bonus = (final.totals[0] - final.totals[1]) - (points[0] - points[1])
                rewards = [rewards[0] + bonus, rewards[1] - bonus]
        return rewards

    def _snapshot(self) -> None:
        self._views = [self.reference_view(0), self.reference_view(1)]
        self._views_version = self.version

    # -- legal ids -----------------------------------------------------------------------

    def _compute_choices(self) -> None:
        """The legal ids (ascending) and the engine action of each, after any change."""
        hand = self._hand
        assert hand is not None
        legal: list[int]
        actions: list[GinAction | None]
        pending = self._pending
        phase = hand.phase
        if phase == "over":
            legal, actions = [], []
        elif pending is None:
            engine_actions = hand.legal_actions()
            if phase == "discard":
                # The engine lists the discards in card order, then the knocks and big
                # gin (the tests check that the ids come out ascending).
                actions = engine_actions  # type: ignore[assignment]
                # ``+ 0``: the plain int of a Card, cheaper than int().
                legal = [
                    action.card + 0  # type: ignore[operator]
                    for action in engine_actions
                    if action.kind == "discard"
                ]
                knocks: dict[int, GinAction] = {}
                big_gin = None
                if len(legal) < len(actions):
                    actions = actions[: len(legal)]
                    for action in engine_actions[len(legal) :]:
                        if action.kind == "knock":
                            knocks[int(action.card)] = action  # type: ignore[arg-type]
                        else:
                            big_gin = action
                    legal.append(KNOCK)
                    actions.append(None)
                self._knocks = knocks
                self._big_gin = big_gin
            else:  # one or two draws, or the upcard offer
                legal = [_FIRST_ID[action.kind] for action in engine_actions]
                actions = engine_actions  # type: ignore[assignment]
                if len(legal) == 2 and legal[0] > legal[1]:
                    legal.reverse()
                    actions = actions[::-1]
        elif pending.stage == "knock_card":
            legal = sorted(self._knocks)
            actions = [self._knocks[card] for card in legal]
            if self._big_gin is not None:
                legal.append(PASS)
                actions.append(self._big_gin)
        else:
            legal = sorted(self._meld_choices(pending))
            actions = [None] * len(legal)
        self._legal = legal
        self._actions = actions
        self.current_player = hand.current_player
        match = self._match
        self.is_over = phase == "over" if match is None else match.result is not None

    def _meld_choices(self, pending: _Pending) -> list[int]:
        """Meld ids that keep a legal knock reachable, then ``PASS`` if it is legal now."""
        seat = self.hand.current_player
        limit = self.rules.knock_limit
        free = self.view(seat).hand & ~(1 << pending.card) & ~pending.covered
        ids = [
            MELD_BASE + i
            for i, mask in enumerate(MELD_MASKS)
            if mask & free == mask and min_deadwood_mask(free & ~mask) <= limit
        ]
        if mask_value(free) <= limit:
            ids.append(PASS)
        return ids


def describe(table: GinTable, seat: int) -> str:
    """A short text of what ``seat`` sees (for ``render``)."""
    view = table.view(seat)
    stage, _ = table.knock_stage(seat)
    upcard = format_card(view.pile[-1]) if view.pile else "-"
    lines = [
        f"seat {seat} ({stage or view.phase}{', to act' if view.to_act else ''}): "
        f"hand {format_cards(cards_of_mask(view.hand))}",
        f"upcard {upcard}, stock {view.stock_size}, opponent holds {view.opponent_hand_size}"
        + (
            f" incl. {format_cards(cards_of_mask(view.opponent_known))}"
            if view.opponent_known
            else ""
        ),
    ]
    if table.match is not None:
        lines.append(f"match points {view.scores[0]}-{view.scores[1]} (target {view.target})")
    if table.is_over and table.last_result is not None:
        result = table.last_result
        lines.append(
            f"hand over: {result['outcome']}, winner {result['winner']}, {result['points']} points"
        )
    return "\n".join(lines)
