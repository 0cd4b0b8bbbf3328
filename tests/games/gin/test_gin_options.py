"""rules/gin.md section 8: every option has at least one test showing its effect.

Positions come from ``gin_helpers`` (explicit deals; seat 0 is the starting player).
"""

from __future__ import annotations

import pytest
from gin_helpers import (
    BIG_GIN_DEFENDER,
    BIG_GIN_TEN,
    EXAMPLE3_DEFENDER,
    EXAMPLE3_KNOCKER,
    GIN_BLOCK_DEFENDER,
    GIN_BLOCK_KNOCKER,
    GIN_DEFENDER_MELDED,
    GIN_KNOCKER,
    KNOCK_THRESHOLD_HAND,
    KNOCK_THRESHOLD_OPPONENT,
    TIE_DEFENDER,
    TIE_KNOCKER,
    assert_illegal,
    card,
    chain_position,
    deal,
    hand_of,
    knock_after_stock_draw,
    knock_threshold_position,
    meld_index,
    play_drawn_hand,
    play_won_hand,
    run_down_stock,
)

from rummykit.cards import parse_cards
from rummykit.errors import InvalidOptionError
from rummykit.games.gin import (
    GinAction,
    GinHand,
    GinHandResult,
    GinMatch,
    GinRules,
    final_totals,
    new_hand,
)
from rummykit.refusals import explain

PASS = GinAction.pass_()
TAKE = GinAction.take_upcard()
DRAW_STOCK = GinAction.draw_stock()
DRAW_DISCARD = GinAction.draw_discard()


def knock(name: str, melds: list[str] | None = None) -> GinAction:
    return GinAction.knock(name, melds)


def knock_cards(hand: GinHand) -> set[str]:
    """The knock cards ``legal_actions`` offers."""
    return {str(a.card) for a in hand.legal_actions() if a.kind == "knock"}


# -- rules object -------------------------------------------------------------------------


def test_section8_defaults_are_the_reference_rules() -> None:
    rules = GinRules()
    assert (rules.knock_limit, rules.target, rules.gin_bonus, rules.big_gin_bonus) == (
        10,
        100,
        25,
        31,
    )
    assert (rules.undercut_bonus, rules.game_bonus, rules.line_bonus) == (25, 100, 25)
    assert rules.undercut_on_tie and not rules.shutout_allows_draws
    assert (rules.shutout_multiplier, rules.stock_floor) == (2, 2)
    # After two passes the starter draws from the stock or the pile (§gin-3.3).
    assert rules.first_turn_after_double_pass == "any"
    assert rules.big_gin_from_discard and rules.chained_layoffs and rules.auto_layoff
    assert rules.knocker_arrangement == "auto"
    assert rules.redeal_after_draw == "same_dealer"
    assert not rules.ace_high_runs


def test_section8_options_round_trip_and_are_validated() -> None:
    rules = GinRules(knock_limit=7, ace_high_runs=True, redeal_after_draw="alternate")
    assert GinRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(InvalidOptionError, match="unknown gin option"):
        GinRules.from_dict({"knock_limit": 7, "knocklimit": 3})
    with pytest.raises(InvalidOptionError, match="knock_limit"):
        GinRules(knock_limit=-1)
    with pytest.raises(InvalidOptionError, match="shutout_multiplier"):
        GinRules(shutout_multiplier=0)
    with pytest.raises(InvalidOptionError, match="knocker_arrangement"):
        GinRules(knocker_arrangement="smart")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="auto_layoff"):
        GinRules(auto_layoff=1)  # type: ignore[arg-type]


# -- knock_limit --------------------------------------------------------------------------


def test_section8_knock_limit_lower() -> None:
    # Example 1 position: knocking 9S leaves 8 deadwood.
    hand = knock_threshold_position(GinRules(knock_limit=7))
    assert knock_cards(hand) == set()
    error = assert_illegal(hand, knock("9S"), "deadwood_over_knock_limit")
    assert "knock limit of 7" in str(error)
    hand = knock_threshold_position(GinRules(knock_limit=8))
    assert knock_cards(hand) == {"9S"}


def test_section8_knock_limit_higher() -> None:
    hand = knock_threshold_position(GinRules(knock_limit=14))
    assert knock_cards(hand) == {"9S", "5D", "3C"}
    hand.apply(knock("3C"))
    assert hand.result is not None and hand.result.knocker_deadwood == 14


def test_section8_knock_limit_zero_means_gin_only() -> None:
    rules = GinRules(knock_limit=0)
    hand = knock_threshold_position(rules)
    assert knock_cards(hand) == set()
    hand = deal(GIN_KNOCKER, GIN_DEFENDER_MELDED, "JC", ["KD"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    # Only a knock card whose removal leaves zero deadwood (not AS: KD would stay).
    assert knock_cards(hand) == {"KD"}
    hand.apply(knock("KD"))
    assert hand.result is not None and hand.result.outcome == "gin"


# -- target, game_bonus, line_bonus, shutout_multiplier, shutout_allows_draws --------------


def test_section8_target() -> None:
    match = GinMatch(GinRules(target=30), first_dealer=0)
    play_won_hand(match, 1, 20)
    assert not match.is_over
    play_won_hand(match, 1, 10)
    assert match.is_over
    assert match.result is not None and match.result.reached_target == 1
    default = GinMatch(first_dealer=0)
    play_won_hand(default, 1, 20)
    play_won_hand(default, 1, 10)
    assert not default.is_over


def won(seat: int, points: int) -> GinHandResult:
    return GinHandResult("knock", seat, points)


EXAMPLE8 = [won(0, 40), won(1, 20), won(0, 35), won(0, 30)]
EXAMPLE9 = [won(0, 40), won(0, 35), won(0, 30)]
DRAWN = GinHandResult("draw", None, 0)


def test_section8_game_bonus() -> None:
    totals = final_totals(EXAMPLE8, GinRules(game_bonus=50))
    assert totals.game_bonus == (50, 0)
    assert totals.totals == (105 + 50 + 75, 45)
    totals = final_totals(EXAMPLE8, GinRules(game_bonus=0))
    assert totals.totals == (180, 45)


def test_section8_game_bonus_in_a_real_match() -> None:
    match = GinMatch(GinRules(game_bonus=10), first_dealer=1)
    play_won_hand(match, 1, 100)
    assert match.result is not None
    assert match.result.game_bonus == (0, 10)
    assert match.result.totals == (0, 2 * 100 + 10 + 25)


def test_section8_line_bonus() -> None:
    totals = final_totals(EXAMPLE8, GinRules(line_bonus=10))
    assert totals.line_bonus == (30, 10)
    assert totals.totals == (105 + 100 + 30, 20 + 10)
    totals = final_totals(EXAMPLE8, GinRules(line_bonus=0))
    assert totals.totals == (205, 20)


def test_section8_shutout_multiplier() -> None:
    assert final_totals(EXAMPLE9, GinRules()).totals == (385, 0)
    tripled = final_totals(EXAMPLE9, GinRules(shutout_multiplier=3))
    assert tripled.shutout and tripled.totals == (3 * 105 + 100 + 75, 0)
    disabled = final_totals(EXAMPLE9, GinRules(shutout_multiplier=1))
    assert not disabled.shutout and disabled.totals == (280, 0)


def test_section8_shutout_allows_draws() -> None:
    results = [won(0, 40), DRAWN, won(0, 35), DRAWN, won(0, 30)]
    assert final_totals(results, GinRules()).totals == (280, 0)
    allowed = final_totals(results, GinRules(shutout_allows_draws=True))
    assert allowed.shutout and allowed.totals == (385, 0)
    # It only forgives drawn hands, not a hand the other player won.
    lost_one = [won(1, 5), *results]
    assert not final_totals(lost_one, GinRules(shutout_allows_draws=True)).shutout


def test_section8_shutout_allows_draws_in_a_real_match() -> None:
    for allows, total in ((False, 280), (True, 385)):
        match = GinMatch(GinRules(shutout_allows_draws=allows), first_dealer=1)
        play_drawn_hand(match)
        for points in (40, 35, 30):
            play_won_hand(match, 0, points)
        assert match.result is not None
        assert match.result.totals == (total, 0)


# -- gin_bonus, big_gin_bonus, undercut_bonus, undercut_on_tie -----------------------------


def test_section8_gin_bonus() -> None:
    rules = GinRules(gin_bonus=10)
    hand = knock_after_stock_draw(GIN_KNOCKER, GIN_DEFENDER_MELDED, "KD", "KD", rules=rules)
    assert hand.result is not None and hand.result.points == 10
    hand = knock_after_stock_draw(GIN_BLOCK_KNOCKER, GIN_BLOCK_DEFENDER, "QD", "QD", rules=rules)
    assert hand.result is not None and hand.result.points == 39 + 10


def big_gin_position(rules: GinRules) -> GinHand:
    """Example 7 with the 11th card (5C) drawn from the stock."""
    hand = deal(BIG_GIN_TEN, BIG_GIN_DEFENDER, "JC", ["5C"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    return hand


def test_section8_big_gin_bonus() -> None:
    hand = big_gin_position(GinRules(big_gin_bonus=50))
    hand.apply(GinAction.big_gin())
    assert hand.result is not None and hand.result.points == 30 + 50


def test_section8_big_gin_bonus_zero_disables_big_gin() -> None:
    hand = big_gin_position(GinRules(big_gin_bonus=0))
    assert GinAction.big_gin() not in hand.legal_actions()
    assert_illegal(hand, GinAction.big_gin(), "big_gin_disabled")
    # The hand can still knock, and go gin by knocking an end of the five-card run.
    assert knock_cards(hand) == {"AC", "2C", "4C", "5C"}
    hand.apply(knock("5C"))
    assert hand.result is not None
    assert hand.result.outcome == "gin" and hand.result.points == 30 + 25


def test_section8_undercut_bonus() -> None:
    rules = GinRules(undercut_bonus=10)
    hand = knock_after_stock_draw(EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC", rules=rules)
    assert hand.result is not None
    assert (hand.result.outcome, hand.result.winner, hand.result.points) == ("undercut", 1, 11)
    hand = knock_after_stock_draw(TIE_KNOCKER, TIE_DEFENDER, "KD", "KD", rules=rules)
    assert hand.result is not None and hand.result.points == 10


def test_section8_undercut_on_tie_false() -> None:
    rules = GinRules(undercut_on_tie=False)
    hand = knock_after_stock_draw(TIE_KNOCKER, TIE_DEFENDER, "KD", "KD", rules=rules)
    result = hand.result
    assert result is not None
    assert result.knocker_deadwood == result.defender_deadwood == 6
    assert result.outcome == "knock"
    assert result.winner is None and result.points == 0
    assert not result.is_draw
    # D < K is still an undercut.
    hand = knock_after_stock_draw(EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC", rules=rules)
    assert hand.result is not None and hand.result.outcome == "undercut"
    assert hand.result.points == 26


# -- stock_floor --------------------------------------------------------------------------


def test_section8_stock_floor_zero_plays_the_stock_out() -> None:
    hand = deal(KNOCK_THRESHOLD_HAND, KNOCK_THRESHOLD_OPPONENT, "JC", rules=GinRules(stock_floor=0))
    run_down_stock(hand, until=2)
    for left in (1, 0):
        drawn = hand.stock[-1]
        hand.apply(DRAW_STOCK)
        assert len(hand.stock) == left
        hand.apply(GinAction.discard(drawn))
    assert hand.result is not None and hand.result.is_draw
    assert hand.stock == []


def test_section8_stock_floor_higher() -> None:
    hand = deal(KNOCK_THRESHOLD_HAND, KNOCK_THRESHOLD_OPPONENT, "JC", rules=GinRules(stock_floor=5))
    run_down_stock(hand, until=7)
    drawn = hand.stock[-1]
    hand.apply(DRAW_STOCK)
    hand.apply(GinAction.discard(drawn))
    assert not hand.is_over
    drawn = hand.stock[-1]
    hand.apply(DRAW_STOCK)
    hand.apply(GinAction.discard(drawn))
    assert hand.is_over and len(hand.stock) == 5
    assert hand.result is not None and hand.result.is_draw


# -- first_turn_after_double_pass ----------------------------------------------------------


def test_section8_first_turn_after_double_pass_any() -> None:
    """§gin-3.3: after both pass the upcard the starter takes a normal turn (the default)."""
    hand = new_hand(GinRules(first_turn_after_double_pass="any"), seed=21, dealer=1)
    upcard = hand.upcard
    assert upcard is not None
    hand.apply(PASS)
    hand.apply(PASS)
    assert hand.current_player == 0
    assert set(hand.legal_actions()) == {DRAW_STOCK, DRAW_DISCARD}
    hand.apply(DRAW_DISCARD)
    assert upcard in hand_of(hand, 0)
    # Taken from the discard pile: it may not go straight back.
    assert_illegal(hand, GinAction.discard(upcard), "discard_taken_card")


# -- big_gin_from_discard -------------------------------------------------------------------


def test_section8_big_gin_from_discard_false() -> None:
    rules = GinRules(big_gin_from_discard=False)
    hand = deal(BIG_GIN_TEN, BIG_GIN_DEFENDER, "5C", rules=rules)
    hand.apply(TAKE)
    assert GinAction.big_gin() not in hand.legal_actions()
    error = assert_illegal(hand, GinAction.big_gin(), "big_gin_from_discard")
    assert error.card == card("5C")
    # From the stock it is still big gin.
    hand = big_gin_position(rules)
    hand.apply(GinAction.big_gin())
    assert hand.result is not None and hand.result.points == 61


def test_section8_big_gin_from_discard_default_true() -> None:
    hand = deal(BIG_GIN_TEN, BIG_GIN_DEFENDER, "5C")
    hand.apply(TAKE)
    assert GinAction.big_gin() in hand.legal_actions()
    hand.apply(GinAction.big_gin())
    assert hand.result is not None
    assert (hand.result.outcome, hand.result.points) == ("big_gin", 61)


# -- chained_layoffs -----------------------------------------------------------------------


def test_section8_chained_layoffs_false_auto() -> None:
    hand = chain_position(GinRules(chained_layoffs=False))
    result = hand.result
    assert result is not None
    assert [c for c, _ in result.layoffs] == [card("8H")]
    assert card("9H") in result.defender_deadwood_cards
    assert result.defender_deadwood == 32 + 9
    assert result.points == 41 - 2


def test_section8_chained_layoffs_false_submitted() -> None:
    hand = chain_position(GinRules(chained_layoffs=False, auto_layoff=False))
    run = meld_index(hand, "5H")
    own = ["3C 3D 3H"]
    error = assert_illegal(
        hand, GinAction.lay_off(own, [("8H", run), ("9H", run)]), "layoff_does_not_fit"
    )
    assert error.card == card("9H") and "chained_layoffs=false" in str(error)
    hand.apply(GinAction.lay_off(own, [("8H", run)]))
    assert hand.result is not None and hand.result.defender_deadwood == 41


# -- auto_layoff ------------------------------------------------------------------------------


def test_section8_auto_layoff_false_defender_shows_and_lays_off() -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    assert hand.phase == "layoff" and hand.current_player == 1 and not hand.is_over
    assert hand.knocker == 1 - hand.current_player
    observation = hand.observation(1)
    assert observation.knocker_melds == hand.knock_arrangement
    run = meld_index(hand, "5H")
    # The engine offers the optimal show.
    (offer,) = hand.legal_actions()
    assert offer.kind == "lay_off"
    assert hand.clone().apply(offer)[-1].detail["points"] == 30
    hand.apply(GinAction.lay_off(["3C 3D 3H"], [("8H", run), ("9H", run)]))
    assert hand.result is not None
    assert hand.result.defender_melds == (tuple(parse_cards("3C 3D 3H")),)
    assert (hand.result.defender_deadwood, hand.result.points) == (32, 30)


def test_section8_auto_layoff_false_defender_may_play_worse() -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    hand.apply(GinAction.lay_off())
    assert hand.result is not None
    assert hand.result.defender_deadwood == 8 + 9 + 3 + 3 + 3 + 1 + 5 + 6 + 10 + 10
    assert hand.result.points == 58 - 2


def test_section8_auto_layoff_false_set_layoff() -> None:
    hand = knock_after_stock_draw(
        EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC", rules=GinRules(auto_layoff=False)
    )
    sevens = meld_index(hand, "7D")
    hand.apply(GinAction.lay_off(["5D 5C 5H"], [("7S", sevens)]))
    assert hand.result is not None
    assert hand.result.layoffs == ((card("7S"), sevens),)
    assert hand.result.defender_deadwood == 4 + 5 + 10 + 2 + 3 + 2


@pytest.mark.parametrize(
    ("melds", "layoffs", "code", "bad_card"),
    [
        # 4H is not in the defender's hand.
        (["3C 3D 3H"], [("4H", "run")], "card_not_in_hand", "4H"),
        # 3C is already in the defender's own meld.
        (["3C 3D 3H"], [("3C", "run")], "card_not_in_hand", "3C"),
        # KC extends neither the run nor the meld it is laid on.
        (["3C 3D 3H"], [("KC", "run")], "layoff_does_not_fit", "KC"),
        # There is no fourth meld of the knocker.
        ([], [("8H", 3)], "no_such_meld", "8H"),
        # The defender's own meld must be valid.
        (["AS 5C 6D"], [], "invalid_meld", "AS"),
        # A card of the knocker's is not the defender's to meld.
        (["5H 6H 7H"], [], "card_not_in_hand", "5H"),
        # One card in two melds.
        (["3C 3D 3H", "3C 3D 3H"], [], "card_in_two_melds", "3C"),
    ],
)
def test_section8_auto_layoff_false_invalid_shows_rejected(
    melds: list[str], layoffs: list[tuple[str, int | str]], code: str, bad_card: str
) -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    run = meld_index(hand, "5H")
    pairs = [(name, run if index == "run" else int(index)) for name, index in layoffs]
    error = assert_illegal(hand, GinAction.lay_off(melds, pairs), code)
    assert error.seat == 1
    assert error.card == card(bad_card)
    assert "seat 1" in str(error) and bad_card in str(error)


def test_section8_auto_layoff_false_other_actions_rejected_in_layoff_phase() -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    for action in (DRAW_STOCK, PASS, GinAction.discard("KC"), GinAction.knock("KC")):
        assert_illegal(hand, action, "wrong_phase")


def test_section8_auto_layoff_false_no_layoff_against_big_gin() -> None:
    hand = big_gin_position(GinRules(auto_layoff=False))
    hand.apply(GinAction.big_gin())
    assert hand.phase == "layoff" and hand.current_player == 1
    # Any layoff is refused against big gin, before it is even checked.
    clubs = meld_index(hand, "AC")
    assert_illegal(hand, GinAction.lay_off([], [("5D", clubs)]), "no_layoff_on_gin")
    hand.apply(GinAction.lay_off(["7H 8H 9H", "TS TC TH"]))
    assert hand.result is not None
    assert (hand.result.outcome, hand.result.points) == ("big_gin", 61)


# -- knocker_arrangement ------------------------------------------------------------------------

# 5H-8H, four kings, AC AD: K = 2 with 8H in the run, 10 with 8H shown as deadwood.
ARRANGE_KNOCKER = "5H 6H 7H 8H KC KD KS KH AC AD"
ARRANGE_DEFENDER = "9H 2S 3S 4S 7C 7D 7S QC JS 3D"
BLOCKING_MELDS = ["5H 6H 7H", "KC KD KS KH"]


def test_section8_knocker_arrangement_explicit_requires_melds() -> None:
    rules = GinRules(knocker_arrangement="explicit")
    hand = deal(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "JC", ["TC"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    error = assert_illegal(hand, knock("TC"), "arrangement_required")
    assert error.card == card("TC")
    knocks = [a for a in hand.legal_actions() if a.kind == "knock"]
    assert knocks and all(a.melds for a in knocks)
    hand.apply(knock("TC", BLOCKING_MELDS))
    assert hand.result is not None and hand.result.knocker_deadwood == 10


def test_section8_knocker_arrangement_explicit_blocks_a_layoff() -> None:
    # Section 4.1: with 5H-8H and little deadwood, showing 8H as deadwood keeps the
    # defender from laying off 9H.
    auto = knock_after_stock_draw(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "TC", "TC")
    assert auto.result is not None
    assert auto.result.knocker_deadwood == 2
    assert card("9H") in {c for c, _ in auto.result.layoffs}
    assert (auto.result.defender_deadwood, auto.result.points) == (23, 21)

    rules = GinRules(knocker_arrangement="explicit")
    hand = deal(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "JC", ["TC"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    hand.apply(knock("TC", BLOCKING_MELDS))
    result = hand.result
    assert result is not None
    assert result.knocker_deadwood == 8 + 1 + 1
    assert set(result.knocker_deadwood_cards) == set(parse_cards("8H AC AD"))
    assert result.layoffs == ()
    assert card("9H") in result.defender_deadwood_cards
    assert (result.defender_deadwood, result.points) == (32, 22)


def test_section8_knocker_may_send_an_explicit_arrangement_under_auto() -> None:
    hand = deal(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "JC", ["TC"])
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    hand.apply(knock("TC", BLOCKING_MELDS))
    assert hand.result is not None and hand.result.points == 22


def test_section4_auto_arrangement_ignores_the_defenders_hand() -> None:
    # Section 4.1: the engine picks the knocker's arrangement without looking at the
    # defender's cards, even when another arrangement would block a layoff.
    other_defender = "2H 2S 3S 4S 7C 7D 7S QC JS 3D"
    with_nine = knock_after_stock_draw(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "TC", "TC")
    without_nine = knock_after_stock_draw(ARRANGE_KNOCKER, other_defender, "TC", "TC")
    assert with_nine.knock_arrangement == without_nine.knock_arrangement
    assert any(set(m) == set(parse_cards("5H 6H 7H 8H")) for m in with_nine.knock_arrangement)


@pytest.mark.parametrize(
    ("knock_card", "melds", "code", "bad_card"),
    [
        ("TC", ["5H 6H 7H"], "deadwood_over_knock_limit", "TC"),  # 8H + kings + aces = 50
        ("TC", ["5H 6H 8H", "KC KD KS KH"], "invalid_meld", "5H"),
        ("KH", ["5H 6H 7H 8H", "KC KD KS KH"], "card_not_in_hand", "KH"),  # the knock card
        ("TC", ["5H 6H 7H 8H", "KC KD KS KH", "KC KD KS"], "card_in_two_melds", "KC"),
    ],
)
def test_section8_knocker_arrangement_explicit_invalid(
    knock_card: str, melds: list[str], code: str, bad_card: str
) -> None:
    rules = GinRules(knocker_arrangement="explicit")
    hand = deal(ARRANGE_KNOCKER, ARRANGE_DEFENDER, "JC", ["TC"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    error = assert_illegal(hand, knock(knock_card, melds), code)
    assert error.seat == 0 and error.card == card(bad_card)
    assert bad_card in str(error)
    if code == "invalid_meld":  # the meld's own reason, for a refusal in words
        assert error.cause == "run_not_consecutive"
        assert "run" in explain(error, "en") and explain(error, "en") != str(error)


# -- redeal_after_draw ------------------------------------------------------------------------


def test_section8_redeal_after_draw() -> None:
    for option, next_dealer in (("same_dealer", 0), ("alternate", 1)):
        match = GinMatch(GinRules(redeal_after_draw=option), first_dealer=0)
        play_drawn_hand(match)
        assert match.hand.dealer == next_dealer
        assert match.hand_number == 2 and match.points == (0, 0)


# -- ace_high_runs -------------------------------------------------------------------------------

ACE_HIGH_HAND = "QH KH AH 2C 3C 4C 7S 7D 7C 5D"
ACE_HIGH_DEFENDER = "9S 9C 2S 3S JS QC QD 6D 8C TH"


def test_section8_ace_high_runs_makes_q_k_a_a_run() -> None:
    for ace_high, can_knock in ((False, False), (True, True)):
        rules = GinRules(ace_high_runs=ace_high)
        hand = deal(ACE_HIGH_HAND, ACE_HIGH_DEFENDER, "JC", ["TS"], rules=rules)
        hand.apply(PASS)
        hand.apply(PASS)
        hand.apply(DRAW_STOCK)
        assert ("TS" in knock_cards(hand)) is can_knock
        # 11 cards: 5D and TS, plus Q-K-A of hearts unless the ace is high.
        assert hand.deadwood(0) == (15 if ace_high else 15 + 10 + 10 + 1)
    hand.apply(knock("TS"))
    assert hand.result is not None
    assert any(set(m) == set(parse_cards("QH KH AH")) for m in hand.result.knocker_melds)


def test_section8_ace_high_runs_layoff_of_a_high_ace() -> None:
    knocker = "JH QH KH 2C 3C 4C 7S 7D 7C 5D"
    defender = "AH 9S 9C 2S 3S JS QC QD 6D 8C"
    plain = knock_after_stock_draw(knocker, defender, "TS", "TS")
    high = knock_after_stock_draw(knocker, defender, "TS", "TS", rules=GinRules(ace_high_runs=True))
    assert plain.result is not None and high.result is not None
    assert card("AH") in plain.result.defender_deadwood_cards
    assert card("AH") in {c for c, _ in high.result.layoffs}
    assert high.result.defender_deadwood == plain.result.defender_deadwood - 1


def test_section8_ace_high_runs_never_wrap() -> None:
    rules = GinRules(ace_high_runs=True, knocker_arrangement="explicit")
    hand = deal("KH AH 2H 7S 7D 7C 4C 5C 6C 3D", ACE_HIGH_DEFENDER, "JC", ["TS"], rules=rules)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    assert_illegal(hand, knock("TS", ["KH AH 2H", "7S 7D 7C", "4C 5C 6C"]), "invalid_meld")
