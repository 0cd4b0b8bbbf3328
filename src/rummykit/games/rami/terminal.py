"""Rami 40 / 51 at a terminal: the person (seat 0) against 1-5 bots.

:class:`RamiScreen` is what the terminal loop (``rummykit.terminal``, the platform)
drives: the table as text, the command words legal now, typed commands read into
actions, the hint, and each round revealed. Every rule is the engine's. Its texts are in
the language it is built with (:mod:`rummykit.i18n`); command words and card notation
stay as typed.

Table combinations are numbered from 1 for people (``add 9S to 1`` lays off on the first
one); the engine's actions count from 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.cards import JOKER_FACE, SUITS, Card, face_of, format_card, format_cards, parse_card
from rummykit.errors import InvalidActionError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.layoffs import legal_moves
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.opening import best_melds, best_opening
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.scoring import RamiRoundResult
from rummykit.games.rami.table import Combination, combination_from_cards, position_face
from rummykit.i18n import N_, Translator
from rummykit.screen_words import ScreenWords

__all__ = ["HELP", "RamiScreen"]

HUMAN = 0

HELP = N_("""\
Commands (cards are written like 7H, TD or 10D, QS, AC; a joker is JK):
  draw                      draw the top card of the stock
  take                      take the top card of the discard pile
  open 7S 8S 9S | KH KS KD  open with one or several combinations (| between them)
  meld 4C 5C 6C             lay a new combination (after opening)
  add 9S to 3               lay 9S off onto table combination 3 (any player's)
  swap 8S from 2 to 4       give 8S for the joker of combination 2; the joker goes
                            onto combination 4 ...
  swap 8S from 2 with 4D 5D ... or into a new combination with 4D 5D
                            (`swap 8S from 2` keeps it only when it fits nowhere)
  end                       end your plays (then discard)
  discard 7H                discard (ends your plays first); never the card just taken
  value 7S 8S 9S | KH KS KD the table value of combinations, without playing them
  take open ... / take meld ... / take add 9S to 3
                            with discard_must_be_melded: take and lay the card at once
  hint                      the best opening, or the combinations and lay-offs you have""")

_SWAP_USAGE = N_("write 'swap 8S from 2 to 4', 'swap 8S from 2 with 4D 5D' or 'swap 8S from 2'")


def _number(token: str, tr: Translator) -> int:
    """A combination number as typed (from 1) as the engine's index (from 0)."""
    if not token.isdigit() or int(token) < 1:
        raise InvalidActionError(
            tr.gettext("table combinations are numbered from 1, not {token}", token=repr(token))
        )
    return int(token) - 1


def _command_for(action: RamiAction) -> str:
    """The words that play a lay-off or a joker swap (numbers from 1)."""
    card = format_card(action.card or 0)
    target = (action.target or 0) + 1
    if action.kind == "layoff":
        return f"add {card} to {target}"
    text = f"swap {card} from {target}"
    if action.joker_target is not None:
        return text + f" to {action.joker_target + 1}"
    if action.joker_cards is not None:
        return text + " with " + format_cards(action.joker_cards)
    return text


class RamiScreen(ScreenWords[RamiGame]):
    """The person's view of a Rami game and the commands they type."""

    noun = "game"
    help_text = HELP
    rules: RamiRules

    def __init__(
        self,
        game: RamiGame,
        *,
        variant: str = "rami",
        card_text: Callable[[int], str] = format_card,
        language: str | None = None,
    ) -> None:
        super().__init__(game, card_text=card_text, language=language)
        self.variant = variant

    # -- words ------------------------------------------------------------------------

    def _totals(self) -> str:
        return ", ".join(f"{self.name(s)} {t}" for s, t in enumerate(self.game.totals))

    def title(self) -> str:
        """The opening line."""
        return self._(
            "{variant}: opening {threshold}, {players} players; penalties add up and the "
            "lowest total wins. You are seat 0.",
            variant=self.variant,
            threshold=self.rules.opening_threshold,
            players=self.game.players,
        )

    def hand_header(self) -> str:
        """Round number, dealer, who starts, the totals."""
        rnd = self.game.round
        starts = (
            self._("you start")
            if rnd.current_player == HUMAN
            else self._("{name} starts", name=self.name(rnd.current_player))
        )
        # Whole sentences by who dealt: a language may inflect the verb by its subject.
        template = (
            N_("Round {number}: you dealt; {starts}. Totals: {totals}")
            if rnd.dealer == HUMAN
            else N_("Round {number}: {dealer} dealt; {starts}. Totals: {totals}")
        )
        text = self._(
            template,
            number=self.game.round_number,
            dealer=self.name(rnd.dealer),
            starts=starts,
            totals=self._totals(),
        )
        return f"=== {text} ==="

    # -- the table ----------------------------------------------------------------------

    def _grouped(self, hand: Sequence[Card]) -> str:
        """The hand by suit, low to high, jokers last: ``7♠ 8♠ 9♠   9♣ K♣   JK``."""
        groups = []
        for index in range(len(SUITS)):
            suit = sorted(
                (c for c in hand if face_of(c) // 13 == index and face_of(c) != JOKER_FACE),
                key=lambda c: (face_of(c), c.copy),
            )
            if suit:
                groups.append(self._cards(suit))
        jokers = [c for c in hand if face_of(c) == JOKER_FACE]
        if jokers:
            groups.append(self._cards(jokers))
        return "   ".join(groups) or self._("(empty)")

    def _describe_combination(self, combo: Combination) -> str:
        """``run 6S-9S`` / ``set of 9s``, in the screen's language."""
        if combo.kind == "run":
            low = format_card(position_face(combo.suit, combo.rank))
            high = format_card(position_face(combo.suit, combo.high))
            return self._("run {low}-{high}", low=low, high=high)
        return self._("set of {rank}s", rank=format_card(combo.rank - 1)[0])

    def _combination(self, number: int, combo: Combination) -> str:
        owner, name = self.name(combo.owner), self._describe_combination(combo)
        return f"  {number:>2}. {name:<14} {owner:<6} {self._cards(combo.cards)}"

    def table(self, observation: RamiObservation) -> list[str]:
        """The numbered table, the counts, your hand and your opening."""
        obs, _ = observation, self._
        lines = [_("Table:")] if obs.table else [_("Table: (empty)")]
        lines.extend(self._combination(n, c) for n, c in enumerate(obs.table, start=1))
        others = "  ".join(
            f"{self.name(s)}: "
            + self.tr.ngettext(
                "{count} card", "{count} cards", obs.hand_sizes[s], count=obs.hand_sizes[s]
            )
            + (" " + _("(opened)") if obs.opened[s] else "")
            for s in obs.active
            if s != obs.seat
        )
        top = obs.upcard
        shown = _("(empty)") if top is None else self.card_text(top)  # AS is card 0
        lines.append(_("Stock: {stock}   Discard pile top: {top}", stock=obs.stock_size, top=shown))
        lines.append(_("Others: {others}", others=others))
        lines.append(
            _("Your hand ({count}): {cards}", count=len(obs.hand), cards=self._grouped(obs.hand))
        )
        if obs.taken_card is not None:
            taken = self.card_text(obs.taken_card)
            lines.append(
                "  " + _("(you took {card} from the discard pile: keep it this turn)", card=taken)
            )
        lines.append(self._opening_status(obs))
        return lines

    def _opening_status(self, obs: RamiObservation) -> str:
        if obs.opened[obs.seat]:
            return self._("You have opened.")
        melds = best_melds(obs.hand, self.rules)
        return self._(
            "Not opened: your combinations make {value} now ({threshold} needed to open).",
            value=melds.value if melds is not None else 0,
            threshold=self.rules.opening_threshold,
        )

    # -- what is legal now ----------------------------------------------------------

    def _legal(self, action: RamiAction) -> bool:
        return self.game.round.is_legal(action)

    def _can_take(self, obs: RamiObservation) -> bool:
        """With discard_must_be_melded: whether the upcard can be taken and laid at once."""
        up = obs.upcard
        if up is None:
            return False
        hand = [*obs.hand, up]
        plays: list[RamiAction] = []
        if not obs.opened[obs.seat]:
            opening = best_opening(hand, self.rules, taken=up, must_lay=up)
            if opening is not None:
                plays.append(RamiAction.open(opening.combos))
        else:
            melds = best_melds(hand, self.rules, taken=up, must_lay=up)
            if melds is not None:
                plays.extend(RamiAction.meld(c) for c in melds.combos if up in c)
            moves = legal_moves(hand, obs.table, self.rules, taken=up)
            plays.extend(m for m in moves if m.card == up)
        return any(self._legal(RamiAction.take_discard(play)) for play in plays)

    def _can_play(self, obs: RamiObservation) -> list[str]:
        """The playing words legal now: ``open``, or ``meld``/``add``/``swap``."""
        hand, taken = obs.hand, obs.taken_card
        if not obs.opened[obs.seat]:
            opening = best_opening(hand, self.rules, taken=taken)
            found = opening is not None and self._legal(RamiAction.open(opening.combos))
            return ["open"] if found else []
        words = []
        melds = best_melds(hand, self.rules, taken=taken)
        if melds is not None and self._legal(RamiAction.meld(melds.combos[0])):
            words.append("meld")
        for move in legal_moves(hand, obs.table, self.rules, taken=taken):
            word = "add" if move.kind == "layoff" else "swap"
            if word not in words and self._legal(move):
                words.append(word)
        return words

    def choices(self, observation: RamiObservation, legal: Sequence[RamiAction]) -> list[str]:
        """The words legal now: ``draw``/``take``; the plays, ``end``/``discard``; or
        ``discard``."""
        kinds = {action.kind for action in legal}
        obs = observation
        if obs.phase == "draw":
            words = ["draw"] if "draw_stock" in kinds else []
            if "take_discard" in kinds or (
                self.rules.discard_must_be_melded and self._can_take(obs)
            ):
                words.append("take")
            return words
        if obs.phase == "play":
            words = self._can_play(obs)
            words.extend(w for k, w in (("layoff", "add"), ("swap_joker", "swap")) if k in kinds)
            if "end_play" in kinds:
                words.extend(["end", "discard"])
            return list(dict.fromkeys(words))
        return ["discard"] if "discard" in kinds else []

    # -- commands -----------------------------------------------------------------------

    def parse(self, line: str, observation: RamiObservation) -> list[RamiAction] | str:
        """A typed command as the actions it plays, or a calculation (``value``)."""
        words = line.split()
        command, args = words[0].lower(), words[1:]
        if command == "value":
            built = [combination_from_cards(c) for c in self._combos(args)]
            parts = " + ".join(f"[{self._cards(c.cards)}] {c.value}" for c in built)
            return f"  {parts} = {sum(c.value for c in built)}"
        if command == "draw":
            return [RamiAction.draw_stock()]
        if command == "take":
            if args:
                then = self.parse(" ".join(args), observation)
                if isinstance(then, str) or len(then) != 1:
                    raise InvalidActionError(
                        self._("write 'take open ...', 'take meld ...' or 'take add ...'")
                    )
                return [RamiAction.take_discard(then[0])]
            return [RamiAction.take_discard()]
        if command == "open":
            return [RamiAction.open(self._combos(args))]
        if command == "meld":
            return [RamiAction.meld(self._cards_typed(args))]
        if command in ("add", "layoff"):
            if len(args) != 3 or args[1].lower() not in ("to", "on", "onto"):
                raise InvalidActionError(
                    self._("write 'add 9S to 3' (a card, then the combination number)")
                )
            return [RamiAction.layoff(parse_card(args[0]), _number(args[2], self.tr))]
        if command == "swap":
            return [self._swap(args)]
        if command == "end":
            return [RamiAction.end_play()]
        if command == "discard":
            if len(args) != 1:
                raise InvalidActionError(self._("name one card: '{verb} 7H'", verb="discard"))
            card = self._discard_card(parse_card(args[0]), observation)
            if observation.phase == "play":
                return [RamiAction.end_play(), RamiAction.discard(card)]
            return [RamiAction.discard(card)]
        raise InvalidActionError(
            self._("unknown command {command}; type 'help' for the list", command=repr(command))
        )

    def _cards_typed(self, tokens: Sequence[str]) -> list[Card]:
        if not tokens:
            raise InvalidActionError(self._("name the cards, e.g. 'meld 4C 5C 6C'"))
        cards = [parse_card(t) for t in tokens]
        # Several jokers typed as JK are different physical jokers in the hand; a face
        # typed for the card just taken from the discard pile means that card (laying it
        # is what taking it was for).
        rnd = self.game.round
        jokers = iter(sorted(c for c in rnd.hands[HUMAN] if face_of(c) == JOKER_FACE))
        taken = rnd.taken_card if rnd.current_player == HUMAN else None
        chosen: list[Card] = []
        for card in cards:
            if face_of(card) == JOKER_FACE:
                card = next(jokers, card)
            elif taken is not None and face_of(card) == face_of(taken) and taken not in chosen:
                card = taken
            chosen.append(card)
        return chosen

    def _combos(self, tokens: Sequence[str]) -> list[list[Card]]:
        text = " ".join(tokens)
        parts = [part.split() for part in text.split("|") if part.strip()]
        if not parts:
            raise InvalidActionError(
                self._("name the combinations, e.g. 'open 7S 8S 9S | KH KS KD'")
            )
        flat = self._cards_typed([t for part in parts for t in part])
        combos, start = [], 0
        for part in parts:
            combos.append(flat[start : start + len(part)])
            start += len(part)
        return combos

    def _swap(self, args: Sequence[str]) -> RamiAction:
        if len(args) < 3 or args[1].lower() != "from":
            raise InvalidActionError(self._(_SWAP_USAGE))
        card, target = parse_card(args[0]), _number(args[2], self.tr)
        rest = list(args[3:])
        if not rest:
            return RamiAction.swap_joker(card, target)
        if rest[0].lower() == "to" and len(rest) == 2:
            return RamiAction.swap_joker(card, target, joker_target=_number(rest[1], self.tr))
        if rest[0].lower() == "with" and len(rest) >= 3:
            return RamiAction.swap_joker(card, target, joker_cards=self._cards_typed(rest[1:]))
        raise InvalidActionError(self._(_SWAP_USAGE))

    @staticmethod
    def _discard_card(card: Card, obs: RamiObservation) -> Card:
        """The physical card of that face in hand, not the one just taken if possible."""
        same = [c for c in obs.hand if face_of(c) == face_of(card)]
        for held in same:
            if held != obs.taken_card:
                return held
        return same[0] if same else card

    def hint(self, observation: RamiObservation) -> str:
        """The best opening, or the combinations and lay-offs to play (as commands)."""
        obs = observation
        rules = self.rules
        hand = obs.hand
        _ = self._
        if obs.phase == "draw":
            return "  " + _(
                "draw from the stock, or take the discard if it completes a combination"
            )
        if not obs.opened[obs.seat]:
            opening = best_opening(hand, rules, taken=obs.taken_card)
            if opening is None:
                melds = best_melds(hand, rules)
                return "  " + _(
                    "no opening yet: your best combinations make {value} of {threshold}",
                    value=melds.value if melds is not None else 0,
                    threshold=rules.opening_threshold,
                )
            combos = " | ".join(format_cards(c) for c in opening.combos)
            return f"  open {combos}   " + _(
                "(= {value}; leaves {points} points)",
                value=opening.value,
                points=opening.penalty_left,
            )
        lines: list[str] = []
        melds = best_melds(hand, rules, taken=obs.taken_card)
        if melds is not None:
            lines.extend(f"  meld {format_cards(c)}" for c in melds.combos)
        for move in legal_moves(hand, obs.table, rules, taken=obs.taken_card)[:8]:
            lines.append("  " + _command_for(move))
        return "\n".join(lines) if lines else "  " + _("nothing to lay: end and discard")

    # -- bots ---------------------------------------------------------------------------

    def describe(self, seat: int, action: RamiAction, observation: RamiObservation) -> list[str]:
        """A bot's move in a sentence (none for ending its plays)."""
        text = self._describe(seat, action, observation)
        return [text] if text else []

    def _describe(self, seat: int, action: RamiAction, obs: RamiObservation) -> str:
        _, name, kind = self._, self.name(seat), action.kind
        card = self.card_text(action.card or 0)
        if kind == "draw_stock":
            return _("{name} draws from the stock.", name=name)
        if kind == "take_discard":
            up = "" if obs.upcard is None else self.card_text(obs.upcard)
            if action.then is None:
                return _("{name} takes {card}.", name=name, card=up)
            then = self._describe(seat, action.then, obs)
            return _("{name} takes {card}. {then}", name=name, card=up, then=then)
        if kind in ("open", "meld"):
            combos = [combination_from_cards(c) for c in action.combos or ()]
            parts = " ".join(f"[{self._cards(c.cards)}]" for c in combos)
            if kind == "open":
                total = sum(c.value for c in combos)
                return _("{name} opens: {combos} = {value}.", name=name, combos=parts, value=total)
            return _("{name} lays {combos}.", name=name, combos=parts)
        target = (action.target or 0) + 1
        if kind == "layoff":
            return _(
                "{name} lays {card} off on combination {number}.",
                name=name,
                card=card,
                number=target,
            )
        if kind == "swap_joker":
            return self._describe_swap(name, card, target, action)
        if kind == "discard":
            return _("{name} discards {card}.", name=name, card=card)
        return ""

    def _describe_swap(self, name: str, card: str, target: int, action: RamiAction) -> str:
        _ = self._
        if action.joker_target is not None:
            where = _("onto combination {number}", number=action.joker_target + 1)
        elif action.joker_cards is not None:
            where = _("with {cards}", cards=self._cards(action.joker_cards))
        else:
            where = _("into the hand")
        return _(
            "{name} gives {card} for the joker of combination {number} and plays it {where}.",
            name=name,
            card=card,
            number=target,
            where=where,
        )

    # -- the end of a round, the end of the game ------------------------------------

    def reveal(self, result: RamiRoundResult) -> list[str]:
        """Who went out (or why the round is blocked), every hand and penalty."""
        _ = self._
        if result.outcome == "out":
            winner = result.winners[0]
            if winner == HUMAN:
                out = _("You go out!")
            else:
                out = _("{name} goes out!", name=self.name(winner))
            if result.rami_sec:
                out += " " + _("(rami sec: the others' penalties count double)")
            lines = [out]
        else:
            reason = _("the stock ran out") if result.blocked_reason == "stock" else _("turn limit")
            lows = ", ".join(self.name(s) for s in result.winners)
            lines = [
                _(
                    "The round is blocked ({reason}); lowest hand: {seats}.",
                    reason=reason,
                    seats=lows,
                )
            ]
        for seat in self.game.finished_rounds[-1].active:
            opened = "" if result.opened[seat] else " " + _("(never opened)")
            penalty = _("penalty {points}", points=f"{result.penalties[seat]:>3}")
            lines.append(
                f"  {self.name(seat):<6} {penalty}{opened}  "
                f"{self._cards(result.hands[seat]) or '-'}"
            )
        lines.append(_("Totals: {totals}", totals=self._totals()))
        return lines

    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total (or the last one left)."""
        final = self.game.result
        return () if final is None else final.winners
