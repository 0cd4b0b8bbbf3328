"""Carousel in the terminal: a person (seat 0) against bots.

Melding in Carousel means submitting the whole new table. The commands build that
layout from the current table for the person (``meld``, ``add``) or take it whole
(``layout``); the engine checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.bots.base import Bot
from rummykit.cards import Card, format_cards, parse_cards
from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.errors import PlayerQuitError
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.hand import (
    CarouselAction,
    CarouselHandResult,
    CarouselObservation,
    CarouselRules,
    carousel_hand_value,
)

__all__ = ["HELP", "CarouselTerminalGame"]

HUMAN = 0

HELP = """\
Commands (cards like 7H, TD or 10D, AS; a joker on the table is written JK=5S):
  draw                 draw another card (up to three a turn, before melding)
  meld 7H 8H 9H        put a new meld on the table from your hand
  add 9H to 2          add cards to table meld number 2
  layout 5H 6H 7H | 8H 8C 8D | ...
                       submit a whole new table (any rearrangement); every table card
                       must stay on the table and at least one hand card must be added
  hint                 the solver's best placement and the layout it leads to
  auto                 play the hint
  knock                end your turn and knock (hand value 5 or less)
  end                  end your turn
  help                 this text
  quit                 leave the game"""


class CarouselTerminalGame:
    """A game to the target between a person (seat 0) and bots."""

    def __init__(
        self,
        bots: Sequence[Bot[CarouselObservation, CarouselAction]],
        *,
        rules: CarouselRules | None = None,
        seed: int | None = None,
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], None] = print,
    ) -> None:
        self.bots = list(bots)
        self.rules = rules or CarouselRules()
        self.game = CarouselGame(self.rules, players=len(self.bots) + 1, seed=seed)
        self.read = input_fn
        self.say = output_fn

    def run(self) -> CarouselGame:
        """Play until the game ends or the person quits."""
        self.say(
            f"Carousel to {self.rules.target}, {self.game.players} players. "
            "You are seat 0; type 'help' for commands."
        )
        self._announce()
        try:
            while not self.game.is_over:
                if self.game.current_player == HUMAN:
                    self._human_turn()
                else:
                    self._bot_turn()
        except PlayerQuitError:
            self.say("You left the game.")
            return self.game
        self.say("")
        self.say("Game over. Score sheet:")
        self.say(self.game.score_sheet())
        final = self.game.result
        if final is not None and HUMAN in final.winners:
            self.say("You win!" if len(final.winners) == 1 else "You share the win!")
        return self.game

    def _announce(self) -> None:
        self.say("")
        self.say(
            f"=== Hand {self.game.hand_number}: seat {self.game.hand.dealer} dealt. "
            f"Scores: {self._scores()} ==="
        )

    def _scores(self) -> str:
        return ", ".join(f"seat {s}: {p}" for s, p in enumerate(self.game.scores))

    def _apply(self, action: CarouselAction) -> None:
        hand = self.game.hand
        self.game.apply(action)
        if hand.is_over:
            assert hand.result is not None
            self._reveal(hand.result)
            if not self.game.is_over:
                self._announce()

    def _bot_turn(self) -> None:
        seat = self.game.current_player
        bot = self.bots[seat - 1]
        observation = self.game.observation(seat)
        action = bot.act(observation, self.game.legal_actions())
        if action.kind == "draw":
            self.say(f"Seat {seat} draws again.")
        elif action.kind == "meld":
            placed = self._placed_count(observation, action)
            self.say(f"Seat {seat} melds {placed} card(s).")
        elif action.kind == "knock":
            self.say(f"Seat {seat} knocks!")
        else:
            self.say(f"Seat {seat} ends the turn ({len(observation.hand)} cards in hand).")
        self._apply(action)
        if action.kind == "meld" and not self.game.is_over:
            self._show_table_only()

    @staticmethod
    def _placed_count(observation: CarouselObservation, action: CarouselAction) -> int:
        before = sum(len(meld) for meld in observation.table)
        after = sum(len(meld) for meld in action.layout or ())
        return after - before

    def _show_table_only(self) -> None:
        table = self.game.hand.table
        if not table:
            self.say("Table: (empty)")
            return
        self.say("Table:")
        for number, meld in enumerate(table, start=1):
            self.say(f"  {number:>2}: {format_cards(meld)}")

    def _show(self, observation: CarouselObservation) -> None:
        self.say("")
        self._show_table_only()
        sizes = ", ".join(
            f"seat {s}: {n}" for s, n in enumerate(observation.hand_sizes) if s != HUMAN
        )
        lap = "  FINAL LAP (no draws)" if observation.final_lap else ""
        self.say(f"Stock: {observation.stock_size}   Cards held: {sizes}{lap}")
        value = carousel_hand_value(observation.hand, self.rules)
        self.say(
            f"Your hand ({len(observation.hand)}, value {value}): "
            f"{format_cards(observation.hand)}   draws this turn: {observation.draws}"
        )

    def _human_turn(self) -> None:
        observation = self.game.observation(HUMAN)
        self._show(observation)
        while True:
            legal = [a.kind for a in self.game.legal_actions()]
            options = [*legal, *(["meld"] if self.game.hand.may_meld() else [])]
            try:
                line = self.read(f"[{' / '.join(options)}] > ")
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

    def _parse(self, line: str, observation: CarouselObservation) -> CarouselAction | None:
        words = line.strip().split()
        if not words:
            return None
        command, args = words[0].lower(), words[1:]
        table = [list(meld) for meld in self.game.hand.table]
        if command in ("quit", "exit"):
            raise PlayerQuitError
        if command in ("help", "?"):
            self.say(HELP)
            return None
        if command == "draw":
            return CarouselAction.draw()
        if command in ("end", "pass"):
            return CarouselAction.end_turn()
        if command == "knock":
            return CarouselAction.knock()
        if command == "meld":
            cards = parse_cards(" ".join(args))
            if len(cards) < 3:
                raise ValueError("a new meld needs at least three cards: 'meld 7H 8H 9H'")
            return CarouselAction.meld([*table, cards])
        if command == "add":
            text = " ".join(args)
            cards_text, sep, target = text.rpartition(" to ")
            if not sep or not target.strip().isdigit():
                raise ValueError("write 'add 9H to 2' (cards, then the table meld's number)")
            index = int(target) - 1
            if not 0 <= index < len(table):
                raise ValueError(f"there is no table meld number {target.strip()}")
            table[index].extend(parse_cards(cards_text))
            return CarouselAction.meld(table)
        if command == "layout":
            melds = [parse_cards(part) for part in " ".join(args).split("|") if part.strip()]
            return CarouselAction.meld(melds)
        if command in ("hint", "auto"):
            if not self.game.hand.may_meld():
                # The solver would still find a placement, but it may not be played now.
                self.say("  You cannot meld now: no melding after the last draw of a turn.")
                return None
            placement = self._best(observation)
            if placement is None:
                self.say("  Nothing from your hand fits on the table now.")
                return None
            cards, layout = placement
            if command == "hint":
                self.say(f"  Place {format_cards(cards)}; the table becomes:")
                for number, meld in enumerate(layout, start=1):
                    self.say(f"    {number:>2}: {format_cards(meld)}")
                return None
            return CarouselAction.meld(layout)
        raise ValueError(f"unknown command {command!r}; type 'help' for the list")

    def _best(
        self, observation: CarouselObservation
    ) -> tuple[list[Card], list[tuple[Card, ...]]] | None:
        from rummykit.games.carousel.arrange import best_placement

        placement = best_placement(
            list(observation.table),
            list(observation.hand),
            rules=self.rules.meld_rules,
            decks=self.game.hand.decks,
            joker_copy_limit=self.rules.joker_copy_limit,
            few_changes=True,  # a person follows the hint
        )
        if placement is None or not placement.cards:
            return None
        return list(placement.cards), [tuple(meld) for meld in placement.layout]

    def _reveal(self, result: CarouselHandResult) -> None:
        self.say("")
        how = {
            "knock": f"seat {result.knocker} knocked",
            "went_out": f"seat {result.knocker} went out",
            "stock_exhausted": "the stock ran out and the final lap is over",
        }[result.reason]
        self.say(f"Hand over: {how}.")
        for seat, (cards, value, points) in enumerate(
            zip(result.hands, result.values, result.points, strict=True)
        ):
            mark = " (winner)" if seat in result.winners else ""
            self.say(
                f"  seat {seat}: value {value:>3}  +{points:<3}{mark}  {format_cards(cards) or '-'}"
            )
