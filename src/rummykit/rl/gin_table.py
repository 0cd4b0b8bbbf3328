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

What a seat sees is a :class:`~rummykit.rl.gin_view.SeatView`, derived only from the
engine's ``observation(seat)``: at every new deal (and at the end of a match) the view
is rebuilt from a full observation; inside a hand it is updated from each new event as
that seat sees it. The tests check at every step that the incremental view equals the
view rebuilt from the full observation, and ``incremental=False`` always rebuilds it.

>>> table = GinTable()
>>> table.reset(seed=7)
>>> table.current_player, [table.action_string(i) for i in table.legal_ids()]
(0, ['Draw upcard', 'Pass'])
>>> table.step(54)
[0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from rummykit.cards import format_card, format_cards
from rummykit.core import Event
from rummykit.games.gin import (
    GinAction,
    GinHand,
    GinHandResult,
    GinMatch,
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
from rummykit.rl.gin_view import SeatView
from rummykit.rl.table import Episode, EpisodeTable, RewardKind

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


def _signed(winner: int | None, value: int) -> list[float]:
    """``value`` to the winner and its negation to the other seat (zero-sum)."""
    if winner is None or value == 0:
        return [0.0, 0.0]
    return [float(value), -float(value)] if winner == 0 else [-float(value), float(value)]


@dataclass(slots=True)
class _Pending:
    """The knocker's macro in progress."""

    stage: Literal["knock_card", "knock_melds"]
    card: int = -1
    melds: list[int] = field(default_factory=list)
    covered: int = 0


class GinTable(EpisodeTable[GinAction, GinHand, GinMatch, GinRules, Episode, RewardKind]):
    """One gin episode (a hand or a match) driven by the 241 action ids.

    Args:
        rules: the gin options (reference rules by default): a
            :class:`~rummykit.games.gin.GinRules` or a mapping of its options.
        episode: ``hand`` or ``match``.
        reward: ``points`` (zero-sum score points: in a match each hand's points as it
            is scored, then the bonuses, so an episode sums to the difference of the
            final totals) or ``win`` (+1 / -1 / 0 for the episode's winner).
        knock_melds: ``auto`` (the engine lays the knocker's best melds) or ``choose``.
        dealer: the dealer of a hand (or the first dealer of a match); ``None`` draws
            it from the episode seed.
        incremental: keep seat views up to date from events (fast); ``False`` rebuilds
            them from a full ``observation(seat)`` at every step (reference).
        players: 2 (gin's only seat count).
    """

    game_name = "gin"
    num_actions = NUM_ACTIONS
    action_string = staticmethod(action_string)
    zero_sum = True
    automatic_phase = "layoff"
    multi_id_macros = True

    def __init__(
        self,
        rules: GinRules | Mapping[str, Any] | None = None,
        *,
        episode: Episode = "hand",
        reward: RewardKind = "points",
        knock_melds: KnockMelds = "auto",
        dealer: int | None = None,
        incremental: bool = True,
        players: int = 2,
    ) -> None:
        if knock_melds not in ("auto", "choose"):
            raise ValueError(f"knock_melds must be 'auto' or 'choose', not {knock_melds!r}")
        super().__init__(rules, players=players, episode=episode, reward=reward, dealer=dealer)
        if knock_melds == "choose" and self.rules.ace_high_runs:
            raise ValueError(
                "knock_melds='choose' needs ace-low runs: the action encoding has no Q-K-A run"
            )
        self.knock_melds: KnockMelds = knock_melds
        self.incremental = incremental
        self._pending: _Pending | None = None
        self._knocks: dict[int, GinAction] = {}
        self._big_gin: GinAction | None = None
        self._views: list[SeatView] = [SeatView(), SeatView()]
        self._views_version = -1

    # -- state ---------------------------------------------------------------------------

    @property
    def hand(self) -> GinHand:
        """The current (or last) hand."""
        return self.deal

    @property
    def match(self) -> GinMatch | None:
        """The match in ``match`` episodes."""
        return self._game

    def seat_state(self, seat: int) -> tuple[SeatView, str | None, int]:
        """``(view(seat), *knock_stage(seat))`` in one call (the observation encoder's)."""
        if not self.incremental:
            return (self.view(seat), *self.knock_stage(seat))
        view = self._views[seat]
        hand = self._deal
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
        hand = self._deal
        assert hand is not None
        view.phase = hand.phase
        view.to_act = hand.current_player == seat
        return view

    def reference_view(self, seat: int) -> SeatView:
        """The view rebuilt from a full ``observation(seat)`` (for tests and checks)."""
        game = self._game if self._game is not None else self.hand
        return SeatView.from_observation(game.observation(seat))

    def macro_text(self, seat: int) -> str:
        stage, melds = self.knock_stage(seat)
        return f"knock macro {stage} {format_cards(cards_of_mask(melds))}" if stage else ""

    @classmethod
    def pack(cls, rules: GinRules, players: int) -> list[int]:
        return list(range(52))

    @classmethod
    def deal_bound(cls, rules: GinRules) -> float:
        """A defender's deadwood is at most 100, plus the largest bonus."""
        bonus = max(rules.gin_bonus, rules.big_gin_bonus, rules.undercut_bonus + rules.knock_limit)
        return float(100 + bonus)

    def _clone_into(self, other: GinTable) -> None:
        pending = self._pending
        if pending is not None:
            other._pending = _Pending(
                pending.stage, pending.card, list(pending.melds), pending.covered
            )
        other._knocks = dict(self._knocks)
        other._views = [replace(view, pile=list(view.pile)) for view in self._views]

    def hidden_classes(self, seat: int) -> list[set[int]]:
        """The stock and the opponent's cards not taken from the pile: all hidden since
        the deal (gin never refills its stock)."""
        obs = self.hand.observation(seat)
        seen = {*obs.hand, *obs.discard_pile, *obs.opponent_known_cards}
        return [set(range(52)) - {int(card) for card in seen}]

    def adopt_deal(self, deal: GinHand, seat: int) -> None:
        # The knock macro half done is the knocker's secret: it survives a resampling
        # for the knocker; for the other seat the knocker (whose hand changed) has not
        # started it.
        pending = self._pending if seat == self.current_player else None
        super().adopt_deal(deal, seat)
        if pending is not None:
            self._pending = pending
            self._legal, self._actions = self._choices()

    # -- the engine ------------------------------------------------------------------------

    def _new_deal(self, seed: int | None, dealer: int, deck: Sequence[int] | None) -> GinHand:
        return new_hand(self.rules, seed, dealer=dealer, deck=deck)

    def _current_deal(self, game: GinMatch) -> GinHand:
        return game.hand

    def _in_macro(self) -> bool:
        return self._pending is not None

    def _result_text(self, result: dict[str, Any]) -> str:
        return f": {result['outcome']}, winner {result['winner']}, {result['points']} points"

    def _deal_rewards(self, result: GinHandResult) -> list[float]:
        return _signed(result.winner, result.points)

    def _win_rewards(self) -> list[float]:
        if self._game is not None:
            return super()._win_rewards()
        result = self.hand.result
        assert result is not None
        return _signed(result.winner, min(result.points, 1))

    def _game_bonus(self, game: GinMatch) -> list[float]:
        """The bonuses (game, line, shutout): the final totals' difference less the
        hands' points already paid."""
        final = game.result
        assert final is not None
        points = final.hand_points
        bonus = (final.totals[0] - final.totals[1]) - (points[0] - points[1])
        return [bonus, -bonus]

    def _game_info(self, game: GinMatch) -> dict[str, Any]:
        return {"scores": list(game.points)}

    # -- the knock macro -------------------------------------------------------------------

    def _macro(self, action_id: int) -> GinAction | None:
        pending = self._pending
        if pending is None:  # 55: start the knock macro
            self._pending = _Pending("knock_card")
            return None
        if pending.stage == "knock_card":  # knock_melds="choose": the melds come next
            pending.stage = "knock_melds"
            pending.card = action_id
            return None
        if action_id == PASS:
            melds = [MELD_CARDS[i - MELD_BASE] for i in sorted(pending.melds)]
            return GinAction.knock(pending.card, melds)
        pending.melds.append(action_id)
        pending.covered |= MELD_MASKS[action_id - MELD_BASE]
        return None

    # -- seat views ------------------------------------------------------------------------

    def _update(self, events: Sequence[Event] | None) -> None:
        if events is None:
            self._pending = None
            self._snapshot()
            return
        if not events:
            return
        self._pending = None
        if not self.incremental:
            return
        if len(events) == 1 and events[0].kind not in _BOUNDARY:
            # The usual step: one event, which the engine has just appended to each
            # seat's filtered history (``hand.seen``, what ``observation()`` shows).
            event = events[0]
            first, second = self._views
            visible = event.visible_to
            hand = self._deal
            assert hand is not None
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

    def _fold(self, events: Sequence[Event]) -> None:
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

    def _snapshot(self) -> None:
        self._views = [self.reference_view(0), self.reference_view(1)]
        self._views_version = self.version

    # -- legal ids -----------------------------------------------------------------------

    def _choices(self) -> tuple[list[int], list[GinAction | None]]:
        hand = self._deal
        assert hand is not None
        pending = self._pending
        legal: list[int]
        actions: list[GinAction | None]
        if pending is None:
            engine_actions = hand.legal_actions()
            if hand.phase == "discard":
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
            if self.knock_melds == "choose":
                actions = [None] * len(legal)
            else:
                actions = [self._knocks[card] for card in legal]
            if self._big_gin is not None:
                legal.append(PASS)
                actions.append(self._big_gin)
        else:
            legal = sorted(self._meld_choices(pending))
            actions = [None] * len(legal)
        return legal, actions

    def _meld_choices(self, pending: _Pending) -> list[int]:
        """Meld ids that keep a legal knock reachable, then ``PASS`` if it is legal now."""
        limit = self.rules.knock_limit
        free = self.view(self.current_player).hand & ~(1 << pending.card) & ~pending.covered
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
    return table.seat_text(lines, legal=False)
