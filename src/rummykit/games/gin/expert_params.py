"""The expert Gin bot's knobs and its four levels (each level is one setting).

How each knob changes the play is in :mod:`rummykit.games.gin.expert_bot`; the tuning
runs are in docs/strong-bots-gin.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from rummykit.bots.levels import LEVELS, Level

__all__ = ["LEVELS", "LEVEL_PARAMS", "GinExpertParams", "Level", "with_params"]


@dataclass(frozen=True, slots=True)
class GinExpertParams:
    """The knobs of the bot; each level is one setting (see :data:`LEVEL_PARAMS`)."""

    potential: float = 1.0
    """Weight ``g`` of the expected one-draw deadwood drop in a hand's score."""
    late_potential: float = 0.5
    """The same weight once the stock is short (``late_stock`` cards or fewer)."""
    late_stock: int = 10
    opponent_model: bool = True
    """Read the opponent's discards, passes and pick-ups (else every unseen card is
    equally likely to be in its hand)."""
    danger_weight: float = 4.0
    """Points charged for a discard the opponent surely melds (scaled by the chance)."""
    take_margin: float = 0.0
    """Take a melding upcard when it beats the stock's expected hand by this much."""
    take_to_knock: bool = True
    """Take any upcard that lets the bot knock at once."""
    unmelded_margin: float | None = None
    """Also take an upcard that joins no meld (a low card for a high one) when it beats
    the stock by this much; ``None`` never does (it shows the opponent a card for
    nothing)."""
    knock_judgement: bool = False
    """Weigh the undercut risk before knocking (else knock as soon as allowed)."""
    knock_samples: int = 24
    no_knock_evidence: float = 1.0
    """Weight of a sampled opponent hand that could have knocked already (a player who
    may knock usually does, so such hands are unlikely; 1.0 ignores the evidence)."""
    knock_threshold: float = 0.0
    """Knock when the sampled expected points of knocking exceed this."""
    gin_wait_deadwood: int = 0
    """Play on for gin with at most this deadwood while the stock is long."""
    gin_wait_stock: int = 20
    score_aware: bool = False
    """No waiting for gin when a won hand is likely to end the match (either way)."""
    match_point_slack: float = 0.0
    """At such a match point, knock even when the expected points are this much below
    ``knock_threshold``."""
    knock_spread: int = 0
    """Also weigh knocks leaving up to this much more deadwood than the least (a
    different knock card can leave fewer layoffs)."""
    race_weight: float = 0.0
    """Points per expected turn until the bot can knock, from short solitaire
    playouts of its own future stock draws (0 turns them off)."""
    race_candidates: int = 4
    """How many of the best discards by score get the playouts."""
    race_futures: int = 16
    race_depth: int = 8
    mistake_rate: float = 0.0
    """The chance of a random draw or discard (``easy``)."""


_HARD: Final = GinExpertParams(
    danger_weight=2.0, knock_judgement=True, gin_wait_deadwood=2, gin_wait_stock=16
)
LEVEL_PARAMS: Final[dict[str, GinExpertParams]] = {
    "easy": GinExpertParams(
        potential=0.0,
        late_potential=0.0,
        opponent_model=False,
        danger_weight=0.0,
        take_to_knock=False,
        mistake_rate=0.25,
    ),
    "medium": GinExpertParams(opponent_model=False, danger_weight=0.0, take_to_knock=False),
    "hard": _HARD,
    # The hard level tuned by paired hands against the heuristic (docs/strong-bots-gin.md):
    # playing on for gin with any knockable hand until the stock is short was worth ~3
    # points a hand.
    "expert": replace(
        _HARD, unmelded_margin=0.0, gin_wait_deadwood=10, gin_wait_stock=5, score_aware=True
    ),
}


def with_params(level: Level, **changes: object) -> GinExpertParams:
    """The parameters of ``level`` with some fields changed (for tuning)."""
    return replace(LEVEL_PARAMS[level], **changes)  # type: ignore[arg-type]
