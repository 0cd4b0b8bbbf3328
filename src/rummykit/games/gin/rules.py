"""Gin Rummy's rule options (the Gin rules, section 8), each declared once with its range.

>>> GinRules(knock_limit=7).knock_limit
7
>>> GinRules(shutout_multiplier=0)
Traceback (most recent call last):
...
rummykit.errors.InvalidOptionError: shutout_multiplier must be a whole number 1-10, not 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummykit.core import RulesBase
from rummykit.melds import GIN_MELDS, MeldRules
from rummykit.options import option

__all__ = ["GinRules"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GinRules(RulesBase):
    """Every option of the Gin rules (section 8); the defaults are the reference rules."""

    variant = "gin"

    knock_limit: int = option(10, low=0, high=200, help="most deadwood a player may knock with")
    target: int = option(100, low=1, high=100_000, help="hand points that end the match")
    gin_bonus: int = option(25, low=0, high=1000, help="bonus for going gin")
    big_gin_bonus: int = option(
        31, low=0, high=1000, help="bonus for big gin (all 11 cards melded); 0 disables it"
    )
    undercut_bonus: int = option(25, low=0, high=1000, help="bonus for undercutting the knocker")
    undercut_on_tie: bool = option(
        True, help="equal deadwood is an undercut (false: nobody scores)"
    )
    game_bonus: int = option(
        100, low=0, high=10_000, help="bonus for the player who reaches the target"
    )
    line_bonus: int = option(25, low=0, high=1000, help="bonus per hand won, at the end")
    shutout_multiplier: int = option(
        2, low=1, high=10, help="the winner's points are multiplied by this in a shutout"
    )
    shutout_allows_draws: bool = option(False, help="drawn hands do not spoil a shutout")
    stock_floor: int = option(
        2, low=0, high=30, help="the hand is drawn when the stock is down to this many cards"
    )
    first_turn_after_double_pass: Literal["stock_only", "any"] = option(
        "any", help="where the first draw may come from after both pass the upcard"
    )
    big_gin_from_discard: bool = option(
        True, help="big gin may be made with the card taken from the discard pile"
    )
    chained_layoffs: bool = option(
        True, help="a layoff may build on an earlier layoff (9H then TH onto 6H 7H 8H)"
    )
    auto_layoff: bool = option(
        True, help="the defender's melds and layoffs are made optimally (false: by the player)"
    )
    knocker_arrangement: Literal["auto", "explicit"] = option(
        "auto", help="explicit: a knock must name the knocker's melds"
    )
    redeal_after_draw: Literal["same_dealer", "alternate"] = option(
        "same_dealer", help="who deals after a drawn hand"
    )
    ace_high_runs: bool = option(False, help="runs may end with the ace after the king (Q-K-A)")

    @property
    def meld_rules(self) -> MeldRules:
        """The meld rules these options imply (ace low only unless ``ace_high_runs``)."""
        return MeldRules(ace_high=True) if self.ace_high_runs else GIN_MELDS
