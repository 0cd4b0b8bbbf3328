"""rules/gin.md: the required test cases of section 9 (5-18) and the worked examples of
section 7, each as a named test citing its section.

Positions are dealt from explicit card orders (see ``gin_helpers.deal``): with
``dealer=1`` seat 0 is the starting player and is dealt the first hand given.
"""

from __future__ import annotations

from gin_helpers import (
    BIG_GIN_DEFENDER,
    BIG_GIN_TEN,
    EXAMPLE2_DEFENDER,
    EXAMPLE2_KNOCKER,
    EXAMPLE3_DEFENDER,
    EXAMPLE3_KNOCKER,
    GIN_BLOCK_DEFENDER,
    GIN_BLOCK_KNOCKER,
    GIN_DEFENDER_MELDED,
    GIN_KNOCKER,
    KNOCK_THRESHOLD_HAND,
    KNOCK_THRESHOLD_OPPONENT,
    TAKEN_KNOCK_HAND,
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
    run_down_stock,
)

from rummykit.cards import parse_cards
from rummykit.games.gin import GinAction, GinHandResult, GinMatch, GinRules, final_totals, new_hand

TAKE = GinAction.take_upcard()
PASS = GinAction.pass_()
DRAW_STOCK = GinAction.draw_stock()
DRAW_DISCARD = GinAction.draw_discard()


def knock(name: str) -> GinAction:
    return GinAction.knock(name)


def discard(name: str) -> GinAction:
    return GinAction.discard(name)


# -- section 9 case 5 / section 7 example 1: the knock threshold ---------------------------


def test_section9_case5_knock_legal_only_within_the_knock_limit() -> None:
    hand = knock_threshold_position()
    legal = hand.legal_actions()
    assert knock("9S") in legal
    assert knock("5D") not in legal
    assert knock("3C") not in legal
    error = assert_illegal(hand, knock("5D"), "deadwood_over_knock_limit")
    assert error.seat == 0 and error.card == card("5D")
    assert "12" in str(error)
    hand.apply(knock("9S"))
    assert hand.result is not None
    assert hand.result.knocker == 0
    assert hand.result.knocker_deadwood == 8
    assert set(hand.result.knocker_deadwood_cards) == set(parse_cards("3C 5D"))
    assert hand.result.knock_card == card("9S")


def test_section7_example1_knock_threshold() -> None:
    hand = knock_threshold_position()
    assert hand.is_legal(knock("9S"))
    error = assert_illegal(hand, knock("3C"), "deadwood_over_knock_limit")
    assert "14" in str(error)
    # The knock card is not counted: 9S leaves the hand and goes nowhere else.
    hand.apply(knock("9S"))
    assert hand.knock_card == card("9S")
    assert card("9S") not in hand_of(hand, 0)
    assert card("9S") not in hand.discard_pile


# -- section 9 cases 6 and 7: the upcard offer ---------------------------------------------


def test_section9_case6_upcard_cannot_be_discarded() -> None:
    hand = new_hand(GinRules(), seed=6, dealer=1)
    upcard = hand.upcard
    assert upcard is not None and hand.phase == "offer" and hand.current_player == 0
    hand.apply(TAKE)
    assert hand.phase == "discard" and hand.current_player == 0
    assert GinAction.discard(upcard) not in hand.legal_actions()
    error = assert_illegal(hand, GinAction.discard(upcard), "discard_taken_card")
    assert error.seat == 0 and error.card == upcard
    other = next(c for c in hand.hand_cards(0) if c != upcard)
    hand.apply(GinAction.discard(other))
    assert hand.phase == "draw"
    assert hand.current_player == 1
    assert hand.upcard == other
    assert upcard in hand_of(hand, 0)
    # The other player's turn is a normal draw: both piles are open to him.
    assert set(hand.legal_actions()) == {DRAW_STOCK, DRAW_DISCARD}


def test_section3_upcard_taken_in_offer2_then_starting_player_draws() -> None:
    hand = new_hand(GinRules(), seed=16, dealer=1)
    hand.apply(PASS)
    assert hand.current_player == 1
    upcard = hand.upcard
    hand.apply(TAKE)
    assert hand.current_player == 1 and hand.phase == "discard"
    assert upcard is not None and GinAction.discard(upcard) not in hand.legal_actions()
    other = next(c for c in hand.hand_cards(1) if c != upcard)
    hand.apply(GinAction.discard(other))
    assert hand.phase == "draw" and hand.current_player == 0
    assert set(hand.legal_actions()) == {DRAW_STOCK, DRAW_DISCARD}
    hand.apply(DRAW_DISCARD)
    assert other in hand_of(hand, 0)


def test_section9_case7_double_pass_stock_only_option() -> None:
    """§gin-3.3 with first_turn_after_double_pass=stock_only: after two passes the
    starting player must draw from the stock."""
    hand = new_hand(GinRules(first_turn_after_double_pass="stock_only"), seed=7, dealer=0)
    starter = hand.starting_player
    assert starter == 1 and hand.current_player == 1
    hand.apply(PASS)
    assert hand.phase == "offer" and hand.current_player == 0
    hand.apply(PASS)
    assert hand.phase == "draw" and hand.current_player == starter
    assert hand.legal_actions() == [DRAW_STOCK]
    error = assert_illegal(hand, DRAW_DISCARD, "stock_only_after_double_pass")
    assert error.seat == starter
    stock_top = hand.stock[-1]
    hand.apply(DRAW_STOCK)
    assert stock_top in hand_of(hand, starter)
    assert hand.phase == "discard" and hand.current_player == starter


# -- section 9 cases 8 and 9, section 7 example 11: the stock floor --------------------------


def test_section7_example11_stock_floor_draw() -> None:
    hand = deal(KNOCK_THRESHOLD_HAND, KNOCK_THRESHOLD_OPPONENT, "JC")
    run_down_stock(hand, until=4)
    # With 4 in the stock a draw leaves 3: the discard does not end the hand.
    drawn = hand.stock[-1]
    hand.apply(DRAW_STOCK)
    hand.apply(GinAction.discard(drawn))
    assert not hand.is_over and len(hand.stock) == 3
    # Stock 3: A draws (2 left) and discards without knocking -> the hand is drawn.
    drawn = hand.stock[-1]
    hand.apply(DRAW_STOCK)
    assert len(hand.stock) == 2
    hand.apply(GinAction.discard(drawn))
    assert hand.is_over
    assert hand.result is not None
    assert hand.result.is_draw and hand.result.outcome == "draw"
    assert hand.result.winner is None and hand.result.points == 0
    assert hand.discard_pile[-1] == drawn
    assert hand.legal_actions() == []
    assert_illegal(hand, DRAW_STOCK, "hand_over")


def test_section9_case8_stock_floor_drawn_hand_same_dealer_no_score() -> None:
    match = GinMatch(seed=8)
    dealer = match.hand.dealer
    run_down_stock(match.hand, until=3)
    drawn = match.hand.stock[-1]
    match.apply(DRAW_STOCK)
    match.apply(GinAction.discard(drawn))
    assert len(match.results) == 1 and match.results[0].is_draw
    assert match.points == (0, 0)
    assert not match.is_over
    assert match.hand_number == 2
    assert match.hand.dealer == dealer
    assert match.hand.phase == "offer" and len(match.hand.stock) == 31


def test_section9_case9_stock_floor_knock_is_scored() -> None:
    # The 29th stock card is drawn by seat 0 when 3 are left; seat 0 can knock with it.
    hand = deal(KNOCK_THRESHOLD_HAND, KNOCK_THRESHOLD_OPPONENT, "JC", [None] * 28 + ["9S"])
    run_down_stock(hand, until=3)
    assert hand.current_player == 0
    hand.apply(DRAW_STOCK)
    assert len(hand.stock) == 2
    assert knock("9S") in hand.legal_actions()
    hand.apply(knock("9S"))
    result = hand.result
    assert result is not None and not result.is_draw
    assert result.outcome == "knock" and result.winner == 0
    assert result.knocker_deadwood == 8
    assert result.defender_deadwood == 71
    assert result.points == 71 - 8


# -- section 9 cases 10-14, section 7 examples 2-6: showdown and scoring -------------------


def test_section7_example2_plain_knock_with_chained_layoffs() -> None:
    hand = knock_after_stock_draw(EXAMPLE2_KNOCKER, EXAMPLE2_DEFENDER, "8C", "8C")
    result = hand.result
    assert result is not None
    assert result.outcome == "knock"
    assert result.knocker_deadwood == 2
    assert result.knocker_deadwood_cards == (card("2D"),)
    assert result.defender_deadwood == 12
    assert set(result.defender_deadwood_cards) == set(parse_cards("AS 5C 6D"))
    assert card("TS") in {c for c, _ in result.layoffs}
    assert result.winner == 0 and result.points == 10


def test_section9_case10_example2_knocker_scores_10() -> None:
    hand = knock_after_stock_draw(EXAMPLE2_KNOCKER, EXAMPLE2_DEFENDER, "8C", "8C")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.points) == (0, 10)


def test_section7_example3_undercut_through_layoffs() -> None:
    hand = knock_after_stock_draw(EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC")
    result = hand.result
    assert result is not None
    assert result.knocker_deadwood == 8
    laid = [c for c, _ in result.layoffs]
    assert set(parse_cards("4S 7S KH")) <= set(laid)
    # 5S either chains onto AS-4S after 4S or completes the defender's own set of fives
    # (the same deadwood); if laid off, it comes after 4S.
    own = {c for meld in result.defender_melds for c in meld}
    assert (card("5S") in laid) != (card("5S") in own)
    if card("5S") in laid:
        assert laid.index(card("4S")) < laid.index(card("5S"))
    assert result.defender_deadwood == 7
    assert set(result.defender_deadwood_cards) == set(parse_cards("2C 3D 2D"))
    assert result.outcome == "undercut"
    assert result.winner == 1 and result.points == 26


def test_section7_example3_defender_lays_off_as_the_example_says() -> None:
    # The same show submitted by the defender (auto_layoff=false): own set of three
    # fives, then 4S and 5S chained onto AS-3S, 7S onto the sevens, KH onto TH-QH.
    hand = knock_after_stock_draw(
        EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC", rules=GinRules(auto_layoff=False)
    )
    spades, sevens, hearts = (meld_index(hand, name) for name in ("AS", "7D", "TH"))
    layoffs = [("4S", spades), ("5S", spades), ("7S", sevens), ("KH", hearts)]
    hand.apply(GinAction.lay_off(["5D 5C 5H"], layoffs))
    result = hand.result
    assert result is not None
    assert result.defender_deadwood == 7
    assert (result.outcome, result.winner, result.points) == ("undercut", 1, 26)


def test_section9_case11_undercut_defender_scores_26_and_wins_the_hand() -> None:
    hand = knock_after_stock_draw(EXAMPLE3_KNOCKER, EXAMPLE3_DEFENDER, "KC", "KC")
    result = hand.result
    assert result is not None
    assert result.outcome == "undercut" and result.winner == 1 and result.points == 26
    # Credited with a hand won: the line bonus counts it.
    rest = [GinHandResult("gin", 0, 100)]
    totals = final_totals([result, *rest], GinRules())
    assert totals.hands_won == (1, 1)
    assert totals.line_bonus == (25, 25)
    assert totals.totals == (100 + 100 + 25, 26 + 25)


def test_section7_example4_undercut_tie() -> None:
    hand = knock_after_stock_draw(TIE_KNOCKER, TIE_DEFENDER, "KD", "KD")
    result = hand.result
    assert result is not None
    assert result.knocker_deadwood == 6 and result.defender_deadwood == 6
    assert {c for c, _ in result.layoffs} == set(parse_cards("4S KH"))
    assert result.outcome == "undercut"
    assert result.winner == 1 and result.points == 25


def test_section9_case12_tie_is_an_undercut_worth_25() -> None:
    hand = knock_after_stock_draw(TIE_KNOCKER, TIE_DEFENDER, "KD", "KD")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.points) == (1, 25)


def test_section7_example5_gin_against_fully_melded_defender() -> None:
    hand = knock_after_stock_draw(GIN_KNOCKER, GIN_DEFENDER_MELDED, "KD", "KD")
    result = hand.result
    assert result is not None
    assert result.outcome == "gin"
    assert result.knocker_deadwood == 0 and result.defender_deadwood == 0
    assert result.winner == 0 and result.points == 25


def test_section9_case13_gin_with_zero_defender_deadwood_is_never_an_undercut() -> None:
    hand = knock_after_stock_draw(GIN_KNOCKER, GIN_DEFENDER_MELDED, "KD", "KD")
    assert hand.result is not None
    assert hand.result.outcome != "undercut"
    assert (hand.result.winner, hand.result.points) == (0, 25)


def test_section7_example6_gin_blocks_layoffs() -> None:
    hand = knock_after_stock_draw(GIN_BLOCK_KNOCKER, GIN_BLOCK_DEFENDER, "QD", "QD")
    result = hand.result
    assert result is not None
    assert result.outcome == "gin"
    assert result.layoffs == ()
    assert card("8H") in result.defender_deadwood_cards
    assert result.defender_deadwood == 39
    assert result.winner == 0 and result.points == 64


def test_section9_case14_layoff_against_gin_rejected() -> None:
    rules = GinRules(auto_layoff=False)
    hand = knock_after_stock_draw(GIN_BLOCK_KNOCKER, GIN_BLOCK_DEFENDER, "QD", "QD", rules=rules)
    assert hand.phase == "layoff" and hand.current_player == 1
    run = meld_index(hand, "5H")
    error = assert_illegal(hand, GinAction.lay_off([], [("8H", run)]), "no_layoff_on_gin")
    assert error.seat == 1 and error.card == card("8H")
    # The engine's own offer for the defender contains no layoff either.
    (offer,) = hand.legal_actions()
    assert offer.kind == "lay_off" and not offer.layoffs
    hand.apply(GinAction.lay_off([], []))
    assert hand.result is not None
    assert hand.result.defender_deadwood == 39
    assert (hand.result.winner, hand.result.points) == (0, 39 + 25)


# -- section 9 case 15, section 7 example 7: big gin ---------------------------------------


def test_section7_example7_big_gin() -> None:
    hand = deal(BIG_GIN_TEN, BIG_GIN_DEFENDER, "JC", ["5C"])
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    assert GinAction.big_gin() in hand.legal_actions()
    events = hand.apply(GinAction.big_gin())
    assert events[0].kind == "big_gin"
    result = hand.result
    assert result is not None
    assert result.outcome == "big_gin" and result.knock_card is None
    assert len(result.hands[0]) == 11
    assert result.defender_deadwood == 30
    assert result.winner == 0 and result.points == 61


def test_section9_case15_big_gin_legal_only_when_all_eleven_meld() -> None:
    hand = deal(BIG_GIN_TEN, BIG_GIN_DEFENDER, "JC", ["9S"])
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW_STOCK)
    assert GinAction.big_gin() not in hand.legal_actions()
    error = assert_illegal(hand, GinAction.big_gin(), "big_gin_not_melded")
    assert error.card == card("9S") and error.seat == 0
    # Knocking the unmatched card is ordinary gin (25, not 31).
    hand.apply(knock("9S"))
    assert hand.result is not None
    assert hand.result.outcome == "gin" and hand.result.points == 30 + 25


# -- section 9 case 16: the knock card may not be the card just taken -----------------------


def test_section9_case16_knock_card_cannot_be_the_taken_upcard() -> None:
    hand = deal(TAKEN_KNOCK_HAND, "5S 6S 7S 8C 8H 8S QC QH QS KC", "JD")
    hand.apply(TAKE)
    assert knock("JD") not in hand.legal_actions()
    error = assert_illegal(hand, knock("JD"), "knock_with_taken_card")
    assert error.seat == 0 and error.card == card("JD")
    assert knock("2H") in hand.legal_actions()
    hand.apply(knock("2H"))
    assert hand.result is not None and hand.result.outcome == "gin"


def test_section9_case16_knock_card_cannot_be_the_card_drawn_from_the_pile() -> None:
    # Seat 0 takes the upcard and discards 2H; seat 1, whose only deadwood is 2C,
    # draws 2H from the discard pile: 2H may not be its knock card, 2C may.
    dealer_cards = "5S 6S 7S 8C 8H 8S QC QD QS 2C"
    hand = deal(TAKEN_KNOCK_HAND, dealer_cards, "JD")
    hand.apply(TAKE)
    hand.apply(discard("2H"))
    assert hand.current_player == 1 and hand.phase == "draw"
    hand.apply(DRAW_DISCARD)
    assert hand.taken_card == card("2H")
    assert knock("2H") not in hand.legal_actions()
    error = assert_illegal(hand, knock("2H"), "knock_with_taken_card")
    assert error.seat == 1 and error.card == card("2H")
    assert knock("2C") in hand.legal_actions()
    hand.apply(knock("2C"))
    assert hand.result is not None
    assert hand.result.knocker == 1 and hand.result.knocker_deadwood == 2


# -- section 9 case 17: chained layoffs ----------------------------------------------------


def test_section9_case17_chained_layoffs_accepted_in_order() -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    run = meld_index(hand, "5H")
    own = [parse_cards("3C 3D 3H")]
    hand.apply(GinAction.lay_off(own, [("8H", run), ("9H", run)]))
    result = hand.result
    assert result is not None
    assert result.layoffs == ((card("8H"), run), (card("9H"), run))
    assert result.defender_deadwood == 1 + 5 + 6 + 10 + 10
    assert (result.winner, result.points) == (0, 32 - 2)


def test_section9_case17_nine_without_eight_rejected() -> None:
    hand = chain_position(GinRules(auto_layoff=False))
    run = meld_index(hand, "5H")
    own = [parse_cards("3C 3D 3H")]
    error = assert_illegal(hand, GinAction.lay_off(own, [("9H", run)]), "layoff_does_not_fit")
    assert error.card == card("9H") and error.seat == 1
    # The chain must be laid in order: 9H before 8H does not fit either.
    assert_illegal(hand, GinAction.lay_off(own, [("9H", run), ("8H", run)]), "layoff_does_not_fit")


def test_section9_case17_auto_layoff_lays_the_whole_chain() -> None:
    hand = chain_position(GinRules())
    result = hand.result
    assert result is not None
    run = meld_index(hand, "5H")
    assert (card("8H"), run) in result.layoffs and (card("9H"), run) in result.layoffs
    assert result.defender_deadwood == 32
    assert result.points == 30


# -- section 9 case 18, section 7 examples 8-10: final totals -----------------------------


def won(seat: int, points: int) -> GinHandResult:
    return GinHandResult("knock", seat, points)


DRAWN = GinHandResult("draw", None, 0)


def test_section7_example8_game_end_no_shutout() -> None:
    results = [won(0, 40), won(1, 20), won(0, 35), won(0, 30)]
    totals = final_totals(results, GinRules())
    assert totals.hand_points == (105, 20)
    assert not totals.shutout
    assert totals.totals == (280, 45)
    assert totals.winner == 0


def test_section7_example9_shutout_and_drawn_hand_breaks_it() -> None:
    results = [won(0, 40), won(0, 35), won(0, 30)]
    totals = final_totals(results, GinRules())
    assert totals.shutout
    assert totals.totals == (385, 0)
    with_draw = [won(0, 40), DRAWN, won(0, 35), won(0, 30)]
    totals = final_totals(with_draw, GinRules())
    assert not totals.shutout
    assert totals.totals == (280, 0)


def test_section7_example10_reaching_100_but_losing() -> None:
    results = [won(1, 10)] * 9 + [won(1, 9), won(0, 100)]
    totals = final_totals(results, GinRules())
    assert totals.reached_target == 0
    assert totals.totals == (225, 349)
    assert totals.winner == 1


def test_section9_case18_final_totals() -> None:
    rules = GinRules()
    example8 = final_totals([won(0, 40), won(1, 20), won(0, 35), won(0, 30)], rules)
    example9 = final_totals([won(0, 40), won(0, 35), won(0, 30)], rules)
    example10 = final_totals([won(1, 10)] * 9 + [won(1, 9), won(0, 100)], rules)
    assert example8.totals == (280, 45)
    assert example9.totals == (385, 0)
    assert example10.winner == 1 and example10.totals[1] > example10.totals[0]
