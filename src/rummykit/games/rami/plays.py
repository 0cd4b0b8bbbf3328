"""The play phase of a Rami turn: opening, melding, laying off, swapping jokers.

The Rami rules, sections 3-4. :class:`PlayPhase` validates each play against the hand,
the table and the options, and changes the round only when the play is legal; every
refusal is an :class:`~rummykit.core.IllegalActionError` naming the seat, the card, the
combination (numbered from 1, as people count) and the rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.cards import FACES, JOKER_FACE, Card, format_card, format_cards
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.round_state import RoundState, sort_key
from rummykit.games.rami.table import (
    JOKER_BIT,
    Combination,
    CombinationError,
    combination_from_cards,
    lay_off,
    pairs_with_joker,
    swap_joker,
)
from rummykit.games.rami.tokens import card_token
from rummykit.melds import InvalidMeldError

__all__ = ["PlayPhase", "joker_placement"]


def _number(index: int | None) -> str:
    """Table combination ``index`` as people number it (from 1)."""
    return "?" if index is None else str(index + 1)


def _refused_by(
    seat: int, card: Card, index: int, combo: Combination, error: CombinationError
) -> IllegalActionError:
    """A lay-off or joker swap that the target combination refuses, naming it."""
    return IllegalActionError(
        f"seat {seat}: {error.reason} (combination {index + 1}, {combo.describe()} of "
        f"seat {combo.owner})",
        code=error.code,
        seat=seat,
        card=card,
        rule=error.rule,
        numbers={"combination": index + 1},
    )


class PlayPhase(RoundState):
    """The plays of the play phase, on top of the round's state."""

    __slots__ = ()

    def _last_card_plays(self, card: Card) -> list[RamiAction]:
        """The ways to lay the one card left, the card just taken from the discard pile
        (``end_play`` is refused then): its lay-offs, and its joker swaps, each with the
        first place the freed joker can go."""
        face = FACES[card]
        shifts = self.rules.end_joker_shifts
        plays: list[RamiAction] = []
        for index, combo in enumerate(self.table):
            if combo.accepts >> face & 1 or combo.shift_face == face:
                plays.append(RamiAction("layoff", card, target=index))
            elif combo.swap_face == face:
                after = self.table.copy()
                after[index] = swap_joker(combo, card, shifts=shifts)[0]
                target = next(
                    (i for i, other in enumerate(after) if other.accepts & JOKER_BIT), None
                )
                plays.append(RamiAction("swap_joker", card, target=index, joker_target=target))
        return plays

    def _play(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        kind = action.kind
        if kind == "end_play":
            return self._end_play(seat), action
        if kind == "open":
            return self._open(seat, action)
        if kind not in ("meld", "layoff", "swap_joker"):
            raise self._wrong_phase(
                action, "open, meld, lay off, swap a joker or end the play phase", "rami-4.1"
            )
        verb = {"meld": "meld", "layoff": "lay off", "swap_joker": "swap a joker"}[kind]
        if not self.opened[seat]:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} before opening: lay-offs, melds and joker swaps "
                "come after the opening",
                code="not_opened",
                seat=seat,
                card=action.card,
                rule="rami-4.8",
            )
        if self.opened_this_turn and not self.rules.play_after_open_same_turn:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} in the turn they opened "
                "(play_after_open_same_turn=false)",
                code="play_after_open",
                seat=seat,
                card=action.card,
                rule="rami-4.8",
            )
        if kind == "meld":
            return self._meld(seat, action)
        if kind == "layoff":
            return self._layoff(seat, action)
        return self._swap(seat, action)

    def _resolve(self, seat: int, cards: Sequence[Card], verb: str) -> list[Card]:
        """Map named cards to distinct physical cards of the hand (the exact copy when
        held, else another copy of the same face)."""
        hand = self.hands[seat]
        chosen: list[Card] = []
        for card in cards:
            if card in hand and card not in chosen:
                chosen.append(card)
                continue
            face = FACES[card]
            match = None
            for held in sorted(hand, key=sort_key):
                if FACES[held] == face and held not in chosen:
                    match = held
                    break
            if match is None:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb} {format_card(card)}: "
                    + (
                        "it is named twice"
                        if any(FACES[c] == face for c in chosen)
                        else "it is not in the hand"
                    ),
                    code="card_not_in_hand",
                    seat=seat,
                    card=card,
                    cause="card_named_twice" if any(FACES[c] == face for c in chosen) else None,
                )
            chosen.append(match)
        return chosen

    def _build(self, seat: int, cards: Sequence[Card], verb: str) -> Combination:
        try:
            return combination_from_cards(cards, seat, shifts=self.rules.end_joker_shifts)
        except InvalidMeldError as error:
            raise IllegalActionError(
                f"seat {seat} cannot {verb}: {error}",
                code="invalid_combination",
                seat=seat,
                card=cards[0] if cards else None,
                rule="rami-3.1",
                numbers=error.numbers,
                cause=error.code,
            ) from None

    def _check_remaining(
        self, seat: int, remaining: Sequence[Card], table: Sequence[Combination], verb: str
    ) -> None:
        """A play may not empty the hand under ``mandatory_final_discard``, and may not
        leave only the card taken from the discard pile when it cannot be laid too."""
        rules = self.rules
        if not remaining:
            if rules.mandatory_final_discard:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb}: it would empty the hand, and the last card "
                    "must be discarded (mandatory_final_discard)",
                    code="final_discard_required",
                    seat=seat,
                    rule="rami-4.12",
                )
            return
        taken = self.taken_card
        if len(remaining) == 1 and remaining[0] == taken:
            layable = not rules.mandatory_final_discard and any(
                combo.accepts >> FACES[taken] & 1
                or FACES[taken] in (combo.shift_face, combo.swap_face)
                for combo in table
            )
            if not layable:
                raise IllegalActionError(
                    f"seat {seat} cannot {verb}: only {format_card(taken)}, the card just "
                    "taken from the discard pile, would be left; it may not be discarded "
                    "this turn and cannot be laid off or swapped in",
                    code="taken_card_stranded",
                    seat=seat,
                    card=taken,
                    rule="rami-4.4",
                )

    def _open(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        rules = self.rules
        if self.opened[seat]:
            raise IllegalActionError(
                f"seat {seat} has already opened; lay new combinations with meld",
                code="already_opened",
                seat=seat,
                rule="rami-4.5",
            )
        combos_in = action.combos or ()
        if not combos_in:
            raise InvalidActionError("an opening lays at least one combination")
        flat = [card for combo in combos_in for card in combo]
        chosen = self._resolve(seat, flat, "open with")
        combos: list[Combination] = []
        resolved: list[tuple[Card, ...]] = []
        start = 0
        for combo in combos_in:
            cards = chosen[start : start + len(combo)]
            start += len(combo)
            combos.append(self._build(seat, cards, "open with " + format_cards(cards)))
            resolved.append(tuple(cards))
        total = sum(combo.value for combo in combos)
        remaining = list(self.hands[seat])
        for card in chosen:
            remaining.remove(card)
        threshold = rules.opening_threshold
        exempt = False
        if total < threshold:
            goes_out = (not remaining and not rules.mandatory_final_discard) or (
                len(remaining) == 1 and remaining[0] != self.taken_card
            )
            if not (rules.rami_sec_exempt_opening and goes_out):
                parts = " + ".join(f"{c} ({c.value})" for c in combos)
                if rules.rami_sec_exempt_opening:
                    why = "; below it only an opening that goes out this turn is allowed"
                elif goes_out:
                    why = ", even when it goes out this turn"
                else:
                    why = ""
                raise IllegalActionError(
                    f"seat {seat} cannot open with {parts} = {total}: the opening must reach "
                    f"{threshold}{why}",
                    code="opening_below_threshold",
                    seat=seat,
                    card=chosen[0],
                    numbers={"value": total, "threshold": threshold},
                    cause=(
                        "opening_goes_out_exempt"
                        if rules.rami_sec_exempt_opening
                        else "opening_even_going_out"
                        if goes_out
                        else None
                    ),
                    # The rami sec reading of the threshold, when it is the one that bites.
                    rule="rami-4.6" if why else "rami-4.5",
                )
            exempt = True
        if rules.opening_requires_pure_run and not any(
            combo.kind == "run" and combo.joker < 0 for combo in combos
        ):
            raise IllegalActionError(
                f"seat {seat} cannot open without a run free of jokers (opening_requires_pure_run)",
                code="pure_run_required",
                seat=seat,
                card=chosen[0],
                rule="rami-4.7",
            )
        new_table = self.table + combos
        self._check_remaining(seat, remaining, new_table, "open this way")
        first = len(self.table)
        self.table = new_table
        self._lay_from_hand(seat, chosen)
        self.opened[seat] = True
        self.opened_this_turn = True
        events = [
            Event(
                "open",
                seat,
                detail={
                    "combos": [str(c) for c in combos],
                    "targets": list(range(first, first + len(combos))),
                    "value": total,
                    "exempt": exempt,
                },
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action if list(flat) == chosen else RamiAction("open", combos=tuple(resolved))
        return events, normalized

    def _lay_from_hand(self, seat: int, cards: Iterable[Card]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for card in cards:
            hand.remove(card)
            if card in known:
                known.remove(card)
        if self.first_laid_turn[seat] < 0:
            self.first_laid_turn[seat] = self.turn

    def _after_play(self, seat: int) -> list[Event]:
        if self.hands[seat]:
            return []
        return self._go_out(seat, discarded=False)

    def _meld(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        combos_in = action.combos or ()
        if len(combos_in) != 1:
            raise InvalidActionError("a meld lays exactly one combination")
        chosen = self._resolve(seat, combos_in[0], "meld")
        combo = self._build(seat, chosen, "meld " + format_cards(chosen))
        remaining = list(self.hands[seat])
        for card in chosen:
            remaining.remove(card)
        new_table = [*self.table, combo]
        self._check_remaining(seat, remaining, new_table, "meld " + format_cards(chosen))
        self.table = new_table
        self._lay_from_hand(seat, chosen)
        events = [Event("meld", seat, detail={"combo": str(combo), "target": len(new_table) - 1})]
        events.extend(self._after_play(seat))
        normalized = action if list(combos_in[0]) == chosen else RamiAction.meld(chosen)
        return events, normalized

    def _target(
        self, seat: int, index: int | None, card: Card | None, verb: str
    ) -> tuple[int, Combination]:
        """The table combination ``index`` names, with the index known to be one."""
        if index is None or not 0 <= index < len(self.table):
            raise IllegalActionError(
                f"seat {seat} cannot {verb}: there is no combination {_number(index)} on the "
                f"table ({len(self.table)} combination(s), numbered from 1)",
                code="no_such_combination",
                seat=seat,
                card=card,
                numbers={
                    "combinations": len(self.table),
                    **({} if index is None else {"combination": index + 1}),
                },
                rule="rami-4.9",
            )
        return index, self.table[index]

    def _layoff(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        if action.card is None:
            raise InvalidActionError("a layoff names a card")
        (card,) = self._resolve(seat, (action.card,), "lay off")
        index, combo = self._target(seat, action.target, card, f"lay off {format_card(card)}")
        try:
            new = lay_off(combo, card, shifts=self.rules.end_joker_shifts)
        except CombinationError as error:
            raise _refused_by(seat, card, index, combo, error) from None
        remaining = list(self.hands[seat])
        remaining.remove(card)
        new_table = self.table.copy()
        new_table[index] = new
        self._check_remaining(seat, remaining, new_table, f"lay off {format_card(card)}")
        self.table = new_table
        self._lay_from_hand(seat, (card,))
        shifted = combo.shift_face == FACES[card] and combo.joker >= 0
        events = [
            Event(
                "layoff",
                seat,
                card,
                detail={"target": index, "combo": str(new), "joker_shifted": shifted},
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action if action.card == card else RamiAction("layoff", card, target=index)
        return events, normalized

    def _swap(self, seat: int, action: RamiAction) -> tuple[list[Event], RamiAction]:
        rules = self.rules
        if action.card is None:
            raise InvalidActionError("a joker swap names the real card")
        (card,) = self._resolve(seat, (action.card,), "swap with")
        index, combo = self._target(
            seat, action.target, card, f"swap {format_card(card)} for a joker"
        )
        shifts = rules.end_joker_shifts
        try:
            new, joker = swap_joker(combo, card, shifts=shifts)
        except CombinationError as error:
            raise _refused_by(seat, card, index, combo, error) from None
        table = self.table.copy()
        table[index] = new
        remaining = list(self.hands[seat])
        remaining.remove(card)
        laid: list[Card] = [card]
        destination = "hand"
        if action.joker_target is not None:
            dest_index = action.joker_target
            dest = (
                table[dest_index]
                if 0 <= dest_index < len(table)
                else self._target(seat, dest_index, joker, "place the joker")[1]
            )
            try:
                table[dest_index] = lay_off(dest, joker, shifts=shifts)
            except CombinationError as error:
                raise IllegalActionError(
                    f"seat {seat} cannot place the swapped joker on combination "
                    f"{_number(dest_index)}: {error.reason}",
                    code="joker_placement",
                    seat=seat,
                    card=joker,
                    rule="rami-4.10",
                    numbers={"combination": dest_index + 1},
                    cause=error.code,
                ) from None
            # Event details keep the table indices of the records (from 0).
            destination = f"combination {dest_index}"
        elif action.joker_cards is not None:
            others = self._resolve_from(seat, remaining, action.joker_cards, "meld the joker with")
            built = self._build(
                seat, [joker, *others], "meld the swapped joker with " + format_cards(others)
            )
            for other in others:
                remaining.remove(other)
            laid.extend(others)
            table.append(built)
            destination = f"new combination {len(table) - 1}"
        else:
            placement = joker_placement(remaining, table)
            if placement is not None:
                raise IllegalActionError(
                    f"seat {seat} must place the swapped joker again this turn: it can go "
                    + placement,
                    code="joker_must_be_placed",
                    seat=seat,
                    card=joker,
                    rule="rami-4.10",
                )
            remaining.append(joker)
        self._check_remaining(seat, remaining, table, f"swap {format_card(card)}")
        self.table = table
        self._lay_from_hand(seat, laid)
        if destination == "hand":
            self.hands[seat].append(joker)
        events = [
            Event(
                "swap_joker",
                seat,
                card,
                detail={
                    "target": index,
                    "combo": str(new),
                    "joker": card_token(joker),
                    "joker_to": destination,
                },
            )
        ]
        events.extend(self._after_play(seat))
        normalized = action
        if action.card != card or (
            action.joker_cards is not None and list(action.joker_cards) != laid[1:]
        ):
            normalized = RamiAction(
                "swap_joker",
                card,
                target=index,
                joker_target=action.joker_target,
                joker_cards=None if action.joker_cards is None else tuple(laid[1:]),
            )
        return events, normalized

    def _resolve_from(
        self, seat: int, pool: Sequence[Card], cards: Sequence[Card], verb: str
    ) -> list[Card]:
        saved = self.hands[seat]
        self.hands[seat] = list(pool)
        try:
            return self._resolve(seat, cards, verb)
        finally:
            self.hands[seat] = saved

    def _end_play(self, seat: int) -> list[Event]:
        hand = self.hands[seat]
        if len(hand) == 1 and hand[0] == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot end the play phase holding only {format_card(hand[0])}, "
                f"the card just taken from the discard pile: it may not be discarded this turn; "
                "lay it to go out",
                code="taken_card_stranded",
                seat=seat,
                card=hand[0],
                rule="rami-4.4",
            )
        self.phase = "discard"
        return []


def joker_placement(hand: Sequence[int], table: Sequence[Combination]) -> str | None:
    """Where a joker could legally go this turn, described, or ``None`` (§rami-4.10).

    A lay-off onto a combination without a joker, or a new combination with two natural
    cards of ``hand`` (same rank, or same suit within two positions).
    """
    for index, combo in enumerate(table):
        if combo.accepts & JOKER_BIT:
            return f"onto combination {index + 1} ({combo})"
    naturals = sorted({FACES[card] for card in hand if FACES[card] != JOKER_FACE})
    for i, first in enumerate(naturals):
        for second in naturals[i + 1 :]:
            if pairs_with_joker(first, second):
                return f"into a new combination with {format_card(first)} {format_card(second)}"
    return None
