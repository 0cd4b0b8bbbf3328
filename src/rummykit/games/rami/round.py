"""Rami 40 / Rami 51 (French rummy): the round engine.

The Rami rules. A round is a pure state machine for 2-6 players: :func:`new_round` deals
from a seed (or an explicit card order), :meth:`RamiRound.legal_actions` lists the
finite moves (draws, ``end_play``, discards), :meth:`RamiRound.check` validates the
open-ended ones (an opening with several combinations, a meld, a lay-off, a joker
swap), :meth:`RamiRound.apply` changes the state and returns the events it caused, and
:meth:`RamiRound.observation` is all one seat may know. Illegal actions raise
:class:`~rummykit.core.IllegalActionError` naming the card, the combination and the
rule, and change nothing. The multi-round game is :mod:`rummykit.games.rami.game`.

The round's fields are :class:`~rummykit.games.rami.round_state.RoundState`'s, the plays
of the play phase :class:`~rummykit.games.rami.plays.PlayPhase`'s; this module adds the
draw and the discard, the views, cloning, records and the deal.

Several decks are in play, so every card keeps its physical identity (the copy bits of
:class:`~rummykit.cards.Card`): hands, piles and table combinations hold physical cards,
and action records name them (``7H`` for the first deck's, ``7H@1`` for the second's).

>>> from rummykit.games.rami.rules import preset
>>> rnd = new_round(preset("rami51"), players=4, seed=7)
>>> rnd.phase, rnd.current_player, len(rnd.stock)
('draw', 1, 55)
>>> [str(action) for action in rnd.legal_actions()]
['draw_stock', 'take_discard']
>>> events = rnd.apply(RamiAction.draw_stock())
>>> rnd.phase, [str(action) for action in rnd.legal_actions()]
('play', ['end_play'])
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rummykit.cards import (
    FACES,
    PHYSICAL_IDS,
    Card,
    format_card,
    make_rng,
    ordered_deck,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.errors import InvalidOptionError
from rummykit.games.rami.actions import DISCARDS, DRAW_STOCK, END_PLAY, TAKE_DISCARD, RamiAction
from rummykit.games.rami.observation import EventLog, ObservationBuilder, RamiObservation
from rummykit.games.rami.plays import PlayPhase
from rummykit.games.rami.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    RamiRules,
    parse_option,
    preset,
)
from rummykit.games.rami.scoring import RamiRoundResult, hand_value, score_round
from rummykit.games.rami.table import Combination
from rummykit.games.rami.tokens import card_token, parse_card_token

__all__ = ["RamiRound", "new_round"]
# Before the split these lived here: still importable from here, for older code.
__all__ += [
    "PRESETS",
    "Combination",
    "EventLog",
    "RamiAction",
    "RamiObservation",
    "RamiRoundResult",
    "RamiRules",
    "card_token",
    "hand_value",
    "parse_card_token",
    "parse_option",
    "preset",
    "score_round",
]


# The events of the frequent actions (a stock draw, a take, a discard) depend only on
# the kind, the seat and the card. Events are immutable, so each is built once, when it
# first happens, and shared: building one cost as much as the rest of a discard.
_CARD_EVENTS: Final[dict[str, dict[int, Event]]] = {
    "draw_stock": {},
    "take_discard": {},
    "discard": {},
}
"""Per kind, the shared events by ``seat * PHYSICAL_IDS + card``."""
_HIDDEN_DRAWS: Final = tuple(Event("draw_stock", seat, None, seat) for seat in range(6))
"""Per seat, its stock draw as the others see it (``Event.seen_by``: the card blanked)."""


def _card_event(kind: str, seat: int, card: Card) -> Event:
    """The shared event of ``kind`` (``draw_stock`` is private to the drawing seat)."""
    events = _CARD_EVENTS[kind]
    event = events.get(seat * PHYSICAL_IDS + card)
    if event is None:
        private = seat if kind == "draw_stock" else None
        event = events[seat * PHYSICAL_IDS + card] = Event(kind, seat, card, visible_to=private)
    return event


class RamiRound(PlayPhase):
    """One round of Rami for 2-6 players. Build with :func:`new_round`."""

    __slots__ = ()
    record_kind = "rami-round"
    action_type = RamiAction

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[RamiAction]:
        """The finite legal actions of the player to act (empty when the round is over).

        Draws, ``end_play`` and discards are listed (and, when the only card left is the
        one just taken from the discard pile, the ways to lay it). Openings, melds,
        lay-offs and joker swaps are open-ended: :meth:`check` validates them, and
        :mod:`rummykit.games.rami.opening` / :mod:`rummykit.games.rami.layoffs`
        propose them. With ``discard_must_be_melded`` taking the discard is always
        bundled with a play, so it is not listed either.
        """
        phase = self.phase
        if phase == "draw":
            rules = self.rules
            if self.discard_pile and not (
                rules.discard_must_be_melded
                or rules.discard_from_second_round
                or rules.one_card_must_draw_stock
            ):
                return [DRAW_STOCK, TAKE_DISCARD]  # the common case, without the checks
            if self._take_discard_error(self.current_player) is None and not (
                rules.discard_must_be_melded
            ):
                return [DRAW_STOCK, TAKE_DISCARD]
            return [DRAW_STOCK]
        if phase == "play":
            hand = self.hands[self.current_player]
            if len(hand) == 1 and hand[0] == self.taken_card:
                return self._last_card_plays(hand[0])
            return [END_PLAY]
        if phase == "discard":
            ordered = self._sorted_hand(self.current_player)
            made_from, discards = self._discards
            if made_from is not ordered:  # the discards of the same sorted hand, kept
                discards = tuple([DISCARDS[card] for card in ordered])
                self._discards = (ordered, discards)
            taken = self.taken_card
            if taken is None:
                return list(discards)
            return [action for action in discards if action.card != taken]
        return []

    # -- applying actions ----------------------------------------------------------------

    def apply(self, action: RamiAction) -> list[Event]:
        """Apply ``action`` for the player to act; return the events it caused.

        Raises:
            IllegalActionError: the action is not legal now (the state is unchanged).
            InvalidActionError: the action is malformed.
        """
        if type(action) is not RamiAction:
            raise InvalidActionError(f"not a rami action: {action!r}")
        seat = self.current_player
        kind = action.kind
        phase = self.phase
        if action is END_PLAY and phase == "play":
            # The most frequent play: no event, nothing to record but the action.
            self._end_play(seat)
            self.actions.append(action)
            return []
        if phase == "draw":
            if kind == "draw_stock":
                events = self._draw_stock(seat)
            elif kind == "take_discard":
                events, action = self._take_discard(seat, action)
            else:
                raise self._wrong_phase(
                    action, "draw from the stock or take the discard", "rami-4.2"
                )
        elif phase == "discard":
            if kind != "discard":
                raise self._wrong_phase(action, "discard a card", "rami-4.11")
            events, action = self._discard(seat, action)
        elif phase == "play":
            events, action = self._play(seat, action)
        else:
            raise IllegalActionError(
                f"the round is over; {action} is not possible",
                code="round_over",
                seat=seat,
                rule="rami-4.1",
            )
        self.actions.append(action)
        self.history.extend(events)
        public = self._public
        for event in events:
            seat_only = event.visible_to
            if seat_only is None:
                public.append(event)
            else:
                self._private[seat_only].append(len(public))
                public.append(
                    _HIDDEN_DRAWS[seat_only]
                    if event.kind == "draw_stock" and event.seat == seat_only
                    else event.seen_by(None)
                )
        return events

    # -- draw ----------------------------------------------------------------------------

    def _draw_stock(self, seat: int) -> list[Event]:
        if not self.stock:  # only a hand-made position can get here (refills run first)
            raise IllegalActionError(
                f"seat {seat} cannot draw: the stock is empty",
                code="stock_empty",
                seat=seat,
                rule="rami-4.13",
            )
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.taken_card = None
        self.phase = "play"
        return [_card_event("draw_stock", seat, card)]

    def _take_discard_error(self, seat: int) -> IllegalActionError | None:
        rules = self.rules
        top = self.discard_pile[-1] if self.discard_pile else None
        if top is None:
            return IllegalActionError(
                f"seat {seat} cannot take the discard: the pile is empty",
                code="discard_pile_empty",
                seat=seat,
                rule="rami-4.2",
            )
        if rules.discard_from_second_round and self.turns_played[seat] == 0:
            return IllegalActionError(
                f"seat {seat} cannot take {format_card(top)} from the discard pile in their "
                "first turn (discard_from_second_round)",
                code="discard_in_first_turn",
                seat=seat,
                card=top,
                rule="rami-4.3",
            )
        if rules.one_card_must_draw_stock and len(self.hands[seat]) == 1:
            return IllegalActionError(
                f"seat {seat} holds one card and must draw from the stock, not take "
                f"{format_card(top)} (one_card_must_draw_stock)",
                code="one_card_draws_stock",
                seat=seat,
                card=top,
                rule="rami-4.3",
            )
        return None

    def _take_discard(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        error = self._take_discard_error(seat)
        if error is not None:
            raise error
        then = action.then
        rules = self.rules
        card = self.discard_pile[-1]
        if then is None and rules.discard_must_be_melded:
            raise IllegalActionError(
                f"seat {seat} cannot simply take {format_card(card)}: the card taken from the "
                "discard pile must be laid in the same action, by an opening, a combination "
                "or a lay-off (discard_must_be_melded)",
                code="discard_must_be_melded",
                seat=seat,
                card=card,
                rule="rami-4.3",
            )
        self.discard_pile.pop()
        hand = self.hands[seat]
        hand.append(card)
        self.known[seat].append(card)
        self.taken_card = card
        self.phase = "play"
        events = [_card_event("take_discard", seat, card)]
        if then is None:
            return events, action
        try:
            if then.kind not in ("open", "meld", "layoff"):
                raise InvalidActionError(
                    "the play bundled with take_discard is an open, meld or layoff, "
                    f"not {then.kind}"
                )
            if rules.discard_must_be_melded:
                then = self._require_lays(seat, then, card)
            more, then = self._play(seat, then)
        except (IllegalActionError, InvalidActionError):
            hand.remove(card)
            self.known[seat].remove(card)
            self.discard_pile.append(card)
            self.taken_card = None
            self.phase = "draw"
            raise
        events.extend(more)
        return events, RamiAction("take_discard", then=then)

    def _require_lays(self, seat: int, then: RamiAction, card: Card) -> RamiAction:
        """``then`` with the physical taken card in place of the first card of its face;
        raise when it does not lay that face at all."""
        face = FACES[card]
        if then.kind == "layoff" and then.card is not None and FACES[then.card] == face:
            return RamiAction("layoff", card, target=then.target)
        if then.kind in ("open", "meld"):
            combos = [list(combo) for combo in then.combos or ()]
            for combo in combos:
                for index, named in enumerate(combo):
                    if FACES[named] == face:
                        combo[index] = card
                        return RamiAction(then.kind, combos=tuple(tuple(c) for c in combos))
        raise IllegalActionError(
            f"seat {seat} must lay {format_card(card)}, the card taken from the discard "
            f"pile, in the play bundled with the take (discard_must_be_melded)",
            code="discard_must_be_melded",
            cause="taken_card_not_laid",
            seat=seat,
            card=card,
            rule="rami-4.3",
        )

    # -- discard and the end of a turn -------------------------------------------------

    def _discard(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        card = action.card
        hand = self.hands[seat]
        if card is None:
            raise InvalidActionError("a discard names a card")
        try:
            index = hand.index(card)
        except ValueError:
            (card,) = self._resolve(seat, (card,), "discard")
            action = DISCARDS[card]
            index = hand.index(card)
        if card == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot discard {format_card(card)}: the card taken from the "
                "discard pile may not be discarded in the same turn",
                code="discard_taken_card",
                seat=seat,
                card=card,
                rule="rami-4.4",
            )
        del hand[index]
        known = self.known[seat]
        if known and card in known:
            known.remove(card)
        self.discard_pile.append(card)
        events = [_card_event("discard", seat, card)]
        if not hand:
            events.extend(self._go_out(seat, discarded=True))
            return events, action
        events.extend(self._end_turn(seat))
        return events, action

    # -- views ----------------------------------------------------------------------------

    def observation(
        self, seat: int, *, scores: tuple[int, ...] = (), round_number: int = 1
    ) -> RamiObservation:
        """Everything ``seat`` may know, and nothing else.

        ``scores`` and ``round_number`` are the game's, filled in by
        :class:`~rummykit.games.rami.game.RamiGame`.
        """
        if not 0 <= seat < self.players:
            raise InvalidOptionError(
                f"this round has seats 0-{self.players - 1}, not {seat!r}", option="seat"
            )
        # The public history (stock draws masked), with this seat's own draws shown.
        seen = self._seen[seat]
        start = len(seen)
        public = self._public
        if start < len(public):
            seen.extend(public[start:])
            own = self._private[seat]
            history = self.history
            for index in reversed(own):
                if index < start:
                    break
                seen[index] = history[index]
        mine = self.current_player == seat
        built = ObservationBuilder(
            seat,
            self.phase,
            self.current_player,
            self.dealer,
            self.players,
            self.active,
            self._sorted_hand(seat),
            tuple(self.table),
            tuple(self.discard_pile),
            len(self.stock),
            tuple(map(len, self.hands)),
            tuple(self.opened),
            tuple(map(tuple, self.known)),
            self.taken_card if mine else None,
            self.opened_this_turn and mine,
            self.turn,
            self.refills,
            self.rules,
            EventLog(seen, len(seen)),
            self.result,
            scores,
            round_number,
        )
        built.__class__ = RamiObservation  # see ObservationBuilder
        view: RamiObservation = built
        return view

    def clone(self) -> RamiRound:
        """An independent copy (cheap: a few small lists; combinations are immutable)."""
        other = RamiRound.__new__(RamiRound)
        other.rules = self.rules
        other.players = self.players
        other.active = self.active
        other.next_seat = self.next_seat
        other.dealer = self.dealer
        other.current_player = self.current_player
        other.phase = self.phase
        other.hands = [hand.copy() for hand in self.hands]
        other.table = self.table.copy()
        other.stock = self.stock.copy()
        other.discard_pile = self.discard_pile.copy()
        other.opened = self.opened.copy()
        other.opened_this_turn = self.opened_this_turn
        other.known = [known.copy() for known in self.known]
        other.taken_card = self.taken_card
        other.first_laid_turn = self.first_laid_turn.copy()
        other.turn = self.turn
        other.turns_played = self.turns_played.copy()
        other.refills = self.refills
        other.refill_seed = self.refill_seed
        other.result = self.result
        other.history = self.history.copy()
        other.actions = self.actions.copy()
        other.seed = self.seed
        other.deck = self.deck
        other._seen = [[] for _ in range(self.players)]
        other._sorted = self._sorted.copy()
        other._discards = self._discards
        other._public = self._public.copy()
        other._private = [own.copy() for own in self._private]
        return other

    # -- records and replay -------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record (rules, seats, deal order, refill seed, actions) that
        replays this round exactly."""
        return self._record(
            players=self.players,
            active=list(self.active),
            seed=self.seed,
            dealer=self.dealer,
            deck=" ".join(map(card_token, self.deck)),
            refill_seed=self.refill_seed,
        )

    @classmethod
    def _dealt_from_record(cls, record: Mapping[str, Any]) -> RamiRound:
        rules = RamiRules.from_dict(record.get("rules", {}))
        deck_text = record.get("deck")
        deck = [parse_card_token(t) for t in deck_text.split()] if deck_text else None
        rnd = new_round(
            rules,
            int(record["players"]),
            seed=record.get("seed"),
            dealer=int(record.get("dealer", 0)),
            deck=deck,
            refill_seed=record.get("refill_seed"),
            active=record.get("active"),
        )
        rnd.seed = record.get("seed")
        return rnd

    def __repr__(self) -> str:
        return (
            f"<RamiRound phase={self.phase} player={self.current_player} turn={self.turn} "
            f"stock={len(self.stock)} table={len(self.table)}>"
        )


def new_round(
    rules: RamiRules | None = None,
    players: int = 4,
    seed: int | random.Random | None = None,
    *,
    dealer: int = 0,
    deck: Sequence[int] | None = None,
    refill_seed: int | None = None,
    active: Sequence[int] | None = None,
) -> RamiRound:
    """Deal a round (section 1): 13 cards each, one upcard, the rest the stock.

    Args:
        rules: the options (reference Rami 51 by default).
        players: seats 0 to ``players - 1``.
        seed: an int or RNG for a reproducible shuffle; ``None`` shuffles from a
            cryptographically secure source.
        dealer: the dealer's seat; the player to the dealer's left (the next seat)
            plays first and is dealt the first card.
        deck: an explicit card order, top card first (tests, replays, puzzles); it
            overrides ``seed``.
        refill_seed: seeds the reshuffles of the discard pile into a new stock; by
            default drawn from ``seed`` (or from a secure source).
        active: the seats that play (default all); others were eliminated. The pack is
            chosen by the number of active seats.
    """
    rules = rules or RamiRules()
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptionError(
            f"rami is played by {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}",
            option="players",
        )
    seats = tuple(range(players)) if active is None else tuple(sorted(set(active)))
    if len(seats) < 2 or any(not 0 <= s < players for s in seats):
        raise InvalidOptionError(
            f"at least two active seats among 0-{players - 1} are needed: {active!r}",
            option="active",
        )
    if dealer not in seats:
        raise InvalidOptionError(
            f"the dealer must be an active seat, not {dealer!r}", option="dealer"
        )
    spec = rules.deck_spec(len(seats))
    rng: random.Random | None = None
    if deck is not None:
        order = ordered_deck(deck, spec)
    elif seed is None:
        order = shuffled_deck(spec, None)
    else:
        rng = make_rng(seed)
        order = shuffled_deck(spec, rng)
    needed = len(seats) * rules.hand_size + 2
    if len(order) < needed:
        # A check across options (hand size, decks, jokers) and the number of players.
        raise InvalidOptionError(
            f"a pack of {len(order)} cards is too small to deal {rules.hand_size} cards to "
            f"{len(seats)} players with an upcard and a stock",
            option="hand_size",
        )
    if refill_seed is None:
        refill_seed = rng.getrandbits(64) if rng is not None else secrets.randbits(64)
    next_seat = list(range(players))
    for index, seat in enumerate(seats):
        next_seat[seat] = seats[(index + 1) % len(seats)]
    rnd = RamiRound.__new__(RamiRound)
    rnd.rules = rules
    rnd.players = players
    rnd.active = seats
    rnd.next_seat = tuple(next_seat)
    rnd.dealer = dealer
    rnd.seed = seed if isinstance(seed, int) and deck is None else None
    rnd.deck = tuple(order)
    rnd.refill_seed = int(refill_seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    seat = dealer
    position = 0
    for _ in range(rules.hand_size):
        for _ in seats:
            seat = next_seat[seat]
            hands[seat].append(order[position])
            position += 1
    rnd.hands = hands
    upcard = order[position]
    rnd.discard_pile = [upcard]
    # The stock is a list with its top card last, so drawing is a pop().
    rnd.stock = list(reversed(order[position + 1 :]))
    rnd.table = []
    rnd.opened = [False] * players
    rnd.opened_this_turn = False
    rnd.known = [[] for _ in range(players)]
    rnd.taken_card = None
    rnd.first_laid_turn = [-1] * players
    rnd.turn = 0
    rnd.turns_played = [0] * players
    rnd.refills = 0
    rnd.result = None
    rnd.phase = "draw"
    rnd.current_player = next_seat[dealer]
    rnd.history = [Event("deal", dealer, detail={"upcard": format_card(upcard)})]
    rnd.actions = []
    rnd._seen = [[] for _ in range(players)]
    rnd._sorted = [((), ())] * players
    rnd._discards = ((), ())
    rnd._public = list(rnd.history)
    rnd._private = [[] for _ in range(players)]
    return rnd
