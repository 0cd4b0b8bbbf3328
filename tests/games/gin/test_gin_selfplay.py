"""Self-play: the heuristic bot against the random bot, and long runs of bot games.

The long runs check that thousands of hands and hundreds of matches complete without
error and that every finished hand is consistent (all 52 cards accounted for, the score
follows rules/gin.md section 5, the match totals follow section 6). They take a while
and are marked ``slow`` (still part of the default run; deselect with ``-m "not slow"``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import pytest

from rummykit.bots import RandomBot
from rummykit.games.gin import GinHand, GinMatch, GinRules, final_totals
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.selfplay import GinBot, play_gin_hand, play_gin_match

RULES = GinRules()


def check_finished_hand(hand: GinHand) -> str:
    """Assert a finished hand is consistent; return its outcome."""
    assert hand.is_over and hand.legal_actions() == []
    result = hand.result
    assert result is not None
    cards = [*hand.hand_cards(0), *hand.hand_cards(1), *hand.stock, *hand.discard_pile]
    if hand.knock_card is not None:
        cards.append(hand.knock_card)
    assert sorted(cards) == list(range(52))
    rules = hand.rules
    if result.is_draw:
        assert len(hand.stock) <= rules.stock_floor
        assert (result.winner, result.points) == (None, 0)
        return result.outcome
    k, d, knocker = result.knocker_deadwood, result.defender_deadwood, result.knocker
    assert knocker is not None and k <= rules.knock_limit
    if result.outcome == "knock" and k == d:
        assert not rules.undercut_on_tie
        assert (result.winner, result.points) == (None, 0)
        return "tie"
    expected = {
        "big_gin": (knocker, d + rules.big_gin_bonus),
        "gin": (knocker, d + rules.gin_bonus),
        "knock": (knocker, d - k),
        "undercut": (1 - knocker, rules.undercut_bonus + k - d),
    }[result.outcome]
    assert (result.winner, result.points) == expected
    if result.outcome == "knock":
        assert k < d
    if result.outcome == "undercut":
        assert d <= k
    return result.outcome


def bots_for(kind: str, index: int) -> list[GinBot]:
    """Two bots; in mixed games the heuristic bot sits in seat ``index % 2``."""
    if kind == "random":
        return [RandomBot(2 * index), RandomBot(2 * index + 1)]
    if kind == "heuristic":
        return [GinHeuristicBot(RULES), GinHeuristicBot(RULES)]
    mixed: list[GinBot] = [GinHeuristicBot(RULES), RandomBot(index)]
    return mixed if index % 2 == 0 else mixed[::-1]


def check_match(match: GinMatch) -> None:
    assert match.is_over and match.result is not None
    for hand in match.finished_hands:
        check_finished_hand(hand)
    assert match.result == final_totals(match.results, match.rules)
    assert max(match.points) >= match.rules.target
    for before, after, result in zip(
        match.finished_hands, match.finished_hands[1:], match.results, strict=False
    ):
        same = result.is_draw and match.rules.redeal_after_draw == "same_dealer"
        assert after.dealer == (before.dealer if same else 1 - before.dealer)


def test_heuristic_bot_beats_random_bot_in_95_percent_of_matches() -> None:
    matches = 200
    wins = 0
    for index in range(matches):
        heuristic_seat = index % 2
        match = play_gin_match(bots_for("mixed", index), RULES, seed=10_000 + index)
        check_match(match)
        assert match.result is not None
        wins += match.result.winner == heuristic_seat
    assert wins >= 0.95 * matches, f"heuristic won {wins} of {matches} matches"


def play_hands(kind: str, count: int, first_seed: int) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    for index in range(count):
        hand = play_gin_hand(
            bots_for(kind, index), RULES, seed=first_seed + index, dealer=index % 2
        )
        outcomes[check_finished_hand(hand)] += 1
    return outcomes


@pytest.mark.slow
def test_10000_random_vs_random_hands_complete() -> None:
    outcomes = play_hands("random", 10_000, first_seed=0)
    assert sum(outcomes.values()) == 10_000
    # Random play seldom gets under the knock limit: mostly drawn hands, a few knocks.
    assert outcomes["draw"] > 5_000
    assert outcomes["knock"] + outcomes["undercut"] + outcomes["gin"] > 0


@pytest.mark.slow
def test_10000_heuristic_hands_complete() -> None:
    outcomes = play_hands("heuristic", 5_000, first_seed=100_000)
    outcomes += play_hands("mixed", 5_000, first_seed=200_000)
    assert sum(outcomes.values()) == 10_000
    for outcome in ("knock", "undercut", "gin", "big_gin", "draw"):
        assert outcomes[outcome] > 0, outcomes


def play_matches(kinds: Sequence[tuple[str, int]], first_seed: int) -> int:
    played = 0
    for kind, count in kinds:
        for index in range(count):
            seed = first_seed + played
            match = play_gin_match(bots_for(kind, index), RULES, seed=seed)
            check_match(match)
            if index % 25 == 0:
                replayed = GinMatch.from_record(json.loads(json.dumps(match.to_record())))
                assert replayed.results == match.results
                assert replayed.result == match.result
            played += 1
    return played


@pytest.mark.slow
def test_500_full_matches_complete() -> None:
    # Random-vs-random matches last about 150 hands each (mostly drawn), so only a few
    # are included; the rest pair the heuristic bot with itself or with the random bot.
    played = play_matches([("heuristic", 245), ("mixed", 245), ("random", 10)], first_seed=0)
    assert played == 500


def test_matches_under_other_options_complete() -> None:
    variants = [
        GinRules(knock_limit=0, auto_layoff=False, knocker_arrangement="explicit"),
        GinRules(chained_layoffs=False, ace_high_runs=True, redeal_after_draw="alternate"),
        GinRules(stock_floor=0, first_turn_after_double_pass="stock_only", big_gin_bonus=0),
        GinRules(target=50, undercut_on_tie=False, shutout_allows_draws=True),
    ]
    for number, rules in enumerate(variants):
        for index in range(5):
            bots: list[GinBot] = [GinHeuristicBot(rules), GinHeuristicBot(rules)]
            if index % 2:
                bots[index % 4 // 2] = RandomBot(index)
            match = play_gin_match(bots, rules, seed=number * 100 + index)
            check_match(match)
