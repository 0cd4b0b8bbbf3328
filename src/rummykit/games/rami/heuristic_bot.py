"""Rami bots: a random bot that can open and lay, and a heuristic bot.

A random bot over ``legal_actions()`` alone would never open: openings, melds, lay-offs
and joker swaps are open-ended, so the engine lists only draws, ``end_play`` and
discards. Both bots therefore add *macro-actions* proposed by the solvers
(:mod:`rummykit.games.rami.opening`, :mod:`rummykit.games.rami.layoffs`) to the
legal list, and every move they make is one the engine accepts.

* :class:`RamiRandomBot` picks uniformly among the legal actions and the solvers'
  moves: the best opening when one exists, the best new combinations, every lay-off
  and joker swap.
* :class:`RamiHeuristicBot` opens as soon as it can (keeping its jokers when the
  opening does not need them), lays every combination and lay-off it can, swaps jokers
  off the table, takes the discard only when the card joins a combination, and
  discards the card that is least useful, heaviest, and least helpful to the next
  player.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from rummykit.cards import FACES, JOKER_FACE, make_rng
from rummykit.errors import BotError, UnknownBotError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.candidates import combination_faces
from rummykit.games.rami.layoffs import (
    hand_left_playable,
    layoff_moves,
    legal_moves,
    swap_moves,
)
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.opening import Opening, best_melds, best_opening
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.table import Combination, combination_from_cards

__all__ = [
    "RAMI_BOTS",
    "RamiHeuristicBot",
    "RamiRandomBot",
    "cheapest_discard",
    "make_rami_bot",
    "play_moves",
]

RAMI_BOTS = ("random", "heuristic")
"""Names accepted by :func:`make_rami_bot`."""

_END_PLAY = RamiAction.end_play()


def _meld_ok(
    combo: Sequence[int],
    hand: Sequence[int],
    table: Sequence[Combination],
    rules: RamiRules,
    taken: int | None,
    owner: int,
) -> bool:
    left = len(hand) - len(combo)
    if left > 1 or (left == 1 and taken is None):
        return True  # the whole-hand checks only bite on the last card or two
    remaining = list(hand)
    for card in combo:
        remaining.remove(card)
    built = combination_from_cards(combo, owner, shifts=rules.end_joker_shifts)
    return hand_left_playable(remaining, [*table, built], rules, taken)


def play_moves(observation: RamiObservation) -> list[RamiAction]:
    """Open-ended plays the seat may make now, proposed by the solvers: the best opening
    (not opened yet), else the best new combinations, every lay-off and joker swap."""
    obs = observation
    rules = obs.rules
    hand = obs.hand
    taken = obs.taken_card
    if not obs.opened[obs.seat]:
        opening = best_opening(hand, rules, taken=taken)
        return [] if opening is None else [opening.action()]
    if obs.opened_this_turn and not rules.play_after_open_same_turn:
        return []
    moves: list[RamiAction] = []
    melds = best_melds(hand, rules, taken=taken)
    if melds is not None:
        for combo in melds.combos:
            if _meld_ok(combo, hand, obs.table, rules, taken, obs.seat):
                moves.append(RamiAction.meld(combo))
    moves.extend(legal_moves(hand, obs.table, rules, taken=taken))
    return moves


def bundled_takes(observation: RamiObservation) -> list[RamiAction]:
    """With ``discard_must_be_melded``: take-the-discard actions bundled with a play that
    lays the card (an opening, a combination or a lay-off)."""
    obs = observation
    top = obs.upcard
    rules = obs.rules
    if top is None or not rules.discard_must_be_melded:
        return []
    if rules.discard_from_second_round and obs.turn < len(obs.active):
        return []
    if rules.one_card_must_draw_stock and len(obs.hand) == 1:
        return []
    hand = [*obs.hand, top]
    if not obs.opened[obs.seat]:
        opening = best_opening(hand, rules, taken=top, must_lay=top)
        return [] if opening is None else [RamiAction.take_discard(opening.action())]
    moves: list[RamiAction] = []
    melds = best_melds(hand, rules, taken=top, must_lay=top)
    if melds is not None:
        for combo in melds.combos:
            if top in combo and _meld_ok(combo, hand, obs.table, rules, top, obs.seat):
                moves.append(RamiAction.take_discard(RamiAction.meld(combo)))
    for move in layoff_moves([top], obs.table):
        moves.append(RamiAction.take_discard(move))
    return moves


class RamiRandomBot:
    """Uniformly random among the legal actions and the solvers' plays (seeded RNG)."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = make_rng(seed)

    def act(self, observation: RamiObservation, legal_actions: Sequence[RamiAction]) -> RamiAction:
        """A uniformly random legal move, macro-actions included."""
        phase = observation.phase
        options: Sequence[RamiAction]
        if phase == "play":
            if not observation.opened[observation.seat] and len(legal_actions) == 1:
                # Unopened, the choice is end_play or the one opening (if any): a fair coin
                # first, so the solver only runs when the opening would be picked. This is
                # the uniform choice over the options, with half the solver calls.
                if self.rng.random() < 0.5:
                    return legal_actions[0]
                opening = play_moves(observation)
                return opening[0] if opening else legal_actions[0]
            options = [*legal_actions, *play_moves(observation)]
        elif phase == "draw" and observation.rules.discard_must_be_melded:
            options = [*legal_actions, *bundled_takes(observation)]
        else:
            options = legal_actions  # draws and discards: the engine's list is complete
        if not options:
            raise BotError("no legal action to choose from", bot=self.name)
        return self.rng.choice(options)


class PhaseBot(ABC):
    """A Rami bot that answers each phase of a turn (draw, play, discard) with its own
    method."""

    def act(self, observation: RamiObservation, legal_actions: Sequence[RamiAction]) -> RamiAction:
        """Choose an action from the seat's observation."""
        phase = observation.phase
        if phase == "draw":
            return self._draw(observation, legal_actions)
        if phase == "play":
            return self._play(observation, legal_actions)
        if phase == "discard":
            return self._discard(observation, legal_actions)
        return legal_actions[0]

    @abstractmethod
    def _draw(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction: ...

    @abstractmethod
    def _play(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction: ...

    @abstractmethod
    def _discard(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction: ...


class RamiHeuristicBot(PhaseBot):
    """Opens early, lays everything it can, keeps jokers, avoids feeding the next player."""

    name = "heuristic"

    def __init__(self, rules: RamiRules | None = None) -> None:
        self.rules = rules

    # -- draw ---------------------------------------------------------------------------

    def _draw(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        rules = obs.rules
        if rules.discard_must_be_melded:
            bundled = bundled_takes(obs)
            return bundled[0] if bundled else legal[0]
        take = RamiAction.take_discard()
        top = obs.upcard
        if top is None or len(legal) < 2:
            return legal[0]
        if FACES[top] == JOKER_FACE:
            return take
        if obs.opened[obs.seat] and layoff_moves([top], obs.table):
            return take
        # Take it only when it completes a combination with cards of the hand.
        return take if _completes(FACES[top], obs.hand) else legal[0]

    # -- play ---------------------------------------------------------------------------

    def _play(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        rules = obs.rules
        hand = obs.hand
        taken = obs.taken_card
        seat = obs.seat
        end = legal[0] if legal else None
        if not obs.opened[seat]:
            opening = best_opening(hand, rules, taken=taken)
            if opening is None:
                return self._must_end(end, obs)
            if any(FACES[c] == JOKER_FACE for combo in opening.combos for c in combo):
                # Keep the jokers when the opening does not need them.
                opening = best_opening(hand, rules, taken=taken, use_jokers=False) or opening
            return opening.action()
        if obs.opened_this_turn and not rules.play_after_open_same_turn:
            return self._must_end(end, obs)
        table = obs.table
        melds = self._melds(hand, rules, taken)
        if melds is not None:
            for combo in melds.combos:
                if _meld_ok(combo, hand, table, rules, taken, seat):
                    return RamiAction.meld(combo)
        swaps = swap_moves(hand, table, shifts=rules.end_joker_shifts, taken=taken)
        swaps = [m for m in swaps if m.joker_target is not None or m.joker_cards is not None]
        if swaps:
            swaps.sort(key=lambda m: m.joker_cards is None)
            allowed = legal_moves(hand, table, rules, taken=taken)
            playable = [m for m in swaps if m in allowed]
            if playable:
                return playable[0]
        naturals = [c for c in hand if FACES[c] != JOKER_FACE]
        keep_jokers = len(naturals) > 1 or (len(naturals) == 1 and naturals[0] == taken)
        usable = naturals if keep_jokers else list(hand)
        for move in legal_moves(usable, table, rules, taken=taken):
            if move.kind == "layoff" and hand_left_playable(
                _without(hand, move.card), table, rules, taken
            ):
                return move
        return self._must_end(end, obs)

    def _must_end(self, end: RamiAction | None, obs: RamiObservation) -> RamiAction:
        if end is not None:
            return end
        # Only the taken card is left and end_play is refused: lay it anywhere it fits.
        moves = legal_moves(obs.hand, obs.table, obs.rules, taken=obs.taken_card)
        if not moves:
            raise BotError("no legal play left", bot=self.name)  # pragma: no cover - engine
        return moves[0]

    def _melds(self, hand: Sequence[int], rules: RamiRules, taken: int | None) -> Opening | None:
        """New combinations to lay: joker-free ones, or with jokers when that goes out."""
        plain = best_melds(hand, rules, taken=taken, use_jokers=False)
        if any(FACES[c] == JOKER_FACE for c in hand):
            full = best_melds(hand, rules, taken=taken)
            if full is not None and len(full.cards_left) <= 1:
                return full
        return plain

    # -- discard ------------------------------------------------------------------------

    def _discard(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        rules = obs.rules
        hand = obs.hand
        values = rules.hand_values()
        opened = obs.opened[obs.seat]
        # Cards in some combination of the hand are kept (an unopened hand saves them for
        # its opening; an opened hand lays them next turn).
        keep = combination_faces(hand, rules) if not opened else 0
        feeds, wanted = next_player_wants(obs)
        faces = [FACES[c] for c in hand]

        def cost(card: int, face: int) -> float:
            score = 8 * _partners(face, faces)
            if keep >> (face * 4) & 15:
                score += 100
            if feeds >> face & 1:
                score += 30
            if wanted and _partners(face, wanted):
                score += 12
            return score - values[card]

        return cheapest_discard(legal, cost)


def cheapest_discard(legal: Sequence[RamiAction], cost: Callable[[int, int], float]) -> RamiAction:
    """The discard of least ``cost(card, face)`` (ties: the lower card id); a joker only
    when nothing else may go."""
    best: RamiAction | None = None
    best_cost = (0.0, 0)
    for action in legal:
        card = action.card
        assert card is not None
        face = FACES[card]
        value = (10_000.0, card) if face == JOKER_FACE else (cost(card, face), card)
        if best is None or value < best_cost:
            best, best_cost = action, value
    assert best is not None
    return best


def next_player_wants(obs: RamiObservation) -> tuple[int, list[int]]:
    """What a discard would give the next player: the faces the table's combinations
    accept when that player has opened (a bit mask: every free end and missing suit),
    and the faces of the cards that player took from the pile and still holds."""
    following = obs.active[(obs.active.index(obs.seat) + 1) % len(obs.active)]
    feeds = 0
    if obs.opened[following]:
        for combo in obs.table:
            feeds |= combo.accepts
            if combo.shift_face >= 0:
                feeds |= 1 << combo.shift_face
    return feeds, [FACES[k] for k in obs.known_cards[following]]


def _completes(face: int, hand: Sequence[int]) -> bool:
    """Whether ``face`` makes a set or a three-card run with two natural cards of ``hand``.

    >>> from rummykit.cards import parse_cards
    >>> _completes(parse_cards("7H")[0], parse_cards("7S 7D 2C"))
    True
    >>> _completes(parse_cards("AS")[0], parse_cards("QS KS"))
    True
    >>> _completes(parse_cards("7H")[0], parse_cards("7H 8C 9H"))
    False
    """
    rank, suit = face % 13 + 1, face // 13
    suits: set[int] = set()
    positions: set[int] = set()
    for card in hand:
        other = FACES[card]
        if other == JOKER_FACE:
            continue
        other_rank, other_suit = other % 13 + 1, other // 13
        if other_rank == rank and other_suit != suit:
            suits.add(other_suit)
        if other_suit == suit and other_rank != rank:
            positions.add(other_rank)
            if other_rank == 1:
                positions.add(14)
    if len(suits) >= 2:
        return True
    for p in (rank, 14) if rank == 1 else (rank,):
        for window in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
            if window[0] in positions and window[1] in positions:
                return True
    return False


def _without(hand: Sequence[int], card: int | None) -> list[int]:
    rest = list(hand)
    if card is not None:
        rest.remove(card)
    return rest


def _penalty(hand: Sequence[int], rules: RamiRules) -> int:
    values = rules.hand_values()
    return sum(values[c] for c in hand)


def _partners(face: int, faces: Sequence[int]) -> int:
    """Cards of ``faces`` that could join ``face`` in a combination (same rank another
    suit, or same suit within two ranks)."""
    rank = face % 13
    low = face - rank  # the suit's first face
    count = 0
    for other in faces:
        if other in (face, JOKER_FACE):
            continue
        if other % 13 == rank or (low <= other < low + 13 and -2 <= other - face <= 2):
            count += 1
    return count


def make_rami_bot(
    name: str, *, seed: int | None = None, rules: RamiRules | None = None
) -> RamiRandomBot | RamiHeuristicBot:
    """A Rami bot by name (``random`` or ``heuristic``)."""
    if name == "random":
        return RamiRandomBot(seed)
    if name == "heuristic":
        return RamiHeuristicBot(rules)
    raise UnknownBotError(f"unknown rami bot {name!r}; choose one of {', '.join(RAMI_BOTS)}")
