"""The levels of the Rami expert bot: the knobs each level turns.

``easy`` plays the heuristic's moves with a random discard one time in four; ``medium``
adds the one-draw opening look-ahead on the heuristic's three best discards, danger and
feeding costs; ``hard`` looks at every discard, adds the two- and three-draw samples,
draws by look-ahead, lays jokers at once and discards by live partners after opening;
``expert`` adds the rami-sec hold (:mod:`rummykit.games.rami.expert_bot`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from rummykit.bots.levels import LEVELS, Level

__all__ = ["LEVELS", "LEVEL_PARAMS", "Level", "LevelParams"]


@dataclass(frozen=True, slots=True)
class LevelParams:
    """The knobs a level turns (tuned by paired-deal self-play)."""

    candidates: int
    """How many discards (the heuristic's best first) the opening look-ahead compares
    before opening; 0: the heuristic's discard."""
    opened_candidates: int
    """The same after opening, for the going-out look-ahead."""
    open_weight: float
    """Worth of a certain opening next turn, in penalty points."""
    out_weight: float
    """Worth of a certain going out next turn, in penalty points."""
    samples: int
    """Sampled pairs of future draws for the two-draw opening chance (0: one draw only)."""
    base_risk: float
    """Weight of the hand's penalty with no danger at all (later turns still risk it)."""
    danger_scale: float
    """How much the estimated danger adds to the penalty's weight."""
    lookahead_draw: bool
    """Take the discard by the opening look-ahead (else only when it opens or is laid)."""
    take_margin: float
    """How much better the opening chance with the top card must be to take it."""
    feed_cost: float
    """Charge for a discard the next player can lay off or join to cards they took."""
    lay_jokers: bool
    """After opening, lay jokers at once (into new combinations and as lay-offs) instead
    of keeping them for later combinations."""
    rami_sec: bool
    """Hold an opening for one turn when going out in one go looks likely."""
    sec_margin: float
    """Extra cost of holding an opening one turn (the progress opening now brings)."""
    sec_worth: float
    """Penalty points a rami sec adds per card another unopened seat holds (6/7 of it
    for an opened seat, whose cards are lower on average)."""
    blunder: float
    """Chance of a random (non-joker) discard: the easy level's mistakes."""
    live_discard: bool = False
    """After opening, discard by live partners (partners weighted by the unseen cards
    that would complete them) and danger, instead of the heuristic's flat count."""
    live_base: float = 8.0
    """Worth of a partner whose completion is dead (only the jokers could complete it)."""
    live_per: float = 0.0
    """Extra worth of a partner per unseen natural card that completes it (up to 4)."""
    danger_value: float = 0.0
    """How much the danger raises the weight of a card's penalty in the opened discard."""
    opened_feed: float = 30.0
    """Opened discard: charge for a card the next (opened) player can lay off."""
    triples: int = 0
    """Sampled triples of future draws for a three-draw opening chance (0: none)."""
    triple_weight: float = 1.0 / 3.0
    """Share of the three-draw chance in the opening value (the rest split evenly)."""
    sec_two: bool = False
    """The rami-sec hold also looks two draws ahead (sampled pairs; the cost counts
    the danger of both turns)."""
    sec_max_left: int = 4
    """Most cards the best opening may leave for the rami-sec hold to be considered."""


_EXPERT: Final = LevelParams(
    candidates=14,
    opened_candidates=0,  # after opening the heuristic's discard measured better
    open_weight=400.0,
    out_weight=30.0,
    samples=24,
    base_risk=0.35,
    danger_scale=1.0,
    lookahead_draw=True,
    take_margin=0.02,
    feed_cost=30.0,
    lay_jokers=True,
    rami_sec=True,
    sec_margin=0.0,
    sec_worth=7.0,
    blunder=0.0,
    live_discard=True,
    live_base=4.0,
    live_per=2.0,
    danger_value=1.0,
    triples=24,
    triple_weight=0.5,
    sec_two=True,
    sec_max_left=6,
)
_HARD: Final = replace(_EXPERT, rami_sec=False)
_MEDIUM: Final = replace(
    _HARD,
    candidates=3,
    samples=0,
    triples=0,
    lookahead_draw=False,
    lay_jokers=False,
    live_discard=False,
)
_EASY: Final = replace(_MEDIUM, candidates=0, feed_cost=0.0, blunder=0.25)
LEVEL_PARAMS: Final[dict[str, LevelParams]] = {
    "easy": _EASY,
    "medium": _MEDIUM,
    "hard": _HARD,
    "expert": _EXPERT,
}
