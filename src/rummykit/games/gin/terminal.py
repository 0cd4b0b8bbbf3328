"""Gin Rummy in the terminal: a person (seat 0) against a bot (seat 1).

The loop only reads lines and prints text; every rule is the engine's. Input and
output are passed in, so tests drive a whole match with scripted lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.bots.base import Bot
from rummykit.cards import SUITS, Card, format_card, format_cards, parse_card, parse_cards
from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.errors import PlayerQuitError
from rummykit.games.gin.deadwood import (
    CARD_VALUES,
    deadwood_after_each_discard,
    mask_of,
    min_deadwood,
)
from rummykit.games.gin.hand import GinAction, GinHandResult, GinObservation, GinRules
from rummykit.games.gin.match import GinMatch

__all__ = ["HELP", "GinTerminalGame", "PlayerQuitError"]

HUMAN = 0
BOT = 1

HELP = """\
Commands (cards are written like 7H, TD or 10D, QS, AC):
  draw             draw the top card of the stock
  take             take the upcard (offer) or the top card of the discard pile
  pass             pass on the upcard at the start of a hand
  discard 7H       discard a card (not the one you just took from the pile)
  knock 9S         knock, laying 9S face down; your best melds are shown for you
  gin              knock with no deadwood (the engine picks the card), or big gin
                   when all 11 cards are melded
  show             (only when you must lay off by hand) show your best melds and
                   lay-offs; or `show 3C 3D 3H | 7H 8H 9H ; TS>2` for your own choice
  sort rank|suit   order your hand by rank or by suit
  hint             the discard that leaves the least deadwood
  help             this text
  quit             leave the game"""


@dataclass
class _View:
    sort: str = "suit"


def _sorted(cards: Sequence[Card], order: str) -> list[Card]:
    if order == "rank":
        return sorted(cards, key=lambda c: (c.rank, SUITS.index(c.suit or "S")))
    return sorted(cards, key=lambda c: (SUITS.index(c.suit or "S"), c.rank))


class GinTerminalGame:
    """A match to the target between a person and a bot, in plain text."""

    def __init__(
        self,
        bot: Bot[GinObservation, GinAction],
        *,
        rules: GinRules | None = None,
        seed: int | None = None,
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], None] = print,
    ) -> None:
        self.bot = bot
        self.rules = rules or GinRules()
        self.match = GinMatch(self.rules, seed)
        self.read = input_fn
        self.say = output_fn
        self.view = _View()

    # -- the loop -------------------------------------------------------------------

    def run(self) -> GinMatch:
        """Play until the match ends or the person quits; return the match."""
        self.say(f"Gin Rummy to {self.rules.target}. You are seat 0; type 'help' for commands.")
        self._announce_hand()
        try:
            while not self.match.is_over:
                if self.match.current_player == BOT:
                    self._bot_turn()
                else:
                    self._human_turn()
        except PlayerQuitError:
            self.say("You left the game.")
            return self.match
        self.say("")
        self.say("Match over. Score sheet:")
        self.say(self.match.score_sheet())
        final = self.match.result
        if final is not None:
            if final.winner is None:
                self.say("The match is a tie.")
            else:
                self.say(
                    "You win the match!" if final.winner == HUMAN else "The bot wins the match."
                )
        return self.match

    def _announce_hand(self) -> None:
        hand = self.match.hand
        who = "you" if hand.dealer == HUMAN else "the bot"
        self.say("")
        self.say(f"=== Hand {self.match.hand_number}: {who} dealt. Scores: {self._scores()} ===")

    def _scores(self) -> str:
        points = self.match.points
        return f"you {points[HUMAN]}, bot {points[BOT]}"

    def _apply(self, action: GinAction) -> None:
        hand_before = self.match.hand
        number = self.match.hand_number
        self.match.apply(action)
        if hand_before.is_over:
            assert hand_before.result is not None
            self._reveal(hand_before.result)
            if not self.match.is_over and self.match.hand_number != number:
                self._announce_hand()

    # -- the bot ------------------------------------------------------------------------

    def _bot_turn(self) -> None:
        observation = self.match.observation(BOT)
        action = self.bot.act(observation, self.match.legal_actions())
        self.say(self._describe_bot(action, observation))
        self._apply(action)

    def _describe_bot(self, action: GinAction, observation: GinObservation) -> str:
        kind = action.kind
        upcard = observation.upcard
        if kind == "take_upcard":
            return f"Bot takes the upcard {upcard}."
        if kind == "pass":
            return "Bot passes."
        if kind == "draw_stock":
            return "Bot draws from the stock."
        if kind == "draw_discard":
            return f"Bot takes {upcard} from the discard pile."
        if kind == "discard":
            return f"Bot discards {action.card}."
        if kind == "knock":
            return f"Bot knocks (face-down card {action.card})."
        if kind == "big_gin":
            return "Bot declares BIG GIN!"
        return "Bot shows its melds and lays off."

    # -- the person ---------------------------------------------------------------------

    def _show_table(self, observation: GinObservation) -> None:
        hand = list(observation.hand)
        self.say("")
        # Card 0 (the ace of spades) is falsy: test for None, not truth.
        top = "(empty)" if observation.upcard is None else str(observation.upcard)
        self.say(
            f"Stock: {observation.stock_size}   Discard pile top: {top}   Scores: {self._scores()}"
        )
        if observation.opponent_known_cards:
            self.say(
                f"Bot holds (taken from the pile): {format_cards(observation.opponent_known_cards)}"
            )
        arrangement = min_deadwood(hand, ace_high=self.rules.ace_high_runs)
        melds = "  ".join("[" + format_cards(m) + "]" for m in arrangement.melds) or "(no melds)"
        loose = format_cards(_sorted(arrangement.deadwood_cards, self.view.sort)) or "-"
        self.say(f"Your hand ({len(hand)}): {format_cards(_sorted(hand, self.view.sort))}")
        self.say(f"  melds: {melds}   deadwood: {loose} = {arrangement.deadwood}")

    def _prompt(self, observation: GinObservation) -> str:
        phase = observation.phase
        if phase == "offer":
            return f"Upcard {observation.upcard}: take or pass? > "
        if phase == "draw":
            return "draw or take? > "
        if phase == "layoff":
            return "show your melds and lay-offs ('show' for the best) > "
        return "discard, knock or gin? > "

    def _human_turn(self) -> None:
        observation = self.match.observation(HUMAN)
        self._show_table(observation)
        while True:
            try:
                line = self.read(self._prompt(observation))
            except EOFError:
                raise PlayerQuitError from None
            try:
                action = self._parse(line, observation)
            except (InvalidActionError, ValueError) as error:
                self.say(f"  {error}")
                continue
            if action is None:
                continue
            try:
                self._apply(action)
            except IllegalActionError as error:
                self.say(f"  Not allowed: {error}")
                continue
            return

    def _parse(self, line: str, observation: GinObservation) -> GinAction | None:
        words = line.strip().split()
        if not words:
            return None
        command, args = words[0].lower(), words[1:]
        phase = observation.phase
        if command in ("quit", "exit"):
            raise PlayerQuitError
        if command in ("help", "?"):
            self.say(HELP)
            return None
        if command == "sort":
            if not args or args[0].lower() not in ("rank", "suit"):
                raise ValueError("write 'sort rank' or 'sort suit'")
            self.view.sort = args[0].lower()
            self._show_table(observation)
            return None
        if command == "hint":
            self.say(f"  {self._hint(observation)}")
            return None
        if command == "pass":
            return GinAction.pass_()
        if command == "take":
            return GinAction.take_upcard() if phase == "offer" else GinAction.draw_discard()
        if command == "draw":
            if phase == "offer":
                raise ValueError("at the start of a hand you 'take' the upcard or 'pass'")
            return GinAction.draw_stock()
        if command == "discard":
            return GinAction.discard(self._one_card(args, "discard"))
        if command == "knock":
            return GinAction.knock(self._one_card(args, "knock"))
        if command in ("gin", "biggin"):
            return self._gin(observation)
        if command == "show":
            return self._show(args)
        raise ValueError(f"unknown command {command!r}; type 'help' for the list")

    @staticmethod
    def _one_card(args: list[str], verb: str) -> Card:
        if len(args) != 1:
            raise ValueError(f"name one card: '{verb} 7H'")
        return parse_card(args[0])

    def _gin(self, observation: GinObservation) -> GinAction:
        if observation.phase != "discard":
            raise ValueError("you can go gin only after drawing, with 11 cards in hand")
        legal = self.match.legal_actions()
        if any(action.kind == "big_gin" for action in legal):
            return GinAction.big_gin()
        after = deadwood_after_each_discard(mask_of(observation.hand), self.rules.ace_high_runs)
        for action in legal:
            if action.kind == "knock" and after[int(action.card or 0)] == 0:
                return action
        best = min(after.values())
        raise ValueError(f"no gin yet: your best discard leaves {best} deadwood")

    def _show(self, args: list[str]) -> GinAction:
        if not args:
            return self.match.legal_actions()[0]
        text = " ".join(args)
        melds_text, _, layoffs_text = text.partition(";")
        melds = [parse_cards(part) for part in melds_text.split("|") if part.strip()]
        layoffs = []
        for item in layoffs_text.split():
            card, _, index = item.partition(">")
            if not index.isdigit():
                raise ValueError(f"write a lay-off as CARD>MELD, e.g. 7H>1, not {item!r}")
            layoffs.append((parse_card(card), int(index)))
        return GinAction.lay_off(melds, layoffs)

    def _hint(self, observation: GinObservation) -> str:
        if observation.phase != "discard":
            return "draw first; then 'hint' names the best discard"
        after = deadwood_after_each_discard(mask_of(observation.hand), self.rules.ace_high_runs)
        taken = observation.taken_card
        options = {card: value for card, value in after.items() if card != taken}
        card = min(options, key=lambda c: (options[c], -CARD_VALUES[c]))
        return f"discard {format_card(card)} to keep {options[card]} deadwood"

    # -- end of a hand ------------------------------------------------------------------

    def _reveal(self, result: GinHandResult) -> None:
        self.say("")
        if result.outcome == "draw":
            self.say("The stock is down to the floor: the hand is drawn, nobody scores.")
            self.say(f"  your cards: {format_cards(result.hands[HUMAN])}")
            self.say(f"  bot's cards: {format_cards(result.hands[BOT])}")
            return
        names = {HUMAN: "You", BOT: "The bot"}
        knocker = result.knocker
        assert knocker is not None
        defender = 1 - knocker
        verb = {"big_gin": "went BIG GIN", "gin": "went GIN"}.get(result.outcome, "knocked")
        self.say(f"{names[knocker]} {verb}.")
        melds = "  ".join("[" + format_cards(m) + "]" for m in result.knocker_melds)
        loose = format_cards(result.knocker_deadwood_cards) or "-"
        self.say(f"  {names[knocker]}: {melds}  deadwood {loose} = {result.knocker_deadwood}")
        own = "  ".join("[" + format_cards(m) + "]" for m in result.defender_melds) or "(no melds)"
        self.say(f"  {names[defender]}: {own}")
        if result.layoffs:
            laid = ", ".join(
                f"{format_card(card)} on [{format_cards(result.knocker_melds[index])}]"
                for card, index in result.layoffs
            )
            self.say(f"    laid off: {laid}")
        self.say(
            f"    deadwood {format_cards(result.defender_deadwood_cards) or '-'} = "
            f"{result.defender_deadwood}"
        )
        if result.winner is None:
            self.say("Equal deadwood: nobody scores this hand.")
            return
        reason = {
            "undercut": "undercut",
            "gin": "gin",
            "big_gin": "big gin",
            "knock": "knock",
        }[result.outcome]
        self.say(f"{names[result.winner]} score(s) {result.points} ({reason}).")
