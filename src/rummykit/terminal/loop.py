"""The turn loop of every terminal game, written once.

Read a line, answer the loop's own commands (``help``, ``hint``, ``rules``, ``quit``), let the
game's screen read the rest into actions, show the refusal's reason and ask again, play
the bots' turns, reveal each hand as it ends and print the score sheet at the end.
Input and output are callables, so a test scripts whole hands.

>>> from rummykit.bots import RandomBot
>>> from rummykit.games.gin import GinMatch
>>> from rummykit.games.gin.terminal import GinScreen
>>> match = GinMatch(seed=3)
>>> out: list[str] = []
>>> session = TerminalSession(
...     match, GinScreen(match), {1: RandomBot(1)}, read=lambda prompt: "quit", say=out.append
... )
>>> session.run() is match, out[-1]
(True, 'You left the game.')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from rummykit.bots.base import Bot
from rummykit.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidMeldError,
    PlayerQuitError,
    UnknownRuleError,
    UnknownRulesPageError,
)
from rummykit.i18n import N_, Translator, translator
from rummykit.terminal.rules_view import rules_text
from rummykit.terminal.screen import Screen, TerminalGame

__all__ = ["TerminalSession", "help_text", "prompt_for"]

ObsT = TypeVar("ObsT")
ActionT = TypeVar("ActionT")
GameT = TypeVar("GameT", bound=TerminalGame[Any, Any])

# The loop's own commands, added to each game's help in its column (the words stay
# English: they are what the person types; the descriptions are translated).
_RULES_COMMAND = (
    "rules [3.2]",
    N_("this game's rules: all, a section (rules 3) or a rule (3.2)"),
)
_LOOP_COMMANDS = (
    ("help", N_("this text")),
    ("quit", N_("leave the game (end of input does too)")),
)
# What a screen calls the whole game (Screen.noun), as the loop's sentences say it.
_NOUNS = {"match": N_("match"), "game": N_("game")}
_ENGLISH = translator("en")

_QUIT = ("quit", "exit")
_HELP = ("help", "?")


def prompt_for(choices: Sequence[str], tr: Translator = _ENGLISH) -> str:
    """The prompt offering ``choices``: ``draw or take? >``.

    >>> prompt_for(["discard", "knock", "gin"]), prompt_for(["draw"]), prompt_for([])
    ('discard, knock or gin? > ', 'draw? > ', '> ')
    >>> prompt_for(["draw", "take"], translator("hi"))
    'draw या take? > '
    """
    words = list(dict.fromkeys(choices))
    if not words:
        return "> "
    if len(words) == 1:
        return f"{words[0]}? > "
    return tr.gettext("{words} or {last}? > ", words=", ".join(words[:-1]), last=words[-1])


def help_text(game_help: str, *, rules: bool = False, tr: Translator = _ENGLISH) -> str:
    """A game's help with the loop's commands added (``rules`` too when the game has a
    rules page), their descriptions aligned with the game's (the column of its first
    command line).

    >>> print(help_text("Commands:\\n  draw    draw a card"))
    Commands:
      draw    draw a card
      help    this text
      quit    leave the game (end of input does too)
    """
    found = re.search(r"^  \S+(?: \S+)* {2,}", game_help, re.MULTILINE)
    column = len(found.group()) if found else 10
    commands = (_RULES_COMMAND, *_LOOP_COMMANDS) if rules else _LOOP_COMMANDS
    added = [
        f"  {word:<{max(column - 2, len(word) + 1)}}{tr.gettext(what)}" for word, what in commands
    ]
    return "\n".join([game_help, *added])


class TerminalSession(Generic[GameT, ObsT, ActionT]):
    """A person at a terminal and bots in the other seats, until the game ends or the
    person leaves. ``bots`` maps every other seat to its bot; ``game_name`` is the
    game's catalog name (a preset's name will do), whose rules page ``rules`` shows.
    ``language`` is the loop's (:func:`rummykit.i18n.choose_language`); the screen is
    built in its own."""

    def __init__(
        self,
        game: GameT,
        screen: Screen[ObsT, ActionT],
        bots: Mapping[int, Bot[ObsT, ActionT]],
        *,
        read: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
        game_name: str | None = None,
        language: str | None = None,
    ) -> None:
        self.tr = translator(language)
        self.game = game
        self.game_name = game_name
        self.screen = screen
        self.bots = dict(bots)
        self.read = read
        self.say = say

    def run(self) -> GameT:
        """Play until the game ends or the person quits; return the game."""
        screen = self.screen
        self.say(self.tr.gettext("{title} Type 'help' for the commands.", title=screen.title()))
        self._announce_hand()
        try:
            while not self.game.is_over:
                seat = self.game.current_player
                if seat == screen.seat:
                    self._person_turn()
                else:
                    self._bot_turn(seat)
        except (PlayerQuitError, KeyboardInterrupt):
            self.say(self.tr.gettext("You left the game."))
            return self.game
        self._game_over()
        return self.game

    # -- telling -------------------------------------------------------------------------

    def _lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.say(line)

    def _announce_hand(self) -> None:
        self.say("")
        self.say(self.screen.hand_header())

    def _game_over(self) -> None:
        screen = self.screen
        self.say("")
        noun = self._noun().capitalize()
        self.say(self.tr.gettext("{Noun} over. Score sheet:", Noun=noun))
        self.say(self.game.score_sheet(self.tr.language))
        self.say(self._winners_sentence(screen.winners()))

    def _noun(self) -> str:
        noun = self.screen.noun
        return self.tr.gettext(_NOUNS[noun]) if noun in _NOUNS else noun

    def _winners_sentence(self, winners: Sequence[int]) -> str:
        screen, tr = self.screen, self.tr
        noun = self._noun()
        if not winners:
            return tr.gettext("The {noun} is a tie.", noun=noun)
        names = [screen.name(seat) for seat in sorted(winners, key=lambda s: s != screen.seat)]
        if len(names) == 1:
            if winners[0] == screen.seat:
                return tr.gettext("You win the {noun}!", noun=noun)
            return tr.gettext("{name} wins the {noun}.", name=names[0], noun=noun)
        together = tr.gettext("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])
        if screen.seat in winners:
            return tr.gettext("{names} share the win!", names=together)
        return tr.gettext("{names} share the win.", names=together)

    # -- turns ---------------------------------------------------------------------------

    def _apply(self, action: ActionT) -> None:
        finished = len(self.game.results)
        self.game.apply(action)
        if len(self.game.results) > finished:
            self.say("")
            self._lines(self.screen.reveal(self.game.results[-1]))
            if not self.game.is_over:
                self._announce_hand()

    def _bot_turn(self, seat: int) -> None:
        observation = self.game.observation(seat)
        action = self.bots[seat].act(observation, self.game.legal_actions())
        self._lines(self.screen.describe(seat, action, observation))
        self._apply(action)

    def _person_turn(self) -> None:
        """Show the table, then ask until a command is played (one command a call)."""
        screen = self.screen
        observation = self.game.observation(screen.seat)
        self.say("")
        self._lines(screen.table(observation))
        while True:
            prompt = prompt_for(screen.choices(observation, self.game.legal_actions()), self.tr)
            try:
                line = self.read(prompt)
            except EOFError:
                raise PlayerQuitError from None
            words = line.split()
            if not words:
                continue
            command = words[0].lower()
            if command in _QUIT:
                raise PlayerQuitError
            if command in _HELP:
                self.say(help_text(screen.help, rules=self.game_name is not None, tr=self.tr))
                continue
            if command == "rules":
                self._rules(words[1:])
                continue
            if command == "hint":
                self.say(screen.hint(observation))
                continue
            if self._play(line, observation):
                return

    def _rules(self, asked: Sequence[str]) -> None:
        """The game's rules page, or the section or rule asked for."""
        if self.game_name is None:
            self.say("  " + self.tr.gettext("This game has no rules page."))
            return
        asked_for = asked[0] if asked else None
        try:
            text = rules_text(self.game_name, asked_for, language=self.tr.language)
        except UnknownRulesPageError:
            # No page in this language yet: the English one beats none.
            try:
                text = rules_text(self.game_name, asked_for)
            except (UnknownRuleError, UnknownRulesPageError) as error:
                self.say("  " + self.screen.refusal(error))
                return
        except UnknownRuleError as error:
            self.say("  " + self.screen.refusal(error))
            return
        self.say(text.rstrip("\n"))

    def _refused(self, error: IllegalActionError) -> None:
        reason = self.screen.refusal(error)
        self.say("  " + self.tr.gettext("Not allowed: {reason}", reason=reason))

    def _play(self, line: str, observation: ObsT) -> bool:
        """Read and play one command; ``False`` (after saying why) when nothing was played."""
        try:
            reply = self.screen.parse(line, observation)
        except ValueError as error:
            return self._not_played(error)
        if isinstance(reply, str):
            self.say(reply)
            return False
        if not reply:
            return False
        try:
            if len(reply) > 1:
                # Several actions are one command: all of them or none.
                trial = self.game.clone()
                for action in reply:
                    trial.apply(action)
            # A refused action leaves the game unchanged (the engines promise it).
            for action in reply:
                self._apply(action)
        except (IllegalActionError, InvalidActionError) as error:
            return self._not_played(error)
        return True

    def _not_played(self, error: ValueError) -> bool:
        """Say why a command was not played (a refused action by its rule); ``False``."""
        if isinstance(error, IllegalActionError):
            self._refused(error)
        elif isinstance(error, (InvalidCardError, InvalidMeldError)):
            # Typed cards that name no card or make no meld: the screen says why.
            self.say("  " + self.screen.refusal(error))
        else:
            self.say(f"  {error}")
        return False
