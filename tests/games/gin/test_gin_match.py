"""rules/gin.md sections 1 and 6: a match of Gin Rummy.

Dealer alternation (the same dealer after a drawn hand, or ``alternate``), the game
bonus, the line bonus for both players, the shutout with and without drawn hands, the
worked examples 8-10 through ``final_totals`` and through a real :class:`GinMatch`,
tied totals, and replaying a match record through JSON.

Scripted matches (``gin_helpers.play_won_hand``) replace each freshly dealt hand by one
with the same dealer dealt from an exact order; see ``gin_helpers.replace_hand``.
"""

from __future__ import annotations

import json

import pytest
from gin_helpers import play_drawn_hand, play_won_hand, replace_hand

from rummykit.bots import RandomBot
from rummykit.core import IllegalActionError
from rummykit.errors import InvalidOptionError, InvalidRecordError
from rummykit.games.gin import GinAction, GinHandResult, GinMatch, GinRules, final_totals
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.selfplay import play_gin_match

TAKE = GinAction.take_upcard()
PASS = GinAction.pass_()


def dealers(match: GinMatch) -> list[int]:
    return [hand.dealer for hand in match.finished_hands]


# -- dealer rotation (section 1) -------------------------------------------------------------


def test_section1_dealer_alternates_every_scored_hand() -> None:
    match = GinMatch(first_dealer=0)
    assert match.hand.dealer == 0 and match.hand.starting_player == 1
    play_won_hand(match, 0, 30)
    assert match.hand.dealer == 1
    play_won_hand(match, 1, 10)
    assert match.hand.dealer == 0
    play_won_hand(match, 1, 9)
    assert dealers(match) == [0, 1, 0]
    assert match.hand.dealer == 1
    assert match.hand_number == 4


def test_section1_first_dealer_is_random_but_reproducible() -> None:
    first = {seed: GinMatch(seed=seed).first_dealer for seed in range(40)}
    assert set(first.values()) == {0, 1}
    assert all(GinMatch(seed=seed).first_dealer == d for seed, d in first.items())
    assert GinMatch(seed=3, first_dealer=1).hand.dealer == 1
    with pytest.raises(InvalidOptionError, match="first_dealer"):
        GinMatch(first_dealer=2)


def test_section1_same_dealer_after_a_drawn_hand() -> None:
    match = GinMatch(first_dealer=1)
    play_drawn_hand(match)
    assert match.points == (0, 0)
    assert match.hand.dealer == 1
    play_drawn_hand(match)
    assert match.hand.dealer == 1
    play_won_hand(match, 0, 35)
    assert match.hand.dealer == 0
    assert dealers(match) == [1, 1, 1]


def test_section8_redeal_after_draw_alternate() -> None:
    match = GinMatch(GinRules(redeal_after_draw="alternate"), first_dealer=1)
    play_drawn_hand(match)
    assert match.hand.dealer == 0
    play_drawn_hand(match)
    assert match.hand.dealer == 1
    assert dealers(match) == [1, 0]


# -- bonuses and the worked examples (sections 6 and 7) -------------------------------------


def test_section7_example8_real_match_game_and_line_bonus() -> None:
    match = GinMatch(first_dealer=0)
    play_won_hand(match, 0, 40)
    play_won_hand(match, 1, 20)
    play_won_hand(match, 0, 35)
    assert not match.is_over and match.points == (75, 20)
    play_won_hand(match, 0, 30)
    assert match.is_over and match.points == (105, 20)
    result = match.result
    assert result is not None
    assert result == final_totals(match.results, match.rules)
    assert result.reached_target == 0
    assert not result.shutout
    assert result.game_bonus == (100, 0)
    assert result.hands_won == (3, 1)
    assert result.line_bonus == (75, 25)
    assert result.totals == (280, 45)
    assert result.winner == 0


def test_section6_line_bonus_for_both_players_and_undercuts_count() -> None:
    # Seat 1 wins a hand by an undercut (example 3): it counts for its line bonus.
    match = GinMatch(first_dealer=1)
    replace_hand(match, "AS 2S 3S 7D 7C 7H TH JH QH KC", "5D 5C 5H 4S 5S 7S KH 2C 3D 2D", "8C")
    match.apply(TAKE)
    match.apply(GinAction.knock("KC"))
    assert match.results[-1].outcome == "undercut"
    assert match.points == (0, 26)
    play_won_hand(match, 0, 100)
    result = match.result
    assert result is not None
    assert result.hands_won == (1, 1)
    assert result.line_bonus == (25, 25)
    assert result.totals == (100 + 100 + 25, 26 + 25)


def test_section7_example9_real_match_shutout() -> None:
    match = GinMatch(first_dealer=0)
    for points in (40, 35, 30):
        play_won_hand(match, 0, points)
    result = match.result
    assert result is not None
    assert result.shutout
    assert result.totals == (2 * 105 + 100 + 75, 0)
    assert result.winner == 0
    assert "shutout" in match.score_sheet()


def test_section7_example9_real_match_drawn_hand_breaks_the_shutout() -> None:
    match = GinMatch(first_dealer=0)
    play_won_hand(match, 0, 40)
    play_drawn_hand(match)
    play_won_hand(match, 0, 35)
    play_won_hand(match, 0, 30)
    result = match.result
    assert result is not None
    assert [r.outcome for r in match.results] == ["gin", "draw", "gin", "gin"]
    assert not result.shutout
    assert result.totals == (280, 0)


def test_section8_shutout_allows_draws_real_match() -> None:
    match = GinMatch(GinRules(shutout_allows_draws=True), first_dealer=0)
    play_won_hand(match, 0, 40)
    play_drawn_hand(match)
    play_won_hand(match, 0, 35)
    play_won_hand(match, 0, 30)
    result = match.result
    assert result is not None
    assert result.shutout
    assert result.totals == (385, 0)


def test_section6_shutout_needs_every_hand_won() -> None:
    match = GinMatch(GinRules(shutout_allows_draws=True), first_dealer=0)
    play_won_hand(match, 1, 9)
    for points in (40, 35, 30):
        play_won_hand(match, 0, points)
    result = match.result
    assert result is not None
    assert not result.shutout
    assert result.totals == (105 + 100 + 75, 9 + 25)


def test_section7_example10_real_match_reaching_100_but_losing() -> None:
    match = GinMatch(first_dealer=0)
    for points in [10] * 9 + [9]:
        play_won_hand(match, 1, points)
        assert not match.is_over
    assert match.points == (0, 99)
    play_won_hand(match, 0, 100)
    result = match.result
    assert result is not None
    assert result.reached_target == 0
    assert result.game_bonus == (100, 0)
    assert result.totals == (225, 349)
    assert result.winner == 1
    assert match.score_sheet().splitlines()[-1] == "seat 1 wins"


def test_section6_equal_totals_tie_the_match() -> None:
    match = GinMatch(first_dealer=1)
    for points in (10, 10, 10, 10, 15, 20):
        play_won_hand(match, 1, points)
    play_won_hand(match, 0, 100)
    result = match.result
    assert result is not None
    assert result.totals == (225, 75 + 6 * 25)
    assert result.winner is None
    assert match.score_sheet().splitlines()[-1] == "the match is tied"
    ended = match.finished_hands[-1].history[-1]
    assert ended.kind == "hand_scored"


def test_section6_final_totals_tie() -> None:
    won = [GinHandResult("knock", 1, p) for p in (10, 10, 10, 10, 15, 20)]
    totals = final_totals([*won, GinHandResult("gin", 0, 100)], GinRules())
    assert totals.totals == (225, 225)
    assert totals.winner is None
    # One point more for seat 1 breaks the tie in its favour.
    won[0] = GinHandResult("knock", 1, 11)
    totals = final_totals([*won, GinHandResult("gin", 0, 100)], GinRules())
    assert totals.totals == (225, 226)
    assert totals.winner == 1


def test_section6_final_totals_refuses_an_unfinished_match() -> None:
    with pytest.raises(InvalidRecordError, match="not over"):
        final_totals([GinHandResult("knock", 0, 99)], GinRules())


# -- the end of the match --------------------------------------------------------------


def test_section6_match_ends_as_soon_as_the_target_is_reached() -> None:
    match = GinMatch(GinRules(target=60), first_dealer=0)
    play_won_hand(match, 0, 30)
    assert not match.is_over and match.hand_number == 2
    play_won_hand(match, 0, 30)
    assert match.is_over
    assert match.hand_number == 2 and len(match.results) == 2
    assert match.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        match.apply(PASS)
    assert info.value.code == "match_over"


def test_match_observation_carries_the_scores() -> None:
    match = GinMatch(first_dealer=0)
    play_won_hand(match, 1, 20)
    observation = match.observation(0)
    assert observation.scores == (0, 20)
    assert observation.target == 100
    assert observation.hand == tuple(sorted(match.hand.hand_cards(0)))


# -- records and replay ------------------------------------------------------------------------


def test_match_record_replays_through_json_scripted() -> None:
    match = GinMatch(first_dealer=0)
    play_won_hand(match, 0, 40)
    play_drawn_hand(match)
    play_won_hand(match, 1, 20)
    play_won_hand(match, 0, 35)
    play_won_hand(match, 0, 30)
    assert match.is_over
    record = json.loads(json.dumps(match.to_record()))
    assert record["seed"] is None and len(record["decks"]) == 5
    replayed = GinMatch.from_record(record)
    assert replayed.is_over
    assert replayed.results == match.results
    assert replayed.result == match.result
    assert dealers(replayed) == dealers(match) == [0, 1, 1, 0, 1]
    assert replayed.score_sheet() == match.score_sheet()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_match_record_replays_through_json_seeded_bots(seed: int) -> None:
    match = play_gin_match([GinHeuristicBot(), RandomBot(seed)], seed=seed)
    record = json.loads(json.dumps(match.to_record()))
    assert "decks" not in record
    replayed = GinMatch.from_record(record)
    assert replayed.result == match.result
    assert replayed.results == match.results
    assert [h.deck for h in replayed.finished_hands] == [h.deck for h in match.finished_hands]


def test_match_record_of_an_unfinished_match_replays_the_current_hand() -> None:
    match = GinMatch(first_dealer=1)
    play_won_hand(match, 0, 30)
    match.apply(PASS)
    match.apply(PASS)
    match.apply(GinAction.draw_stock())
    replayed = GinMatch.from_record(json.loads(json.dumps(match.to_record())))
    assert not replayed.is_over
    assert replayed.points == match.points == (30, 0)
    assert replayed.hand.hand_cards(0) == match.hand.hand_cards(0)
    assert replayed.hand.hand_cards(1) == match.hand.hand_cards(1)
    assert replayed.hand.stock == match.hand.stock
    assert replayed.hand.phase == match.hand.phase == "discard"
    assert replayed.legal_actions() == match.legal_actions()


def test_match_record_rejects_actions_after_the_end() -> None:
    match = GinMatch(first_dealer=0)
    for points in (40, 35, 30):
        play_won_hand(match, 0, points)
    record = match.to_record()
    record["actions"].append({"kind": "pass"})
    with pytest.raises(InvalidRecordError, match="after the end"):
        GinMatch.from_record(record)


def test_match_clone_is_independent() -> None:
    match = GinMatch(seed=12)
    copy = match.clone()
    copy.apply(PASS)
    assert match.hand.phase == "offer" and match.current_player != copy.current_player
    assert match.hand.actions == []
