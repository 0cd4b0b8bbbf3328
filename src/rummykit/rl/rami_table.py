"""Rami as a sequence of decisions by action id: the core ``rami_v0`` drives.

:class:`RamiTable` wraps a :class:`~rummykit.games.rami.round.RamiRound` (one round is an
episode) or a :class:`~rummykit.games.rami.game.RamiGame` (rounds until the game
ends) and speaks the 165 ids of :mod:`rummykit.rl.rami_actions`. At every decision each
id resolves to one engine action, and the legal ids are exactly those whose action the
engine accepts:

* draws, ``end_play`` and discards come from the engine's ``legal_actions()``; a
  discard id names a face, and the card discarded is a copy of that face the other
  players already know about (taken from the discard pile) when there is one, else the
  first copy;
* the open-ended plays come from the solvers, given only the acting seat's
  ``observation(seat)``: the best opening (:func:`~rummykit.games.rami.opening.best_opening`,
  least penalty left; and the best one without jokers), the first combination of the
  best new combinations (:func:`~rummykit.games.rami.opening.best_melds`, with and
  without jokers), and per face the lay-offs and joker swaps
  (:func:`~rummykit.games.rami.layoffs.legal_moves`): a lay-off goes onto the first
  table combination that takes the card, a swap is the one that leaves the least
  penalty in hand (the freed joker laid off or melded when it can be);
* an id outside the legal set raises :class:`~rummykit.core.IllegalActionError` and
  changes nothing.

The tests check every legal id against the engine (``check()`` accepts its action) and
the lay-off and swap ids against every lay-off and swap the engine accepts.

>>> table = RamiTable(players=3)
>>> table.reset(seed=7)
>>> table.current_player, [table.action_string(i) for i in table.legal_ids()]
(2, ['Draw stock', 'Take discard'])
>>> table.step(158)
[0.0, 0.0, 0.0]
>>> [table.action_string(i) for i in table.legal_ids()]
['End play']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from rummykit.cards import FACES, JOKER_FACE, Card, build_deck, format_card, physical_of
from rummykit.games.rami import (
    RamiAction,
    RamiGame,
    RamiObservation,
    RamiRound,
    RamiRoundResult,
    RamiRules,
    best_melds,
    best_opening,
    can_open,
    combination_from_cards,
    hand_left_playable,
    legal_moves,
    new_round,
)
from rummykit.games.rami.heuristic_bot import bundled_takes
from rummykit.games.rami.tokens import parse_card_token
from rummykit.rl.rami_actions import (
    DRAW_STOCK,
    END_PLAY,
    LAYOFF_BASE,
    MELD,
    MELD_KEEP_JOKERS,
    NUM_ACTIONS,
    OPEN,
    OPEN_KEEP_JOKERS,
    SWAP_BASE,
    TAKE_DISCARD,
    action_string,
)
from rummykit.rl.table import EpisodeTable

__all__ = ["RamiEpisode", "RamiReward", "RamiTable", "describe"]


def _deck_seed(deck: Sequence[int]) -> int:
    """A seed that is a function of the card order (FNV-1a over the card ids)."""
    seed = 0xCBF29CE484222325
    for card in deck:
        seed = ((seed ^ int(card)) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return seed


RamiEpisode = Literal["round", "game"]
"""``round``: one round is an episode; ``game``: rounds until the game ends (section 6)."""
RamiReward = Literal["penalty", "win"]
"""``penalty``: each round's penalty, negated; ``win``: +1 / -1 at the end of the episode."""


def _first_meld(observation: RamiObservation, *, use_jokers: bool) -> RamiAction | None:
    """The first of the solver's best new combinations that the engine accepts now."""
    obs = observation
    rules = obs.rules
    hand = obs.hand
    taken = obs.taken_card
    melds = best_melds(hand, rules, taken=taken, use_jokers=use_jokers)
    if melds is None:
        return None
    for combo in melds.combos:
        left = len(hand) - len(combo)
        if left > 1 or (left == 1 and taken is None):
            return RamiAction.meld(combo)  # the whole-hand checks only bite near the end
        remaining = list(hand)
        for card in combo:
            remaining.remove(card)
        built = combination_from_cards(combo, obs.seat, shifts=rules.end_joker_shifts)
        if hand_left_playable(remaining, [*obs.table, built], rules, taken):
            return RamiAction.meld(combo)
    return None


class RamiTable(EpisodeTable[RamiAction, RamiRound, RamiGame, RamiRules, RamiEpisode, RamiReward]):
    """One Rami episode (a round or a game) for 2-6 seats driven by the 165 action ids.

    Args:
        rules: the options (reference Rami 51 by default): a
            :class:`~rummykit.games.rami.RamiRules`, a mapping of its options, or a
            preset name (``rami51``, ``rami40``, ``rami51-house``, ``rami40-house``).
        players: seats 0 to ``players - 1``.
        episode: ``round`` or ``game``.
        reward: ``penalty`` (each seat's round penalty, negated, paid when the round
            is scored; not zero-sum) or ``win`` (at the end of the episode +1 to each
            winner and -1 to every other seat, 0 to all when every seat wins).
        dealer: the dealer of the round (the first dealer of a game); ``None`` draws
            it from the episode seed.
    """

    game_name = "rami"
    num_actions = NUM_ACTIONS
    action_string = staticmethod(action_string)

    def _prepare(self) -> None:
        self.rules.deck_spec(self.num_seats)  # the rules decide how many players it seats

    @property
    def round(self) -> RamiRound:
        """The current (or last) round."""
        return self.deal

    def load(self, state: RamiRound | RamiGame) -> None:
        """Continue from an existing round or game (a position to study, a test).

        The table plays it from here on (it is not copied); its rules and seats must
        match the table's, and a round goes with ``round`` episodes, a game with ``game``.
        """
        if state.rules != self.rules or state.players != self.num_seats:
            raise ValueError("the state's rules and number of seats must match the table's")
        if isinstance(state, RamiGame):
            if self.episode != "game":
                raise ValueError("a game is loaded into a table with episode='game'")
            self._game, self._deal = state, state.round
        else:
            if self.episode != "round":
                raise ValueError("a round is loaded into a table with episode='round'")
            self._game, self._deal = None, state
        self.last_result = None
        self._advance(None, None)

    # -- the engine ------------------------------------------------------------------------

    def _new_deal(self, seed: int | None, dealer: int, deck: Sequence[int] | None) -> RamiRound:
        # A dealt deck (OpenSpiel's chance nodes, a resampled deal) also fixes the
        # refill shuffles, so that the same deck always plays the same round.
        refill = None if deck is None else _deck_seed(deck)
        return new_round(
            self.rules, self.num_seats, seed, dealer=dealer, deck=deck, refill_seed=refill
        )

    @classmethod
    def pack(cls, rules: RamiRules, players: int) -> list[int]:
        return [int(card) for card in build_deck(rules.deck_spec(players))]

    @classmethod
    def deal_bound(cls, rules: RamiRules) -> float:
        """The largest penalty: a full hand (and the card drawn) of the dearest card,
        doubled when unopened, doubled again by rami sec, plus the bonuses."""
        raw = (rules.hand_size + 2) * max(rules.hand_values())
        _, flat = rules.unopened_rule
        _, bonus = rules.rami_sec_rule
        return float(2 * max(2 * raw, flat) + abs(rules.winner_bonus) + abs(bonus))

    # -- resampling ----------------------------------------------------------------------

    def hidden_classes(self, seat: int) -> list[set[int]]:
        """The cards ``seat`` cannot place: those hidden since the deal, then those of
        each refilled stock (public in the pile before, shuffled by the refill). A card
        that was public and went back to a hand (a joker swapped into the swapper's
        hand) keeps its place."""
        rnd = self.round
        obs = rnd.observation(seat)
        seen: set[int] = set(obs.hand)
        seen.update(obs.discard_pile)
        for combo in obs.table:
            seen.update(physical_of(card) for card in combo.cards)
        for known in obs.known_cards:
            seen.update(known)
        hidden = {card for card in self.pack(self.rules, self.num_seats) if card not in seen}
        public: set[int] = set()
        for event in obs.history:
            if event.card is not None:
                public.add(physical_of(event.card))
            if event.kind == "swap_joker":
                public.add(physical_of(parse_card_token(event.detail["joker"])))
        public.add(int(rnd.deck[self.rules.hand_size * len(obs.active)]))  # the upcard
        refilled = self._refilled_stocks() if rnd.refills else []
        classes = [hidden - public]
        for stock in refilled:
            classes[0] -= stock
            classes.append(hidden & stock)
        return classes

    def _refilled_stocks(self) -> list[set[int]]:
        """The stock right after each refill, by replaying the round (the engine
        knows; a refill shuffles the public pile with the round's refill seed)."""
        rnd = self.round
        replay = new_round(
            self.rules,
            self.num_seats,
            dealer=rnd.dealer,
            deck=rnd.deck,
            refill_seed=rnd.refill_seed,
        )
        stocks: list[set[int]] = []
        for action in rnd.actions:
            replay.apply(action)
            if replay.refills > len(stocks):
                stocks.append({int(card) for card in replay.stock})
        return stocks

    def redeal(self, deck: Sequence[int]) -> RamiRound:
        rnd = self.round
        return new_round(
            self.rules,
            self.num_seats,
            dealer=rnd.dealer,
            deck=deck,
            refill_seed=rnd.refill_seed,
        )

    def refill_count(self, deal: RamiRound) -> int:
        return deal.refills

    def relabel_stock(self, deal: RamiRound, relabel: dict[int, int]) -> None:
        deal.stock = [Card(relabel.get(card, card)) for card in deal.stock]

    def _current_deal(self, game: RamiGame) -> RamiRound:
        return game.round

    def _result_text(self, result: dict[str, Any]) -> str:
        return f" ({result['outcome']}): penalties " + " ".join(map(str, result["penalties"]))

    def _deal_rewards(self, result: RamiRoundResult) -> list[int]:
        return [-penalty for penalty in result.penalties]

    def _game_info(self, game: RamiGame) -> dict[str, Any]:
        return {"totals": list(game.totals), "round": game.round_number}

    def _macro(self, action_id: int) -> RamiAction:
        """The opening, searched only when chosen (``can_open`` offered it)."""
        assert action_id == OPEN
        obs = self.observation(self.current_player)
        opening = best_opening(obs.hand, obs.rules, taken=obs.taken_card)
        assert opening is not None, "can_open and best_opening disagree"
        return opening.action()

    # -- legal ids -----------------------------------------------------------------------

    def _choices(self) -> tuple[list[int], list[RamiAction | None]]:
        rnd = self._deal
        assert rnd is not None
        actions: dict[int, RamiAction | None] = {}
        phase = rnd.phase
        engine = rnd.legal_actions()
        if phase == "draw":
            for action in engine:
                actions[DRAW_STOCK if action.kind == "draw_stock" else TAKE_DISCARD] = action
            if self.rules.discard_must_be_melded:
                take = self._bundled_take()
                if take is not None:
                    actions[TAKE_DISCARD] = take
        elif phase == "discard":
            self._discards(engine, actions)
        else:
            for action in engine:
                if action.kind == "end_play":
                    actions[END_PLAY] = action
            self._plays(actions)
        legal = sorted(actions)
        return legal, list(map(actions.__getitem__, legal))

    def _discards(self, engine: list[RamiAction], actions: dict[int, RamiAction | None]) -> None:
        """One id per face; the copy the other seats know about, if any, is discarded."""
        seat = self.current_player
        known = self.observation(seat).known_cards[seat]  # taken from the pile: public
        for action in engine:
            card = action.card
            assert card is not None
            face = FACES[card]
            chosen = actions.get(face)
            if chosen is None or (card in known and chosen.card not in known):
                actions[face] = action

    def _plays(self, actions: dict[int, RamiAction | None]) -> None:
        seat = self.current_player
        obs = self.observation(seat)
        rules = obs.rules
        hand = obs.hand
        taken = obs.taken_card
        has_joker = any(FACES[card] == JOKER_FACE for card in hand)
        if not obs.opened[seat]:
            if can_open(hand, rules, taken=taken):
                actions[OPEN] = None  # the best opening is searched only when chosen
                if has_joker:
                    plain = best_opening(hand, rules, taken=taken, use_jokers=False)
                    if plain is not None:
                        actions[OPEN_KEEP_JOKERS] = plain.action()
            return
        if obs.opened_this_turn and not rules.play_after_open_same_turn:
            return
        meld = _first_meld(obs, use_jokers=True)
        if meld is not None:
            actions[MELD] = meld
        if has_joker:
            plain_meld = _first_meld(obs, use_jokers=False)
            if plain_meld is not None:
                actions[MELD_KEEP_JOKERS] = plain_meld
        values = rules.hand_values()
        joker_value = rules.joker_hand_value
        swap_costs: dict[int, int] = {}
        for move in legal_moves(hand, obs.table, rules, taken=taken):
            card = move.card
            assert card is not None
            if move.kind == "layoff":
                actions.setdefault(LAYOFF_BASE + FACES[card], move)
                continue
            # What the swap leaves in hand: the card given, the cards melded with the
            # joker, and the joker itself when it has nowhere to go.
            cost = -values[physical_of(card)]
            if move.joker_cards is not None:
                cost -= sum(values[physical_of(other)] for other in move.joker_cards)
            elif move.joker_target is None:
                cost += joker_value
            action_id = SWAP_BASE + FACES[card]
            if action_id not in swap_costs or cost < swap_costs[action_id]:
                swap_costs[action_id] = cost
                actions[action_id] = move

    def _bundled_take(self) -> RamiAction | None:
        """With ``discard_must_be_melded``: the first take bundled with a play that lays
        the card (the solvers' proposals) that the engine accepts."""
        obs = self.observation(self.current_player)
        rnd = self.round
        for take in bundled_takes(obs):
            if rnd.is_legal(take):
                return take
        return None


def describe(table: RamiTable, seat: int) -> str:
    """A short text of what ``seat`` sees (for ``render``)."""
    obs = table.observation(seat)
    to_act = obs.current_player == seat and not table.is_over
    top = format_card(obs.discard_pile[-1]) if obs.discard_pile else "-"
    opened = "opened" if obs.opened[seat] else "not opened"
    lines = [
        f"seat {seat} ({obs.phase}{', to act' if to_act else ''}, {opened}): "
        f"hand {' '.join(format_card(card) for card in obs.hand)}",
        f"discard top {top}, stock {obs.stock_size}, hand sizes "
        + " ".join(str(size) for size in obs.hand_sizes),
    ]
    for index, combo in enumerate(obs.table, 1):  # numbered for people, from 1
        lines.append(f"  [{index}] {combo} (seat {combo.owner})")
    if table.game is not None:
        lines.append(f"round {obs.round_number}, totals {' '.join(map(str, obs.scores))}")
    return table.seat_text(lines, legal=to_act)
