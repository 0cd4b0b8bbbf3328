"""rummykit's games as pyspiel Python games: ``python_rummykit_<game>``.

Importing this module registers one game for every encoding that offers it
(:mod:`rummykit.rl.encoding`), ``python_rummykit_gin`` among them::

    import pyspiel
    import rummykit.rl.openspiel  # registers python_rummykit_gin

    game = pyspiel.load_game("python_rummykit_gin")
    game = pyspiel.load_game("python_rummykit_gin(knock_limit=5,knock_melds=choose)")

* Actions: the game's ids (gin: the 241 ids of OpenSpiel's own ``gin_rummy``,
  :mod:`rummykit.rl.gin_actions`), with the same macros as the other environments.
* Chance: the shuffle is explicit. The first nodes are chance nodes that each draw
  the next card of the deck uniformly among the cards not drawn yet; the deck is then
  dealt as the engine deals (gin: the first twenty cards alternately to the
  non-dealer and the dealer, then the upcard, then the stock from the top). With
  ``seed >= 0`` there are no chance nodes: the initial state is the deal of that seed.
* One episode is one deal; returns are what the deal pays under the score reward
  (gin: the hand points, zero-sum; 0 for a drawn hand).
* Players: ``dealer`` (default: the last seat) deals, so player 0 acts first.
* Parameters: every rule option, the table options the encoding lists (gin:
  ``knock_melds``), ``dealer``, ``seed`` and, for a game with a range of seats,
  ``players``.
* Observation tensor: the game's observation array with its named pieces;
  observation string: what the player sees. Information state string (perfect recall):
  the player's view of every event so far plus its hand. Information state tensor: the
  observation array, a summary of the information state (every plane is derived from
  what the player has seen; the order of events is not kept), with the same shape.
* ``resample_from_infostate(player, sampler)``: a state the player cannot tell from
  this one, the cards it cannot place dealt again uniformly
  (:mod:`rummykit.rl.resample`); for ISMCTS and other determinizing searches
  (:func:`seeded_resampler` makes their samples reproducible).

The engine sets no cap on discard-pile draws, so a hand has no hard length limit;
``max_game_length`` is a bound that random play does not reach in practice.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any, ClassVar, Final

import numpy as np
import pyspiel

from rummykit.cards import copy_of, format_card
from rummykit.catalog import get_variant
from rummykit.core import Event
from rummykit.rl.encoding import AnyTable, GameEncoding, encodings
from rummykit.rl.resample import resample_deal

__all__ = [
    "GAMES",
    "GAME_TYPE",
    "GinGame",
    "GinObserver",
    "GinState",
    "RummyGame",
    "RummyObserver",
    "RummyState",
    "game_type",
    "seeded_resampler",
]

SHORT_NAME: Final = "python_rummykit_gin"


def _parameters(encoding: GameEncoding) -> dict[str, Any]:
    """Every rule option, the encoding's table options, ``dealer``, ``seed`` (and
    ``players`` for a range of seats), with their defaults."""
    variant = get_variant(encoding.game)
    rules = variant.default_rules()
    players = variant.default_players
    parameters = {f.name: getattr(rules, f.name) for f in fields(variant.rules_type)}
    for name, value in parameters.items():
        if value is None:  # pyspiel has no "unset" value: 0 stands for the default
            parameters[name] = 0
    parameters.update(encoding.openspiel or {})
    if variant.min_players != variant.max_players:
        parameters["players"] = players
        # -1: the last seat, whatever the number of players (a fixed default would be
        # out of range for fewer seats).
        parameters.update(dealer=-1, seed=-1)
    else:
        parameters.update(dealer=players - 1, seed=-1)
    return parameters


def game_type(encoding: GameEncoding) -> pyspiel.GameType:
    """The pyspiel game type of a game's encoding."""
    variant = get_variant(encoding.game)
    zero_sum = encoding.table.zero_sum
    return pyspiel.GameType(
        short_name=encoding.openspiel_name,
        long_name=f"rummykit {variant.title} (one {variant.hand_word})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if zero_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=variant.max_players,
        min_num_players=variant.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(encoding),
    )


class RummyGame(pyspiel.Game):
    """The pyspiel game object of one encoding (a subclass per game sets
    :attr:`encoding`); build it with ``pyspiel.load_game``."""

    encoding: ClassVar[GameEncoding]
    game_type: ClassVar[pyspiel.GameType]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        encoding = self.encoding
        variant = get_variant(encoding.game)
        values = {**_parameters(encoding), **params}
        rule_names = [f.name for f in fields(variant.rules_type)]
        defaults = variant.default_rules()
        self.rules = variant.make_rules(
            {
                name: None if getattr(defaults, name) is None and not values[name] else values[name]
                for name in rule_names
            }
        )
        self.players = int(values.get("players", variant.default_players))
        self.table_options = {name: values[name] for name in encoding.openspiel or {}}
        dealer = int(values["dealer"])
        self.dealer = self.players - 1 if dealer < 0 else dealer
        self.seed = int(values["seed"])
        table = self.new_table()  # fails early on bad options
        self.pack = table.pack(self.rules, self.players)
        bound = table.deal_bound(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=max(self.pack) + 1,
            num_players=self.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if table.zero_sum else None,
            max_game_length=encoding.max_game_length,
        )
        super().__init__(self.game_type, info, params)

    def new_table(self) -> AnyTable:
        """A table of one deal with this game's options."""
        return self.encoding.table(
            self.rules, players=self.players, dealer=self.dealer, **self.table_options
        )

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummyObserver:
        return RummyObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
            self.encoding,
        )


class RummyState(pyspiel.State):
    """One deal in progress: chance deals the deck, then the players act by id."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self.table = game.new_table()
        self.encoding = game.encoding
        self.pack = game.pack
        self.deck: list[int] = []
        self.dealt = False
        self._returns = [0.0] * game.players
        self._script: list[tuple[int, int]] = []
        """Moves being written into OpenSpiel's history by :meth:`resample_from_infostate`
        (last first), which nothing plays: the table is already in place."""
        if game.seed >= 0:
            self.table.reset(game.seed)
            self.dealt = True

    def current_player(self) -> int:
        script = self._script
        if script:
            return script[-1][0]
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        drawn = set(self.deck)
        left = [card for card in self.pack if card not in drawn]
        probability = 1.0 / len(left)
        return [(card, probability) for card in left]

    def _apply_action(self, action: int) -> None:
        if self._script:
            self._script.pop()
            return
        if not self.dealt:
            if action in self.deck or action not in self.pack:
                raise ValueError(f"chance outcome {action} is not a card left in the deck")
            self.deck.append(int(action))
            if len(self.deck) == len(self.pack):
                self.table.reset(deck=self.deck)
                self.dealt = True
            return
        gained = self.table.step(int(action))
        self._returns = [total + value for total, value in zip(self._returns, gained, strict=True)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state ``player_id`` cannot tell from this one, the cards it does not see
        dealt again uniformly (:func:`rummykit.rl.resample.resample_deal`).

        ``probability_sampler`` is OpenSpiel's: a callable returning uniform numbers in
        [0, 1) (``pyspiel.UniformProbabilitySampler``, seeded or not); two of them seed
        the shuffle, so a seeded sampler gives the same sample every time. The new
        state's ``history()`` holds its own deal and the same moves.
        """
        seed = int(probability_sampler() * 2.0**52) << 52 | int(probability_sampler() * 2.0**52)
        rng = random.Random(seed)
        game = self.get_game()
        other: RummyState = game.new_initial_state()
        if not self.dealt:  # cards drawn face down so far, any of them
            drawn = rng.sample(self.pack, len(self.deck))
            for card in drawn:
                other.apply_action(card)
            return other
        table = resample_deal(self.table, player_id, rng)
        chance = [] if game.seed >= 0 else [int(card) for card in table.deal.deck]
        chance_id = int(pyspiel.PlayerId.CHANCE)
        moves = [(chance_id, card) for card in chance]
        moves += [(move.player, move.action) for move in self.full_history() if move.player >= 0]
        other._script = moves[::-1]
        for _, action in moves:
            other.apply_action(action)
        other.table = table
        other.deck = chance
        other.dealt = True
        other._returns = list(self._returns)
        return other

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            # Several decks: the copy tells the outcomes apart (pyspiel wants them distinct).
            copy = copy_of(action)
            return f"Deal {format_card(action)}" + (f"@{copy}" if copy else "")
        return self.table.action_string(action)

    def is_terminal(self) -> bool:
        return self.dealt and self.table.is_over

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if not self.dealt:
            return f"dealing: {len(self.deck)} of {len(self.pack)} cards drawn"
        describe = self.encoding.describe
        return "\n".join(describe(self.table, seat) for seat in range(self.table.num_seats))


class RummyObserver:
    """Observation tensor (the encoding's named values) and strings, for pyspiel's
    observer API."""

    def __init__(
        self, iig_obs_type: Any, params: dict[str, Any] | None, encoding: GameEncoding
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.encoding = encoding
        self.tensor = np.zeros(encoding.layout.size, np.float32)
        self.dict = {
            name: self.tensor[start : start + size]
            for name, start, size, _ in encoding.layout.fields
        }

    def set_from(self, state: RummyState, player: int) -> None:
        if not state.dealt:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.encoding.encode(state.table, player)

    def string_from(self, state: RummyState, player: int) -> str:
        if not state.dealt:
            return f"p{player} waiting for the deal"
        table = state.table
        text = self.encoding.describe(table, player)
        if not self.perfect_recall:
            return text
        history = " ".join(map(_event_text, table.observation(player).history))
        pending = table.macro_text(player)
        return f"{text}\nhistory {history}" + (f"\n{pending}" if pending else "")


_LAID: Final = ("from_hand", "combo", "combos")
"""Event details naming the cards a play laid without a card of its own (Carousel's
and Rami's melds), so that the perfect-recall string tells such plays apart."""


def _event_text(event: Event) -> str:
    """``kind:seat:card`` (the card blank when hidden), and the cards a meld laid."""
    if event.card is not None:
        return f"{event.kind}:{event.seat}:{format_card(event.card)}"
    for key in _LAID:
        laid = event.detail.get(key)
        if laid:
            shown = laid if isinstance(laid, str) else "/".join(map(str, laid))
            return f"{event.kind}:{event.seat}:[{shown.replace(' ', '')}]"
    return f"{event.kind}:{event.seat}:"


def seeded_resampler(random_state: Any) -> Any:
    """A resampler for ``ISMCTSBot.set_resampler`` that draws its samplers' seeds from
    ``random_state`` (a ``numpy.random.RandomState``, e.g. the bot's), so a seeded
    search is reproducible. (The bot's default passes a fresh, randomly seeded
    ``pyspiel.UniformProbabilitySampler`` at every sample.)"""

    def resample(state: RummyState, player: int) -> RummyState:
        seed = int(random_state.randint(2**31 - 1))
        return state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        )

    return resample


def _register(encoding: GameEncoding) -> type[RummyGame]:
    """The game class of an encoding, registered with pyspiel under its name."""
    kind = game_type(encoding)
    game_class = type(
        f"{encoding.game.capitalize()}Game",
        (RummyGame,),
        {"encoding": encoding, "game_type": kind, "__module__": __name__},
    )
    if encoding.openspiel_name not in pyspiel.registered_names():
        pyspiel.register_game(kind, game_class)
    return game_class


GAMES: Final = {
    encoding.game: _register(encoding) for encoding in encodings() if encoding.openspiel is not None
}
"""The game class of every game with an OpenSpiel version, by catalog name."""
GinGame: Final = GAMES["gin"]
"""Gin's game class (the name older code imports)."""
GAME_TYPE: Final = GinGame.game_type
"""Gin's game type (the name older code imports)."""
GinState: Final = RummyState
GinObserver: Final = RummyObserver
