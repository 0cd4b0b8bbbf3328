"""Carousel at a terminal: the person (seat 0) against 1-4 bots.

:class:`CarouselScreen` is what the terminal loop (``rummykit.terminal``, the platform)
drives. Melding in Carousel means submitting the whole new table: the commands build
that layout from the current table for the person (``meld``, ``add``) or take it whole
(``layout``); the engine checks it. Table melds are numbered from 1. Its texts are in
the language it is built with (:mod:`rummykit.i18n`); command words and card notation
stay as typed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.cards import Card, format_cards, parse_cards, physical_of
from rummykit.errors import InvalidActionError
from rummykit.games.carousel import (
    CarouselAction,
    CarouselGame,
    CarouselHandResult,
    CarouselObservation,
    CarouselRules,
    best_placement,
    carousel_hand_value,
)
from rummykit.i18n import N_
from rummykit.screen_words import ScreenWords

__all__ = ["HELP", "CarouselScreen"]

HUMAN = 0

HELP = N_("""\
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
  end                  end your turn""")

_WORDS = {"draw": "draw", "end_turn": "end", "knock": "knock"}


class CarouselScreen(ScreenWords[CarouselGame]):
    """The person's view of a Carousel game and the commands they type."""

    noun = "game"
    help_text = HELP
    rules: CarouselRules

    # -- words ------------------------------------------------------------------------

    def _scores(self) -> str:
        return ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(self.game.scores))

    def title(self) -> str:
        """The opening line."""
        return self._(
            "Carousel to {target}, {players} players. You are seat 0.",
            target=self.rules.target,
            players=self.game.players,
        )

    def hand_header(self) -> str:
        """Hand number, dealer, scores."""
        # Whole sentences by who dealt: a language may inflect the verb by its subject.
        dealer = self.game.hand.dealer
        template = (
            N_("Hand {number}: you dealt. Scores: {scores}")
            if dealer == HUMAN
            else N_("Hand {number}: {dealer} dealt. Scores: {scores}")
        )
        text = self._(
            template,
            number=self.game.hand_number,
            dealer=self.name(self.game.hand.dealer),
            scores=self._scores(),
        )
        return f"=== {text} ==="

    # -- the table ----------------------------------------------------------------------

    def _layout(self, layout: Sequence[Sequence[int]], indent: str = "  ") -> list[str]:
        return [
            f"{indent}{number:>2}: {self._cards(meld)}"
            for number, meld in enumerate(layout, start=1)
        ]

    def table(self, observation: CarouselObservation) -> list[str]:
        """The numbered table, the stock, the others' counts and your hand."""
        obs, _ = observation, self._
        lines = [_("Table:"), *self._layout(obs.table)] if obs.table else [_("Table: (empty)")]
        sizes = ", ".join(
            f"{self.name(s)}: {n}" for s, n in enumerate(obs.hand_sizes) if s != HUMAN
        )
        lap = "  " + _("FINAL LAP (no draws)") if obs.final_lap else ""
        lines.append(
            _("Stock: {stock}   Cards held: {sizes}", stock=obs.stock_size, sizes=sizes) + lap
        )
        lines.append(
            _(
                "Your hand ({count}, value {value}): {cards}   draws this turn: {draws}",
                count=len(obs.hand),
                value=carousel_hand_value(obs.hand, self.rules),
                cards=self._cards(obs.hand),
                draws=obs.draws,
            )
        )
        return lines

    def choices(
        self, observation: CarouselObservation, legal: Sequence[CarouselAction]
    ) -> list[str]:
        """The words legal now: ``draw``, ``meld`` (while melding is open), ``end``,
        ``knock``."""
        words = [_WORDS[action.kind] for action in legal]
        if self.game.hand.may_meld():
            words.insert(1 if "draw" in words else 0, "meld")
        return words

    # -- commands -----------------------------------------------------------------------

    def parse(self, line: str, observation: CarouselObservation) -> list[CarouselAction] | str:
        """A typed command as the action it plays, or advice (``hint`` is the loop's)."""
        words = line.split()
        command, args = words[0].lower(), words[1:]
        table = [list(meld) for meld in self.game.hand.table]
        if command == "draw":
            return [CarouselAction.draw()]
        if command in ("end", "pass"):
            return [CarouselAction.end_turn()]
        if command == "knock":
            return [CarouselAction.knock()]
        if command == "meld":
            cards = parse_cards(" ".join(args))
            if len(cards) < 3:
                raise InvalidActionError(
                    self._("a new meld needs at least three cards: 'meld 7H 8H 9H'")
                )
            return [CarouselAction.meld([*table, cards])]
        if command == "add":
            text = " ".join(args)
            cards_text, sep, target = text.rpartition(" to ")
            if not sep or not target.strip().isdigit():
                raise InvalidActionError(
                    self._("write 'add 9H to 2' (cards, then the table meld's number)")
                )
            index = int(target) - 1
            if not 0 <= index < len(table):
                raise InvalidActionError(
                    self._("there is no table meld number {number}", number=target.strip())
                )
            table[index].extend(parse_cards(cards_text))
            return [CarouselAction.meld(table)]
        if command == "layout":
            melds = [parse_cards(part) for part in " ".join(args).split("|") if part.strip()]
            return [CarouselAction.meld(melds)]
        if command == "auto":
            placement = self._placement(observation)
            if isinstance(placement, str):
                return placement
            return [CarouselAction.meld(placement[1])]
        raise InvalidActionError(
            self._("unknown command {command}; type 'help' for the list", command=repr(command))
        )

    def _placement(
        self, observation: CarouselObservation
    ) -> tuple[list[Card], list[tuple[Card, ...]]] | str:
        """The solver's placement, or why there is none to play now."""
        if not self.game.hand.may_meld():
            # The solver would still find a placement, but it may not be played now.
            return "  " + self._("You cannot meld now: no melding after the last draw of a turn.")
        placement = self._best(observation)
        if placement is None:
            return "  " + self._("Nothing from your hand fits on the table now.")
        return placement

    def _best(
        self, observation: CarouselObservation
    ) -> tuple[list[Card], list[tuple[Card, ...]]] | None:
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

    def hint(self, observation: CarouselObservation) -> str:
        """The solver's placement and the table it makes (``layout`` takes it as typed)."""
        placement = self._placement(observation)
        if isinstance(placement, str):
            return placement
        cards, layout = placement
        lines = ["  " + self._("Place {cards}; the table becomes:", cards=format_cards(cards))]
        lines.extend(f"    {n:>2}: {format_cards(meld)}" for n, meld in enumerate(layout, start=1))
        return "\n".join(lines)

    # -- bots ---------------------------------------------------------------------------

    def describe(
        self, seat: int, action: CarouselAction, observation: CarouselObservation
    ) -> list[str]:
        """A bot's move in a sentence; a meld names the cards it put down."""
        _, name = self._, self.name(seat)
        if action.kind == "draw":
            return [_("{name} draws again.", name=name)]
        if action.kind == "meld":
            placed = self._cards(self._placed(observation, action))
            return [_("{name} puts {cards} on the table.", name=name, cards=placed)]
        if action.kind == "knock":
            return [_("{name} knocks!", name=name)]
        count = len(observation.hand)
        return [
            self.tr.ngettext(
                "{name} ends the turn ({count} card in hand).",
                "{name} ends the turn ({count} cards in hand).",
                count,
                name=name,
                count=count,
            )
        ]

    @staticmethod
    def _placed(observation: CarouselObservation, action: CarouselAction) -> list[Card]:
        """The hand cards a meld adds to the table (jokers as declared on it)."""
        before = Counter(physical_of(card) for meld in observation.table for card in meld)
        placed = []
        for meld in action.layout or ():
            for card in meld:
                if before[physical_of(card)]:
                    before[physical_of(card)] -= 1
                else:
                    placed.append(Card(card))
        return placed

    # -- the end of a hand, the end of the game -------------------------------------

    def reveal(self, result: CarouselHandResult) -> list[str]:
        """How the hand ended, every hand's value and points."""
        _ = self._
        knocker = "" if result.knocker is None else self.name(result.knocker)
        how = {
            "knock": N_("Hand over: {name} knocked."),
            "went_out": N_("Hand over: {name} went out."),
            "stock_exhausted": N_("Hand over: the stock ran out and the final lap is over."),
        }[result.reason]
        lines = [_(how, name=knocker)]
        winner = _("(winner)")
        for seat, (cards, value, points) in enumerate(
            zip(result.hands, result.values, result.points, strict=True)
        ):
            mark = f" {winner}" if seat in result.winners else " " * (len(winner) + 1)
            shown = _("value {value}", value=f"{value:>3}")
            lines.append(
                f"  {self.name(seat):<6} {shown}  +{points:<3}{mark}  {self._cards(cards) or '-'}"
            )
        return lines

    def winners(self) -> tuple[int, ...]:
        """The seats with the best total."""
        final = self.game.result
        return () if final is None else final.winners
