"""rummykit's gin as a pyspiel Python game: ``python_rummykit_gin``.

Importing this module registers the game::

    import pyspiel
    import rummykit.rl.openspiel  # registers python_rummykit_gin

    game = pyspiel.load_game("python_rummykit_gin")
    game = pyspiel.load_game("python_rummykit_gin(knock_limit=5,knock_melds=choose)")

* Actions: the 241 ids of OpenSpiel's own ``gin_rummy`` (:mod:`rummykit.rl.gin_actions`),
  with the same macros as the other environments (knock = 55 then the card).
* Chance: the shuffle is explicit. The first 52 nodes are chance nodes that each draw
  the next card of the deck uniformly among the cards not drawn yet (deck order: the
  first twenty cards alternately to the non-dealer and the dealer, then the upcard,
  then the stock from the top). With ``seed >= 0`` there are no chance nodes: the
  initial state is the deal of that seed.
* One episode is one hand; returns are the hand points (zero-sum), 0 for a drawn hand.
* Players: ``dealer`` (default 1) deals, so player 0 is offered the upcard first.
* Parameters: every :class:`~rummykit.games.gin.hand.GinRules` option, plus
  ``knock_melds`` (``auto``/``choose``), ``dealer`` and ``seed``.
* Observation tensor: the 480 values of :mod:`rummykit.rl.gin_observation` with its
  named pieces; observation string: what the player sees. Information state string
  (perfect recall): the player's view of every event so far plus its hand.

The engine sets no cap on discard-pile draws, so a hand has no hard length limit;
``max_game_length`` is a bound that random play does not reach in practice.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

import numpy as np
import pyspiel

from rummykit.cards import format_card, format_cards
from rummykit.games.gin import GinRules, cards_of_mask
from rummykit.rl.gin_actions import NUM_ACTIONS, action_string
from rummykit.rl.gin_observation import FIELDS, OBSERVATION_SIZE, encode_observation
from rummykit.rl.gin_table import GinTable, describe

__all__ = ["GAME_TYPE", "GinGame", "GinObserver", "GinState"]

SHORT_NAME: Final = "python_rummykit_gin"
_MAX_GAME_LENGTH: Final = 1000
_RULE_DEFAULTS: Final = {f.name: getattr(GinRules(), f.name) for f in fields(GinRules)}
_PARAMETERS: Final = {**_RULE_DEFAULTS, "knock_melds": "auto", "dealer": 1, "seed": -1}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="rummykit Gin Rummy (one hand)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def _max_utility(rules: GinRules) -> float:
    """A bound of one hand's points: a defender's deadwood is at most 100."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus, rules.undercut_bonus + rules.knock_limit)
    return float(100 + bonus)


class GinGame(pyspiel.Game):
    """The pyspiel game object; build it with ``pyspiel.load_game``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        values = {**_PARAMETERS, **params}
        self.rules = GinRules.from_dict({name: values[name] for name in _RULE_DEFAULTS})
        self.knock_melds = str(values["knock_melds"])
        self.dealer = int(values["dealer"])
        self.seed = int(values["seed"])
        # Fail early on bad options (the table validates them).
        GinTable(self.rules, knock_melds=self.knock_melds, dealer=self.dealer)  # type: ignore[arg-type]
        bound = _max_utility(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=_MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> GinState:
        return GinState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GinObserver:
        return GinObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class GinState(pyspiel.State):
    """One hand in progress: chance deals the deck, then the players act by id."""

    def __init__(self, game: GinGame) -> None:
        super().__init__(game)
        self.table = GinTable(
            game.rules,
            knock_melds=game.knock_melds,  # type: ignore[arg-type]
            dealer=game.dealer,
        )
        self.deck: list[int] = []
        self.dealt = False
        self._returns = [0.0, 0.0]
        if game.seed >= 0:
            self.table.reset(game.seed)
            self.dealt = True

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        drawn = set(self.deck)
        left = [card for card in range(52) if card not in drawn]
        probability = 1.0 / len(left)
        return [(card, probability) for card in left]

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            if action in self.deck or not 0 <= action < 52:
                raise ValueError(f"chance outcome {action} is not a card left in the deck")
            self.deck.append(int(action))
            if len(self.deck) == 52:
                self.table.reset(deck=self.deck)
                self.dealt = True
            return
        gained = self.table.step(int(action))
        self._returns = [self._returns[0] + gained[0], self._returns[1] + gained[1]]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {format_card(action)}"
        return action_string(action)

    def is_terminal(self) -> bool:
        return self.dealt and self.table.is_over

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if not self.dealt:
            return f"dealing: {len(self.deck)} of 52 cards drawn"
        return "\n".join(describe(self.table, seat) for seat in (0, 1))


class GinObserver:
    """Observation tensor (480 named values) and strings, for pyspiel's observer API."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {name: self.tensor[start : start + size] for name, start, size, _ in FIELDS}

    def set_from(self, state: GinState, player: int) -> None:
        if not state.dealt:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = encode_observation(state.table, player)

    def string_from(self, state: GinState, player: int) -> str:
        if not state.dealt:
            return f"p{player} waiting for the deal"
        text = describe(state.table, player)
        if not self.perfect_recall:
            return text
        game = state.table.match or state.table.hand
        observation = game.observation(player)
        stage, melds = state.table.knock_stage(player)
        history = " ".join(
            f"{event.kind}:{event.seat}:{'' if event.card is None else format_card(event.card)}"
            for event in observation.history
        )
        pending = f"\nknock macro {stage} {format_cards(cards_of_mask(melds))}" if stage else ""
        return f"{text}\nhistory {history}{pending}"


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, GinGame)
