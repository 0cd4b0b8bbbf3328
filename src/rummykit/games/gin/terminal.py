"""Gin Rummy at a terminal: the person (seat 0) against a bot.

:class:`GinScreen` is what the terminal loop (``rummykit.terminal``, the platform) drives:
the table as text, the command words legal now, typed commands read into actions, the
hint, and each hand revealed. Every rule is the engine's. Its texts are in the language it
is built with (:mod:`rummykit.i18n`); the command words and card notation stay as typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import SUITS, Card, card_value_gin, format_card, parse_card, parse_cards
from rummykit.errors import InvalidActionError
from rummykit.games.gin import (
    GinAction,
    GinHandResult,
    GinMatch,
    GinObservation,
    GinRules,
    deadwood_after_each_discard,
    mask_of,
    min_deadwood,
)
from rummykit.i18n import N_
from rummykit.screen_words import ScreenWords

__all__ = ["HELP", "GinScreen"]

HUMAN = 0
BOT = 1

HELP = N_("""\
Commands (cards are written like 7H, TD or 10D, QS, AC):
  draw             draw the top card of the stock
  take             take the upcard (offer) or the top card of the discard pile
  pass             pass on the upcard at the start of a hand
  discard 7H       discard a card (not the one you just took from the pile)
  knock 9S         knock, laying 9S face down; your best melds are shown for you
  gin              knock with no deadwood (the engine picks the card), or big gin
                   when all 11 cards are melded
  show             (only when you must lay off by hand) show your best melds and
                   lay-offs; or `show 3C 3D 3H | 7H 8H 9H ; TS>1` for your own choice
                   (TS>1 lays TS off on the knocker's meld number 1)
  sort rank|suit   order your hand by rank or by suit
  hint             the discard that leaves the least deadwood""")

# The command word that plays each kind of action.
_WORDS = {
    "take_upcard": "take",
    "pass": "pass",
    "draw_stock": "draw",
    "draw_discard": "take",
    "discard": "discard",
    "knock": "knock",
    "big_gin": "gin",
    "lay_off": "show",
}

# Who ended the hand and how, by (outcome, the person knocked): whole sentences, since a
# language may inflect the verb by its subject (Hindi: आपने / बॉट ने).
_ENDINGS = {
    ("big_gin", True): N_("You went BIG GIN."),
    ("big_gin", False): N_("Bot went BIG GIN."),
    ("gin", True): N_("You went GIN."),
    ("gin", False): N_("Bot went GIN."),
    ("knock", True): N_("You knocked."),
    ("knock", False): N_("Bot knocked."),
    ("undercut", True): N_("You knocked."),
    ("undercut", False): N_("Bot knocked."),
}
_OUTCOMES = {
    "big_gin": N_("big gin"),
    "gin": N_("gin"),
    "knock": N_("knock"),
    "undercut": N_("undercut"),
}


def _sorted(cards: Sequence[Card], order: str) -> list[Card]:
    if order == "rank":
        return sorted(cards, key=lambda c: (c.rank, SUITS.index(c.suit or "S")))
    return sorted(cards, key=lambda c: (SUITS.index(c.suit or "S"), c.rank))


class GinScreen(ScreenWords[GinMatch]):
    """The person's view of a Gin match and the commands they type."""

    noun = "match"
    help_text = HELP
    rules: GinRules
    sort = "suit"
    """The order the hand is shown in, ``suit`` or ``rank`` (the ``sort`` command)."""

    # -- words ------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """``You`` or ``Bot``."""
        return self._("You") if seat == HUMAN else self._("Bot")

    def _melds(self, melds: Sequence[Sequence[int]]) -> str:
        return "  ".join(f"[{self._cards(meld)}]" for meld in melds)

    def _scores(self) -> str:
        points = self.game.points
        return self._("you {you}, bot {bot}", you=points[HUMAN], bot=points[BOT])

    def title(self) -> str:
        """The opening line."""
        return self._(
            "Gin Rummy to {target}: you (seat 0) against a bot.", target=self.rules.target
        )

    def hand_header(self) -> str:
        """Hand number, dealer, scores."""
        number, scores = self.game.hand_number, self._scores()
        if self.game.hand.dealer == HUMAN:
            text = self._(
                "Hand {number}: you dealt. Scores: {scores}", number=number, scores=scores
            )
        else:
            text = self._(
                "Hand {number}: Bot dealt. Scores: {scores}", number=number, scores=scores
            )
        return f"=== {text} ==="

    # -- the table ----------------------------------------------------------------------

    def table(self, observation: GinObservation) -> list[str]:
        """Stock, discard pile, what the bot is known to hold, your hand and melds."""
        hand = list(observation.hand)
        # Card 0 (the ace of spades) is falsy: test for None, not truth.
        _ = self._
        top = _("(empty)") if observation.upcard is None else self.card_text(observation.upcard)
        lines = [
            _(
                "Stock: {stock}   Discard pile top: {top}   Scores: {scores}",
                stock=observation.stock_size,
                top=top,
                scores=self._scores(),
            )
        ]
        if observation.phase == "offer":
            lines.append(_("The upcard {card} is offered to you.", card=top))
        if observation.opponent_known_cards:
            known = self._cards(observation.opponent_known_cards)
            lines.append(_("Bot holds (taken from the pile): {cards}", cards=known))
        if observation.phase == "layoff":
            lines.append(_("Bot knocked with these melds (lay off by number: 'show ... ; TS>1'):"))
            lines.extend(
                f"  {number}. [{self._cards(meld)}]"
                for number, meld in enumerate(observation.knocker_melds, start=1)
            )
        arrangement = min_deadwood(hand, ace_high=self.rules.ace_high_runs)
        melds = self._melds(arrangement.melds) or _("(no melds)")
        loose = self._cards(_sorted(arrangement.deadwood_cards, self.sort)) or "-"
        shown = self._cards(_sorted(hand, self.sort))
        lines.append(_("Your hand ({count}): {cards}", count=len(hand), cards=shown))
        lines.append(
            "  "
            + _(
                "melds: {melds}   deadwood: {cards} = {deadwood}",
                melds=melds,
                cards=loose,
                deadwood=arrangement.deadwood,
            )
        )
        return lines

    def choices(self, observation: GinObservation, legal: Sequence[GinAction]) -> list[str]:
        """The words legal now: ``take``/``pass``, ``draw``/``take``, ``discard``/
        ``knock``/``gin``, or ``show``."""
        words = [_WORDS[action.kind] for action in legal]
        if "knock" in words and "gin" not in words and self._gin_knock(observation, legal):
            words.append("gin")
        return list(dict.fromkeys(words))

    # -- commands -----------------------------------------------------------------------

    def parse(self, line: str, observation: GinObservation) -> list[GinAction] | str:
        """A typed command as the action it plays, or a view (``sort``)."""
        words = line.split()
        command, args = words[0].lower(), words[1:]
        phase = observation.phase
        if command == "sort":
            if not args or args[0].lower() not in ("rank", "suit"):
                raise InvalidActionError(self._("write 'sort rank' or 'sort suit'"))
            self.sort = args[0].lower()
            return "\n".join(self.table(observation))
        if command == "pass":
            return [GinAction.pass_()]
        if command == "take":
            return [GinAction.take_upcard() if phase == "offer" else GinAction.draw_discard()]
        if command == "draw":
            if phase == "offer":
                raise InvalidActionError(
                    self._("at the start of a hand you 'take' the upcard or 'pass'")
                )
            return [GinAction.draw_stock()]
        if command == "discard":
            return [GinAction.discard(self._one_card(args, "discard"))]
        if command == "knock":
            return [self._knock(self._one_card(args, "knock"))]
        if command in ("gin", "biggin"):
            return [self._gin(observation)]
        if command == "show":
            return [self._show(args)]
        raise InvalidActionError(
            self._("unknown command {command}; type 'help' for the list", command=repr(command))
        )

    def _one_card(self, args: list[str], verb: str) -> Card:
        if len(args) != 1:
            raise InvalidActionError(self._("name one card: '{verb} 7H'", verb=verb))
        return parse_card(args[0])

    def _knock(self, card: Card) -> GinAction:
        # The engine's own knock with that card carries the melds a knock must name
        # under knocker_arrangement=explicit; otherwise it refuses with the reason.
        for action in self.game.legal_actions():
            if action.kind == "knock" and action.card == card:
                return action
        return GinAction.knock(card)

    def _gin_knock(
        self, observation: GinObservation, legal: Sequence[GinAction]
    ) -> GinAction | None:
        """The legal knock that leaves no deadwood, if any."""
        after = deadwood_after_each_discard(mask_of(observation.hand), self.rules.ace_high_runs)
        for action in legal:
            if action.kind == "knock" and after[int(action.card or 0)] == 0:
                return action
        return None

    def _gin(self, observation: GinObservation) -> GinAction:
        if observation.phase != "discard":
            raise InvalidActionError(
                self._("you can go gin only after drawing, with 11 cards in hand")
            )
        legal = self.game.legal_actions()
        if any(action.kind == "big_gin" for action in legal):
            return GinAction.big_gin()
        knock = self._gin_knock(observation, legal)
        if knock is not None:
            return knock
        after = deadwood_after_each_discard(mask_of(observation.hand), self.rules.ace_high_runs)
        raise InvalidActionError(
            self._(
                "no gin yet: your best discard leaves {deadwood} deadwood",
                deadwood=min(after.values()),
            )
        )

    def _show(self, args: list[str]) -> GinAction:
        if not args:
            return self.game.legal_actions()[0]
        text = " ".join(args)
        melds_text, _, layoffs_text = text.partition(";")
        melds = [parse_cards(part) for part in melds_text.split("|") if part.strip()]
        layoffs = []
        for item in layoffs_text.split():
            card, _, number = item.partition(">")
            if not number.isdigit() or int(number) < 1:
                raise InvalidActionError(
                    self._(
                        "write a lay-off as CARD>MELD with the meld's number, "
                        "e.g. 7H>1, not {item}",
                        item=repr(item),
                    )
                )
            layoffs.append((parse_card(card), int(number) - 1))
        return GinAction.lay_off(melds, layoffs)

    def hint(self, observation: GinObservation) -> str:
        """Whether to take the upcard, or the discard that leaves the least deadwood (in
        notation, to be typed)."""
        phase = observation.phase
        if phase in ("offer", "draw"):
            return self._draw_hint(observation)
        if phase != "discard":
            return "  " + self._("'show' shows your best melds and lay-offs")
        after = deadwood_after_each_discard(mask_of(observation.hand), self.rules.ace_high_runs)
        taken = observation.taken_card
        options = {card: value for card, value in after.items() if card != taken}
        card = min(options, key=lambda c: (options[c], -card_value_gin(c)))
        return "  " + self._(
            "discard {card} to keep {deadwood} deadwood",
            card=format_card(card),
            deadwood=options[card],
        )

    def _draw_hint(self, observation: GinObservation) -> str:
        up = observation.upcard
        kinds = {action.kind for action in self.game.legal_actions()}
        if up is None or not kinds & {"take_upcard", "draw_discard"}:
            return "  " + self._("draw from the stock")
        ace_high = self.rules.ace_high_runs
        now = min_deadwood(list(observation.hand), ace_high=ace_high).deadwood
        after = deadwood_after_each_discard(mask_of(observation.hand) | 1 << up, ace_high)
        best = min(value for card, value in after.items() if card != up)
        card = format_card(up)
        if best < now:
            return "  " + self._(
                "take {card}: your best discard then leaves {best} deadwood (now {now})",
                card=card,
                best=best,
                now=now,
            )
        other = "pass" if observation.phase == "offer" else "draw"
        return "  " + self._(
            "{command}: taking {card} would not lower your deadwood ({now})",
            command=other,
            card=card,
            now=now,
        )

    # -- the bot ------------------------------------------------------------------------

    def describe(self, seat: int, action: GinAction, observation: GinObservation) -> list[str]:
        """The bot's move in a sentence."""
        kind = action.kind
        upcard = "" if observation.upcard is None else self.card_text(observation.upcard)
        card = "" if action.card is None else self.card_text(action.card)
        text = {
            "take_upcard": N_("Bot takes the upcard {upcard}."),
            "pass": N_("Bot passes."),
            "draw_stock": N_("Bot draws from the stock."),
            "draw_discard": N_("Bot takes {upcard} from the discard pile."),
            "discard": N_("Bot discards {card}."),
            "knock": N_("Bot knocks, laying {card} face down."),
            "big_gin": N_("Bot declares BIG GIN!"),
        }.get(kind, N_("Bot shows its melds and lays off."))
        return [self._(text, upcard=upcard, card=card)]

    # -- end of a hand, end of the match --------------------------------------------

    def reveal(self, result: GinHandResult) -> list[str]:
        """Both hands, the melds and lay-offs, and who scores what."""
        _ = self._
        if result.outcome == "draw":
            return [
                _("The stock is down to the floor: the hand is drawn, nobody scores."),
                "  " + _("Your cards: {cards}", cards=self._cards(result.hands[HUMAN])),
                "  " + _("Bot's cards: {cards}", cards=self._cards(result.hands[BOT])),
            ]
        knocker = result.knocker
        assert knocker is not None
        defender = 1 - knocker
        melds = self._melds(result.knocker_melds)
        loose = self._cards(result.knocker_deadwood_cards) or "-"
        deadwood = _("deadwood {cards} = {value}", cards=loose, value=result.knocker_deadwood)
        lines = [
            _(_ENDINGS[result.outcome, knocker == HUMAN]),
            f"  {self.name(knocker)}: {melds}  {deadwood}",
            f"  {self.name(defender)}: {self._melds(result.defender_melds) or _('(no melds)')}",
        ]
        if result.layoffs:
            laid = ", ".join(
                _(
                    "{card} on [{meld}]",
                    card=self.card_text(card),
                    meld=self._cards(result.knocker_melds[index]),
                )
                for card, index in result.layoffs
            )
            lines.append("    " + _("laid off: {cards}", cards=laid))
        loose = self._cards(result.defender_deadwood_cards) or "-"
        lines.append(
            "    " + _("deadwood {cards} = {value}", cards=loose, value=result.defender_deadwood)
        )
        if result.winner is None:
            lines.append(_("Equal deadwood: nobody scores this hand."))
            return lines
        reason = _(_OUTCOMES[result.outcome])
        if result.winner == HUMAN:
            score = _("You score {points} ({reason}).", points=result.points, reason=reason)
        else:
            score = _("Bot scores {points} ({reason}).", points=result.points, reason=reason)
        lines.append(score)
        return lines

    def winners(self) -> tuple[int, ...]:
        """The match winner (none for equal totals)."""
        final = self.game.result
        if final is None or final.winner is None:
            return ()
        return (final.winner,)
