"""Carousel as a sequence of decisions by action id: the core ``carousel_v0`` drives.

:class:`CarouselTable` wraps a :class:`~rummykit.games.carousel.hand.CarouselHand` (one
hand is an episode) or a :class:`~rummykit.games.carousel.game.CarouselGame` (hands
until a score reaches the target, then the bonuses) and speaks the 158 ids of
:mod:`rummykit.rl.carousel_actions`. A meld submits the whole new table, so the ids
stand for layouts built at each decision from the acting seat's hand and the table:

* ``Draw``, ``End turn`` and ``Knock`` are the engine's ``legal_actions()``;
* a lay-off id adds one hand card of its face at an end of the first table meld that
  takes it; a set or run id lays three hand cards as a new meld; the table is
  otherwise unchanged, and an id is offered only when the engine accepts its layout
  (the copy limit with declared jokers is checked by the engine's layout rule);
* the three placement ids are the exact solver's
  (:func:`~rummykit.games.carousel.arrange.best_placement`): offered when the solver
  finds a hand card to lay (then every one of them has a placement); the best-value
  layout is searched at once (it decides the mask), the others only when chosen.

What an agent cannot express: a table rearrangement other than the solver's three
(splitting or joining melds by choice, moving a table joker to a declaration of its
choosing), a lay-off onto a meld other than the first that takes the card, a new meld
of four or more cards or with a joker except through the solver, and the choice of
which copy of a face is laid (copies are indistinguishable to the players).

>>> table = CarouselTable(players=3)
>>> table.reset(seed=1)
>>> table.current_player, [table.action_string(i) for i in table.legal_ids()]
(1, ['Draw'])
>>> table.step(152)
[0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from rummykit.cards import JOKER_FACE, Card, DeckSpec, build_deck, format_cards
from rummykit.games.carousel import (
    CarouselAction,
    CarouselGame,
    CarouselHand,
    CarouselHandResult,
    CarouselRules,
    best_placement,
    new_hand,
)
from rummykit.games.carousel.layout import IllegalLayoutError, check_layout
from rummykit.melds import is_meld
from rummykit.rl.carousel_actions import (
    DRAW,
    END_TURN,
    KNOCK,
    LAYOFF_BASE,
    NUM_ACTIONS,
    PLACE_BEST,
    PLACE_FEW_CHANGES,
    PLACE_MOST,
    RUN_BASE,
    SET_BASE,
    action_string,
)
from rummykit.rl.table import EpisodeTable

__all__ = ["CarouselEpisode", "CarouselReward", "CarouselTable", "describe", "layoff_faces"]

CarouselEpisode = Literal["hand", "game"]
"""``hand``: one hand is an episode; ``game``: hands until the target, with the bonuses."""
CarouselReward = Literal["points", "win"]
"""``points``: each hand's points (and the bonuses at the end of a game); ``win``: +1/-1."""

_FINITE: Final = {"draw": DRAW, "end_turn": END_TURN, "knock": KNOCK}
_MAX_DECKS: Final = 3


def layoff_faces(meld: Sequence[Card]) -> list[int]:
    """The natural faces that join ``meld`` as one more card at an end (a group's
    missing suits, a run's two ends), checked by the meld rule."""
    from rummykit.melds import CAROUSEL_MELDS

    shown = [card.declared if card.is_joker else card for card in meld]
    faces = [card.face for card in shown if card is not None]
    ranks = {face % 13 for face in faces}
    suits = {face // 13 for face in faces}
    if len(ranks) == 1:  # a group: the same rank in another suit
        (rank,) = ranks
        near = [suit * 13 + rank for suit in range(4) if suit not in suits]
    else:  # a run: one step below or above, in its suit
        (suit,) = suits
        near = [suit * 13 + (rank + step) % 13 for rank in ranks for step in (-1, 1)]
        near = [face for face in dict.fromkeys(near) if face % 13 not in ranks]
    return [face for face in near if is_meld((*meld, Card(face)), CAROUSEL_MELDS)]


class CarouselTable(EpisodeTable[CarouselAction, CarouselHand, CarouselGame]):
    """One Carousel episode (a hand or a game) for 2-5 seats driven by the 158 ids.

    Args:
        rules: a :class:`~rummykit.games.carousel.CarouselRules`, a mapping of its
            options, or ``None`` (the reference rules).
        players: seats 0 to ``players - 1`` (2-5, default 3).
        episode: ``hand`` or ``game``.
        reward: ``points`` (what each hand pays, rules/carousel.md section 5, and in a
            game the end-of-game bonuses; not zero-sum) or ``win`` (+1 to each winner,
            -1 to every other seat at the end of the episode).
        dealer: the dealer (of the first hand); ``None`` draws it from the seed.
    """

    game_name = "carousel"
    num_actions = NUM_ACTIONS
    deal_episode = "hand"
    game_episode = "game"
    score_reward = "points"

    def __init__(
        self,
        rules: CarouselRules | Mapping[str, Any] | str | None = None,
        *,
        players: int = 3,
        episode: CarouselEpisode = "hand",
        reward: CarouselReward = "points",
        dealer: int | None = None,
    ) -> None:
        super().__init__(rules, players=players, episode=episode, reward=reward, dealer=dealer)
        rules_ = self.rules
        self.decks = rules_.decks_for(players)
        self._meld_rules = rules_.meld_rules
        self._layoffs: tuple[object, list[tuple[int, frozenset[int]]]] = (None, [])

    def action_string(self, action_id: int) -> str:
        return action_string(action_id)

    @property
    def hand(self) -> CarouselHand:
        """The current (or last) hand."""
        return self.deal

    def action_for(self, action_id: int) -> CarouselAction:
        """The engine action a legal id stands for now (``IllegalActionError`` if none)."""
        index = self._legal_index(action_id)
        action = self._actions[index]
        return self._macro(self._legal[index]) if action is None else action

    # -- the engine ------------------------------------------------------------------------

    def _new_deal(self, seed: int | None, dealer: int, deck: Sequence[int] | None) -> CarouselHand:
        return new_hand(self.rules, players=self.num_seats, seed=seed, dealer=dealer, deck=deck)

    def _current_deal(self, game: CarouselGame) -> CarouselHand:
        return game.hand

    def _deal_rewards(self, result: CarouselHandResult) -> tuple[int, ...]:
        return result.points

    def _game_bonus(self, game: CarouselGame) -> list[float] | None:
        final = game.result
        if final is None:
            return None
        return [float(t - s) for t, s in zip(final.totals, final.scores, strict=True)]

    def _game_info(self, game: CarouselGame) -> dict[str, Any]:
        return {"scores": list(game.scores), "hand": game.hand_number}

    def _macro(self, action_id: int) -> CarouselAction:
        """The count and few-changes placements, searched only when chosen."""
        hand = self.deal
        rules = self.rules
        placement = best_placement(
            hand.table,
            hand.hands[hand.current_player],
            rules=self._meld_rules,
            decks=self.decks,
            joker_copy_limit=rules.joker_copy_limit,
            joker_value=rules.joker_value,
            objective="count" if action_id == PLACE_MOST else "value",
            few_changes=action_id == PLACE_FEW_CHANGES,
        )
        assert placement is not None, "the solver found a placement for one objective only"
        return CarouselAction.meld(placement.layout)

    def hidden_classes(self, seat: int) -> list[set[int]]:
        """The stock and the other hands: all hidden since the deal (Carousel has no
        discard pile and never refills its stock)."""
        obs = self.deal.observation(seat)
        seen = {card.physical for meld in obs.table for card in meld}
        seen.update(obs.hand)
        return [set(self.pack(self.rules, self.num_seats)) - {int(card) for card in seen}]

    @classmethod
    def pack(cls, rules: CarouselRules, players: int) -> list[int]:
        decks = rules.decks_for(players)
        return [int(card) for card in build_deck(DeckSpec(decks=decks, jokers=decks))]

    @classmethod
    def deal_bound(cls, rules: CarouselRules) -> float:
        # Hands only grow (no discards): at worst four other seats hold three whole packs.
        pack = 4 * sum(min(rank + 1, 10) for rank in range(13)) + rules.joker_value
        pack = max(pack, 4 * 13 * rules.ace_high_value + rules.joker_value)
        return float(4 * _MAX_DECKS * pack + rules.undercut_bonus + rules.going_out_bonus)

    # -- legal ids -----------------------------------------------------------------------

    def _choices(self) -> tuple[list[int], list[CarouselAction | None]]:
        # The acting seat's own hand and the public table, read from the engine (the
        # same as its observation(seat) shows, without building the whole history).
        hand = self._deal
        assert hand is not None
        actions: dict[int, CarouselAction | None] = {}
        for action in hand.legal_actions():
            actions[_FINITE[action.kind]] = action
        if hand.may_meld():
            self._simple_melds(hand, actions)
            self._placements(hand, actions)
        legal = sorted(actions)
        return legal, list(map(actions.__getitem__, legal))

    def _table_layoffs(self, table: list[tuple[Card, ...]]) -> list[tuple[int, frozenset[int]]]:
        """Per table meld, the faces it takes as a lay-off (kept until the table changes:
        the engine makes a new list at every meld)."""
        kept, layoffs = self._layoffs
        if kept is not table:
            layoffs = [(index, frozenset(layoff_faces(meld))) for index, meld in enumerate(table)]
            self._layoffs = (table, layoffs)
        return layoffs

    def _simple_melds(self, hand: CarouselHand, actions: dict[int, CarouselAction | None]) -> None:
        cards = hand.hands[hand.current_player]
        by_face: dict[int, Card] = {}
        for card in sorted(cards):
            face = card & 63
            if face != JOKER_FACE:
                by_face.setdefault(face, card)
        table = hand.table
        jokers = any(card.is_joker for meld in table for card in meld)
        candidates: list[tuple[int, list[tuple[Card, ...]]]] = []
        for index, faces in self._table_layoffs(table):
            for face in faces:
                action_id = LAYOFF_BASE + face
                if face in by_face and action_id not in actions:
                    layout = list(table)
                    layout[index] = (*table[index], by_face[face])
                    candidates.append((action_id, layout))
        present = [face in by_face for face in range(52)]
        for rank in range(13):
            suits = [suit for suit in range(4) if present[suit * 13 + rank]]
            for missing in range(4):
                chosen = [suit for suit in suits if suit != missing]
                if len(chosen) == 3:
                    meld = tuple(by_face[suit * 13 + rank] for suit in chosen)
                    candidates.append((SET_BASE + 4 * rank + missing, [*table, meld]))
        for suit in range(4):
            base = suit * 13
            for low in range(12):
                faces3 = (base + low, base + low + 1, base + (low + 2) % 13)
                if present[faces3[0]] and present[faces3[1]] and present[faces3[2]]:
                    meld = tuple(by_face[face] for face in faces3)
                    candidates.append((RUN_BASE + 12 * suit + low, [*table, meld]))
        for action_id, layout in candidates:
            # Natural hand cards next to a table without jokers always pass the layout
            # rule; a declared joker may hold the last copy of a face (copy limit).
            if jokers and not self._accepted(table, layout, cards):
                continue
            actions[action_id] = CarouselAction.meld(layout)

    def _accepted(
        self, table: Sequence[Sequence[int]], layout: Sequence[Sequence[int]], cards: list[Card]
    ) -> bool:
        try:
            check_layout(
                table,
                layout,
                cards,
                rules=self._meld_rules,
                decks=self.decks,
                joker_copy_limit=self.rules.joker_copy_limit,
            )
        except IllegalLayoutError:
            return False
        return True

    def _placements(self, hand: CarouselHand, actions: dict[int, CarouselAction | None]) -> None:
        rules = self.rules
        placement = best_placement(
            hand.table,
            hand.hands[hand.current_player],
            rules=self._meld_rules,
            decks=self.decks,
            joker_copy_limit=rules.joker_copy_limit,
            joker_value=rules.joker_value,
        )
        if placement is None or not placement.cards:
            return
        actions[PLACE_BEST] = CarouselAction.meld(placement.layout)
        actions[PLACE_MOST] = None  # searched only when chosen
        actions[PLACE_FEW_CHANGES] = None


def describe(table: CarouselTable, seat: int) -> str:
    """A short text of what ``seat`` sees (for ``render``)."""
    obs = table.observation(seat)
    to_act = obs.current_player == seat and not table.is_over
    state = f"drawn {obs.draws}{', melded' if obs.melded else ''}" if to_act else obs.phase
    lines = [
        f"seat {seat} ({state}{', to act' if to_act else ''}"
        f"{', final lap' if obs.final_lap else ''}): hand {format_cards(obs.hand)}",
        f"stock {obs.stock_size}, hand sizes " + " ".join(str(size) for size in obs.hand_sizes),
    ]
    for index, meld in enumerate(obs.table):
        lines.append(f"  [{index}] {format_cards(meld)}")
    if table.game is not None:
        lines.append("scores " + " ".join(map(str, obs.scores)))
    if to_act:
        names = [f"{i} {action_string(i)}" for i in table.legal_ids()]
        lines.append("legal: " + ", ".join(names))
    if table.is_over and table.last_result is not None:
        result = table.last_result
        lines.append(
            f"hand over ({result['reason']}): points " + " ".join(map(str, result["points"]))
        )
    return "\n".join(lines)
