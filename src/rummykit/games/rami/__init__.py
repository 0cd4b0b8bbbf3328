"""Rami 51 / Rami 40: 2-6 players, 13 cards, two or three decks with jokers, an opening
threshold, joker swaps and reshuffles; rounds until the penalty limit.

The rules, the round engine, the whole game, combinations on the table and the exact
opening and lay-off solvers; bots, views and the terminal game are in the modules beside
them.
"""

from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.candidates import combination_faces, hand_combinations
from rummykit.games.rami.game import (
    RamiGame,
    RamiGameResult,
    game_winners,
)
from rummykit.games.rami.layoffs import (
    hand_left_playable,
    joker_destinations,
    layoff_chain,
    layoff_moves,
    legal_moves,
    swap_moves,
)
from rummykit.games.rami.observation import EventLog, RamiObservation
from rummykit.games.rami.opening import Opening, best_melds, best_opening, can_open
from rummykit.games.rami.round import RamiRound, new_round
from rummykit.games.rami.rules import PRESETS, RamiRules, parse_option, preset
from rummykit.games.rami.scoring import RamiRoundResult, hand_value, score_round
from rummykit.games.rami.table import (
    JOKER_BIT,
    Combination,
    CombinationError,
    combination_from_cards,
    face_bit,
    lay_off,
    pairs_with_joker,
    position_face,
    position_value,
    set_rank_value,
    swap_joker,
)
from rummykit.games.rami.tokens import card_token, parse_card_token

__all__ = [
    "JOKER_BIT",
    "PRESETS",
    "Combination",
    "CombinationError",
    "EventLog",
    "Opening",
    "RamiAction",
    "RamiGame",
    "RamiGameResult",
    "RamiObservation",
    "RamiRound",
    "RamiRoundResult",
    "RamiRules",
    "best_melds",
    "best_opening",
    "can_open",
    "card_token",
    "combination_faces",
    "combination_from_cards",
    "face_bit",
    "game_winners",
    "hand_combinations",
    "hand_left_playable",
    "hand_value",
    "joker_destinations",
    "lay_off",
    "layoff_chain",
    "layoff_moves",
    "legal_moves",
    "new_round",
    "pairs_with_joker",
    "parse_card_token",
    "parse_option",
    "position_face",
    "position_value",
    "preset",
    "score_round",
    "set_rank_value",
    "swap_joker",
    "swap_moves",
]
