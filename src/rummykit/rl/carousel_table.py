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
  finds a hand card to lay (then every one of them has a placement); each layout is
  searched only when its id is chosen, and the mask itself rarely needs a search
  (:mod:`rummykit.rl.carousel_melds`).

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

from collections.abc import Sequence
from typing import Any, Final, Literal

from rummykit.cards import DeckSpec, build_deck, format_cards
from rummykit.games.carousel import (
    CarouselAction,
    CarouselGame,
    CarouselHand,
    CarouselHandResult,
    CarouselRules,
    Placement,
    best_placement,
    can_place,
    new_hand,
    tries_quick_path,
)
from rummykit.rl.carousel_actions import (
    DRAW,
    END_TURN,
    KNOCK,
    NUM_ACTIONS,
    PLACE_BEST,
    PLACE_FEW_CHANGES,
    PLACE_MOST,
    action_string,
)
from rummykit.rl.carousel_melds import (
    TableFacts,
    could_place,
    simple_meld,
    simple_melds,
    table_facts,
)
from rummykit.rl.table import EpisodeTable

__all__ = ["CarouselEpisode", "CarouselReward", "CarouselTable", "describe"]

CarouselEpisode = Literal["hand", "game"]
"""``hand``: one hand is an episode; ``game``: hands until the target, with the bonuses."""
CarouselReward = Literal["points", "win"]
"""``points``: each hand's points (and the bonuses at the end of a game); ``win``: +1/-1."""

_FINITE: Final = {"draw": DRAW, "end_turn": END_TURN, "knock": KNOCK}
_MAX_DECKS: Final = 3


class CarouselTable(
    EpisodeTable[
        CarouselAction, CarouselHand, CarouselGame, CarouselRules, CarouselEpisode, CarouselReward
    ]
):
    """One Carousel episode (a hand or a game) for 2-5 seats driven by the 158 ids.

    Args:
        rules: a :class:`~rummykit.games.carousel.CarouselRules`, a mapping of its
            options, or ``None`` (the reference rules).
        players: seats 0 to ``players - 1`` (2-5, default 3).
        episode: ``hand`` or ``game``.
        reward: ``points`` (what each hand pays, the Carousel rules, §5, and in a
            game the end-of-game bonuses; not zero-sum) or ``win`` (+1 to each winner,
            -1 to every other seat at the end of the episode).
        dealer: the dealer (of the first hand); ``None`` draws it from the seed.
    """

    game_name = "carousel"
    num_actions = NUM_ACTIONS
    action_string = staticmethod(action_string)

    def _prepare(self) -> None:
        rules_ = self.rules
        self.decks = rules_.decks_for(self.num_seats)
        self._meld_rules = rules_.meld_rules
        self._values_positive = rules_.ace_high_value > 0 and rules_.joker_value > 0
        self._forget()

    _facts: tuple[object, TableFacts | None]
    """The facts of a table, and the table they are of."""
    _placeable: dict[int, tuple[object, frozenset[int], bool]]
    """Per seat, the last search's answer: (table, hand, a card can be laid)."""
    _searched: tuple[object, dict[int, Placement]]
    """The placements searched in one state (the deal, at ``_searched_version``), by id."""
    _searched_version: int

    def _forget(self) -> None:
        """Drop every answer kept about the table and the hands."""
        self._facts = (None, None)
        self._placeable = {}
        self._searched = (None, {})
        self._searched_version = -1

    @property
    def hand(self) -> CarouselHand:
        """The current (or last) hand."""
        return self.deal

    # -- the engine ------------------------------------------------------------------------

    def _new_deal(self, seed: int | None, dealer: int, deck: Sequence[int] | None) -> CarouselHand:
        return new_hand(self.rules, players=self.num_seats, seed=seed, dealer=dealer, deck=deck)

    def _current_deal(self, game: CarouselGame) -> CarouselHand:
        return game.hand

    def _result_text(self, result: dict[str, Any]) -> str:
        return f" ({result['reason']}): points " + " ".join(map(str, result["points"]))

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
        """A simple meld's layout, or a placement, searched only when chosen, once per
        state (``action_for`` then ``step`` search once; "few changes" is the best
        placement itself unless the solver would try its quick layout first)."""
        hand = self.deal
        rules = self.rules
        table, cards = hand.table, hand.hands[hand.current_player]
        if action_id < DRAW:
            return simple_meld(self.table_facts(), table, cards, action_id)
        kept, searched = self._searched
        if kept is not hand or self._searched_version != self.version:
            searched = {}
            self._searched = (hand, searched)
            self._searched_version = self.version
        few_changes = action_id == PLACE_FEW_CHANGES
        if few_changes and not tries_quick_path(
            table, cards, rules=self._meld_rules, few_changes=True
        ):
            action_id, few_changes = PLACE_BEST, False
        placement = searched.get(action_id)
        if placement is None:
            found = best_placement(
                table,
                cards,
                rules=self._meld_rules,
                decks=self.decks,
                joker_copy_limit=rules.joker_copy_limit,
                joker_value=rules.joker_value,
                objective="count" if action_id == PLACE_MOST else "value",
                few_changes=few_changes,
            )
            assert found is not None, "the solver found a placement for one objective only"
            placement = searched[action_id] = found
        # A placement's layout is engine cards already: no notation to parse.
        return CarouselAction("meld", placement.layout)

    def _clone_into(self, other: CarouselTable) -> None:
        # The caches hold answers about this table's hands: a clone (or a resampled
        # deal, adopted by a clone) starts afresh.
        other._forget()

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

    def table_facts(self) -> TableFacts:
        """The facts of the current (public) table, kept until the table changes (the
        engine makes a new table list at every meld)."""
        table = self.deal.table
        kept, facts = self._facts
        if kept is not table or facts is None:
            facts = table_facts(table)
            self._facts = (table, facts)
        return facts

    def _simple_melds(self, hand: CarouselHand, actions: dict[int, CarouselAction | None]) -> None:
        # Each layout is built only when its id is chosen (:meth:`_macro`).
        cards = hand.hands[hand.current_player]
        found = simple_melds(
            self.table_facts(), cards, decks=self.decks, copy_limit=self.rules.joker_copy_limit
        )
        actions.update(dict.fromkeys(found))

    def _placements(self, hand: CarouselHand, actions: dict[int, CarouselAction | None]) -> None:
        """The solver's ids, offered when the solver lays a card. A simple meld lays a
        card worth something (every card is, unless the rules price aces or jokers at
        0), so then the solver has a placement too and runs only when an id is chosen;
        otherwise a quick necessary condition (:func:`could_place`) and a cache of the
        last answer per seat (a hand that could lay a card still can after a draw)
        spare most searches."""
        seat = hand.current_player
        cards = hand.hands[seat]
        facts = self.table_facts()
        if self._values_positive and any(i < DRAW for i in actions):
            placeable = True
        elif not could_place(facts, cards):
            placeable = False
        else:
            table = hand.table
            kept = self._placeable.get(seat)
            held = frozenset(cards)
            known = kept is not None and kept[0] is table and kept[1] <= held
            if known and kept is not None and kept[2]:
                placeable = True  # a hand that could lay a card still can
            elif known and kept is not None and not could_place(facts, cards, held - kept[1]):
                # Nothing could be laid before these cards came: a layout now would
                # have to lay one of them, and none of them can join a meld.
                placeable = False
            else:
                placeable = can_place(
                    table,
                    cards,
                    rules=self._meld_rules,
                    decks=self.decks,
                    joker_copy_limit=self.rules.joker_copy_limit,
                )
                self._placeable[seat] = (table, held, placeable)
        if placeable:
            actions[PLACE_BEST] = None  # each placement is searched only when chosen
            actions[PLACE_MOST] = None
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
    for index, meld in enumerate(obs.table, 1):  # numbered for people, from 1
        lines.append(f"  [{index}] {format_cards(meld)}")
    if table.game is not None:
        lines.append("scores " + " ".join(map(str, obs.scores)))
    return table.seat_text(lines, legal=to_act)
