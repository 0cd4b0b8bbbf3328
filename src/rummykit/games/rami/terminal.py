"""Rami 40 / 51 in the terminal: a person (seat 0) against 1-5 bots.

The loop only reads lines and prints text; every rule is the engine's
(:mod:`rummykit.games.rami.round`). Input and output are passed in, so tests drive a whole
game with scripted lines. :func:`run_rami_terminal` is the entry point the command line
calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummykit.cards import JOKER_FACE, SUITS, Card, format_card, format_cards, parse_card
from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.errors import PlayerQuitError
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.heuristic_bot import RAMI_BOTS, make_rami_bot
from rummykit.games.rami.layoffs import legal_moves
from rummykit.games.rami.opening import best_melds, best_opening
from rummykit.games.rami.round import (
    PRESETS,
    RamiAction,
    RamiObservation,
    RamiRoundResult,
    RamiRules,
)
from rummykit.games.rami.round import preset as rami_preset
from rummykit.games.rami.table import combination_from_cards

__all__ = ["HELP", "PlayerQuitError", "RamiTerminalGame", "run_rami_terminal"]

HUMAN = 0

HELP = """\
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
  hint                      the best opening, or the combinations and lay-offs you have
  help                      this text
  quit                      leave the game"""


def _face_key(card: Card) -> tuple[int, int]:
    face = card & 63
    return (face if face != JOKER_FACE else 99, card.copy)


def _grouped(hand: Sequence[Card]) -> str:
    """The hand sorted and grouped by suit: ``S: 2 7 8  C: 9 K  JK``."""
    groups: list[str] = []
    for index, suit in enumerate(SUITS):
        ranks = [
            format_card(c)[:-1]
            for c in sorted(hand, key=_face_key)
            if (c & 63) // 13 == index and c & 63 != JOKER_FACE
        ]
        if ranks:
            groups.append(f"{suit}: {' '.join(ranks)}")
    jokers = sum(1 for c in hand if c & 63 == JOKER_FACE)
    if jokers:
        groups.append(" ".join(["JK"] * jokers))
    return "   ".join(groups) or "(empty)"


class RamiTerminalGame:
    """A game of Rami between a person (seat 0) and bots, in plain text."""

    def __init__(
        self,
        rules: RamiRules | None = None,
        *,
        players: int = 4,
        bot: str = "heuristic",
        seed: int | None = None,
        name: str = "rami",
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], None] = print,
        bots: Mapping[int, Any] | None = None,
    ) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"rami is played by 2-6 players (you and 1-5 bots), not {players}")
        self.rules = rules or RamiRules()
        self.name = name
        self.game = RamiGame(self.rules, players, seed)
        # ``bots`` (seat -> bot, e.g. from the registry) overrides ``bot``, a built-in name.
        self.bots = (
            dict(bots)
            if bots is not None
            else {
                seat: make_rami_bot(
                    bot, seed=None if seed is None else seed * 10 + seat, rules=self.rules
                )
                for seat in range(1, players)
            }
        )
        if sorted(self.bots) != list(range(1, players)):
            raise ValueError(f"bots must hold seats 1-{players - 1}, not {sorted(self.bots)}")
        self.read = input_fn
        self.say = output_fn

    def who(self, seat: int) -> str:
        """``You`` or ``Bot N``."""
        return "You" if seat == HUMAN else f"Bot {seat}"

    # -- the loop -------------------------------------------------------------------

    def run(self) -> RamiGame:
        """Play until the game ends or the person quits; return the game."""
        rules = self.rules
        self.say(
            f"{self.name}: opening {rules.opening_threshold}, {self.game.players} players. "
            "You are seat 0; type 'help' for commands."
        )
        self._announce_round()
        try:
            while not self.game.is_over:
                seat = self.game.current_player
                if seat == HUMAN:
                    self._human_turn()
                else:
                    self._bot_turn(seat)
        except PlayerQuitError:
            self.say("You left the game.")
            return self.game
        self.say("")
        self.say("Game over. Score sheet (penalties; low wins):")
        self.say(self.game.score_sheet())
        result = self.game.result
        if result is not None:
            if HUMAN in result.winners:
                self.say("You win the game!" if len(result.winners) == 1 else "You share the win!")
            else:
                self.say(", ".join(self.who(s) for s in result.winners) + " wins the game.")
        return self.game

    def _announce_round(self) -> None:
        rnd = self.game.round
        self.say("")
        self.say(
            f"=== Round {self.game.round_number}: {self.who(rnd.dealer)} dealt; "
            f"{self.who(rnd.current_player)} start(s). Totals: {self._totals()} ==="
        )

    def _totals(self) -> str:
        return ", ".join(f"{self.who(s)} {t}" for s, t in enumerate(self.game.totals))

    def _apply(self, action: RamiAction) -> None:
        rnd = self.game.round
        number = self.game.round_number
        self.game.apply(action)
        if rnd.is_over:
            assert rnd.result is not None
            self._reveal(rnd.result)
            if not self.game.is_over and self.game.round_number != number:
                self._announce_round()

    # -- bots ---------------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        observation = self.game.observation(seat)
        action = self.bots[seat].act(observation, self.game.legal_actions())
        line = self._describe(seat, action, observation)
        if line:
            self.say(line)
        self._apply(action)

    def _describe(self, seat: int, action: RamiAction, obs: RamiObservation) -> str:
        name = self.who(seat)
        kind = action.kind
        if kind == "draw_stock":
            return f"{name} draws from the stock."
        if kind == "take_discard":
            text = f"{name} takes {obs.upcard}"
            return text + (f" and {self._describe(seat, action.then, obs)}" if action.then else ".")
        if kind in ("open", "meld"):
            combos = [combination_from_cards(c) for c in action.combos or ()]
            parts = " ".join(f"[{c}]" for c in combos)
            if kind == "open":
                return f"{name} opens: {parts} = {sum(c.value for c in combos)}."
            return f"{name} lays {parts}."
        if kind == "layoff":
            return f"{name} lays {format_card(action.card or 0)} off on {action.target}."
        if kind == "swap_joker":
            where = (
                f"onto {action.joker_target}"
                if action.joker_target is not None
                else f"with {format_cards(action.joker_cards)}"
                if action.joker_cards is not None
                else "into the hand"
            )
            return (
                f"{name} gives {format_card(action.card or 0)} for the joker of "
                f"{action.target} and plays it {where}."
            )
        if kind == "discard":
            return f"{name} discards {format_card(action.card or 0)}."
        return ""

    # -- the person ---------------------------------------------------------------------

    def _show(self, obs: RamiObservation) -> None:
        self.say("")
        self.say(f"Table ({len(obs.table)} combination(s)):")
        for index, combo in enumerate(obs.table):
            self.say(f"  {index:>2}. {combo.describe():<14} {combo!s:<40} {self.who(combo.owner)}")
        if not obs.table:
            self.say("   (empty)")
        others = "  ".join(
            f"{self.who(s)}: {obs.hand_sizes[s]} card{'' if obs.hand_sizes[s] == 1 else 's'}"
            f"{' (opened)' if obs.opened[s] else ''}"
            for s in obs.active
            if s != obs.seat
        )
        top = obs.upcard
        shown = "(empty)" if top is None else str(top)  # AS is card 0: no truth test
        self.say(f"Stock: {obs.stock_size}   Discard pile top: {shown}")
        self.say(f"Others: {others}")
        self.say(f"Your hand ({len(obs.hand)}): {_grouped(obs.hand)}")
        if obs.taken_card is not None:
            self.say(f"  (you took {obs.taken_card} from the discard pile: keep it this turn)")
        self.say(self._opening_status(obs))

    def _opening_status(self, obs: RamiObservation) -> str:
        rules = self.rules
        if obs.opened[obs.seat]:
            return "You have opened."
        melds = best_melds(obs.hand, rules)
        value = melds.value if melds is not None else 0
        return (
            f"Not opened: your combinations make {value} now "
            f"({rules.opening_threshold} needed to open)."
        )

    def _prompt(self, obs: RamiObservation) -> str:
        if obs.phase == "draw":
            return "draw or take? > "
        if obs.phase == "play":
            return "open, meld, add, swap, end or discard? > "
        return "discard? > "

    def _human_turn(self) -> None:
        observation = self.game.observation(HUMAN)
        self._show(observation)
        while True:
            try:
                line = self.read(self._prompt(observation))
            except EOFError:
                raise PlayerQuitError from None
            try:
                actions = self._parse(line, observation)
            except (InvalidActionError, ValueError) as error:
                self.say(f"  {error}")
                continue
            if not actions:
                continue
            try:
                # A command may be two actions (end, then discard): try both first, so
                # an illegal one leaves the game as it was.
                trial = self.game.round.clone()
                for action in actions:
                    trial.apply(action)
            except IllegalActionError as error:
                self.say(f"  Not allowed: {error}")
                continue
            for action in actions:
                self._apply(action)
            if self.game.is_over or self.game.current_player != HUMAN:
                return
            observation = self.game.observation(HUMAN)
            self._show(observation)

    def _parse(self, line: str, obs: RamiObservation) -> list[RamiAction]:
        words = line.strip().split()
        if not words:
            return []
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "exit"):
            raise PlayerQuitError
        if command in ("help", "?"):
            self.say(HELP)
            return []
        if command == "hint":
            self.say(self._hint(obs))
            return []
        if command == "value":
            combos = self._combos(args)
            built = [combination_from_cards(c) for c in combos]
            parts = " + ".join(f"[{c}] {c.value}" for c in built)
            self.say(f"  {parts} = {sum(c.value for c in built)}")
            return []
        if command == "draw":
            return [RamiAction.draw_stock()]
        if command == "take":
            if args:
                then = self._parse(" ".join(args), obs)
                if len(then) != 1:
                    raise ValueError("write 'take open ...', 'take meld ...' or 'take add ...'")
                return [RamiAction.take_discard(then[0])]
            return [RamiAction.take_discard()]
        if command == "open":
            return [RamiAction.open(self._combos(args))]
        if command == "meld":
            return [RamiAction.meld(self._cards(args))]
        if command in ("add", "layoff"):
            if (
                len(args) != 3
                or args[1].lower() not in ("to", "on", "onto")
                or not args[2].isdigit()
            ):
                raise ValueError("write 'add 9S to 3' (a card, then the combination number)")
            return [RamiAction.layoff(self._card(args[0]), int(args[2]))]
        if command == "swap":
            return [self._swap(args)]
        if command == "end":
            return [RamiAction.end_play()]
        if command == "discard":
            if len(args) != 1:
                raise ValueError("name one card: 'discard 7H'")
            card = self._discard_card(parse_card(args[0]), obs)
            if obs.phase == "play":
                return [RamiAction.end_play(), RamiAction.discard(card)]
            return [RamiAction.discard(card)]
        raise ValueError(f"unknown command {command!r}; type 'help' for the list")

    @staticmethod
    def _card(token: str) -> Card:
        return parse_card(token)

    def _cards(self, tokens: Sequence[str]) -> list[Card]:
        if not tokens:
            raise ValueError("name the cards, e.g. 'meld 4C 5C 6C'")
        cards = [parse_card(t) for t in tokens]
        # Several jokers typed as JK are different physical jokers in the hand; a face
        # typed for the card just taken from the discard pile means that card (laying it
        # is what taking it was for).
        rnd = self.game.round
        jokers = iter(sorted(c for c in rnd.hands[HUMAN] if c & 63 == JOKER_FACE))
        taken = rnd.taken_card if rnd.current_player == HUMAN else None
        chosen: list[Card] = []
        for card in cards:
            if card & 63 == JOKER_FACE:
                card = next(jokers, card)
            elif taken is not None and card & 63 == taken & 63 and taken not in chosen:
                card = taken
            chosen.append(card)
        return chosen

    def _combos(self, tokens: Sequence[str]) -> list[list[Card]]:
        text = " ".join(tokens)
        parts = [part.split() for part in text.split("|") if part.strip()]
        if not parts:
            raise ValueError("name the combinations, e.g. 'open 7S 8S 9S | KH KS KD'")
        flat = self._cards([t for part in parts for t in part])
        combos, start = [], 0
        for part in parts:
            combos.append(flat[start : start + len(part)])
            start += len(part)
        return combos

    def _swap(self, args: Sequence[str]) -> RamiAction:
        usage = "write 'swap 8S from 2 to 4', 'swap 8S from 2 with 4D 5D' or 'swap 8S from 2'"
        if len(args) < 3 or args[1].lower() != "from" or not args[2].isdigit():
            raise ValueError(usage)
        card, target = self._card(args[0]), int(args[2])
        rest = list(args[3:])
        if not rest:
            return RamiAction.swap_joker(card, target)
        if rest[0].lower() == "to" and len(rest) == 2 and rest[1].isdigit():
            return RamiAction.swap_joker(card, target, joker_target=int(rest[1]))
        if rest[0].lower() == "with" and len(rest) >= 3:
            return RamiAction.swap_joker(card, target, joker_cards=self._cards(rest[1:]))
        raise ValueError(usage)

    def _discard_card(self, card: Card, obs: RamiObservation) -> Card:
        """The physical card of that face in hand, not the one just taken if possible."""
        same = [c for c in obs.hand if c & 63 == card & 63]
        for held in same:
            if held != obs.taken_card:
                return held
        return same[0] if same else card

    def _hint(self, obs: RamiObservation) -> str:
        rules = self.rules
        hand = obs.hand
        if obs.phase == "draw":
            return "  draw from the stock, or take the discard if it completes a combination"
        if not obs.opened[obs.seat]:
            opening = best_opening(hand, rules, taken=obs.taken_card)
            if opening is None:
                melds = best_melds(hand, rules)
                value = melds.value if melds is not None else 0
                return (
                    f"  no opening yet: your best combinations make {value} of "
                    f"{rules.opening_threshold}"
                )
            combos = " | ".join(format_cards(c) for c in opening.combos)
            return f"  open {combos}   (= {opening.value}; leaves {opening.penalty_left} points)"
        lines: list[str] = []
        melds = best_melds(hand, rules, taken=obs.taken_card)
        if melds is not None:
            lines.extend(f"  meld {format_cards(c)}" for c in melds.combos)
        for move in legal_moves(hand, obs.table, rules, taken=obs.taken_card)[:8]:
            lines.append("  " + self._command_for(move))
        return "\n".join(lines) if lines else "  nothing to lay: end and discard"

    @staticmethod
    def _command_for(action: RamiAction) -> str:
        if action.kind == "layoff":
            return f"add {format_card(action.card or 0)} to {action.target}"
        text = f"swap {format_card(action.card or 0)} from {action.target}"
        if action.joker_target is not None:
            return text + f" to {action.joker_target}"
        if action.joker_cards is not None:
            return text + " with " + format_cards(action.joker_cards)
        return text

    # -- the end of a round ---------------------------------------------------------

    def _reveal(self, result: RamiRoundResult) -> None:
        self.say("")
        if result.outcome == "out":
            winner = result.winners[0]
            sec = " (rami sec: the others' penalties count double)" if result.rami_sec else ""
            verb = "go" if winner == HUMAN else "goes"
            self.say(f"{self.who(winner)} {verb} out!{sec}")
        else:
            reason = "the stock ran out" if result.blocked_reason == "stock" else "turn limit"
            lows = ", ".join(self.who(s) for s in result.winners)
            self.say(f"The round is blocked ({reason}); lowest hand: {lows}.")
        for seat in self.game.finished_rounds[-1].active:
            hand = result.hands[seat]
            opened = "" if result.opened[seat] else " (never opened)"
            self.say(
                f"  {self.who(seat):<6} {format_cards(hand) or '-':<40} "
                f"penalty {result.penalties[seat]}{opened}"
            )
        self.say(f"Totals: {self._totals()}")


def run_rami_terminal(
    preset: str = "rami51",
    players: int = 4,
    bot: str = "heuristic",
    seed: int | None = None,
    input_fn: Callable[[str], str] = input,
    output_fn: Callable[[str], None] = print,
    *,
    rules: RamiRules | None = None,
    bots: Mapping[int, Any] | None = None,
) -> RamiGame:
    """Play ``rami51`` / ``rami40`` / ``rami51-house`` / ``rami40-house`` in the terminal:
    you (seat 0) and ``players - 1`` bots (``heuristic`` or ``random``). ``rules``
    overrides the preset's options (e.g. with ``-o`` options applied); ``bots`` (seat ->
    bot) overrides ``bot`` with bots built elsewhere, e.g. any registered level."""
    if bots is None and bot not in RAMI_BOTS:
        raise ValueError(f"unknown rami bot {bot!r}; choose one of {', '.join(RAMI_BOTS)}")
    if preset not in PRESETS:
        raise ValueError(f"unknown rami preset {preset!r}; choose one of {', '.join(PRESETS)}")
    game = RamiTerminalGame(
        rules or rami_preset(preset),
        players=players,
        bot=bot,
        seed=seed,
        name=preset,
        bots=bots,
        input_fn=input_fn,
        output_fn=output_fn,
    )
    return game.run()
