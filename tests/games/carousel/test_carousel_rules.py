"""rules/carousel.md: the worked examples of section 7 (1-13) and the required test cases
of section 10 (1-19), each as a named test citing its section.

Positions come from ``carousel_helpers``: ``deal`` deals an exact order (seat 0 starts),
``position`` builds a mid-hand state with a given table. Scoring examples are played
through the engine: the hands are set to the spec's values and the hand ends by the
knock, the going out or the final lap.
"""

from __future__ import annotations

import pytest
from carousel_helpers import (
    DRAW,
    END,
    KNOCK,
    assert_illegal,
    card,
    deal,
    final_lap_position,
    meld,
    position,
    table_text,
    values,
)

from rummykit.cards import JOKER_FACE, Card, natural_card, parse_cards
from rummykit.core import IllegalActionError
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.arrange import best_placement
from rummykit.games.carousel.game import CarouselGame, carousel_final_totals
from rummykit.games.carousel.hand import new_hand
from rummykit.games.carousel.layout import IllegalLayoutError, check_layout
from rummykit.games.carousel.rules import CarouselRules, score_carousel_hand
from rummykit.melds import CAROUSEL_MELDS, check_meld

p = parse_cards


def knock_position(
    hands: list[str], *, knocker: int = 0, rules: CarouselRules | None = None
) -> tuple[int, ...]:
    """``knocker`` at the end of his turn (three draws made) knocks; the points."""
    hand = position(hands, current=knocker, draws=3, rules=rules)
    events = hand.apply(KNOCK)
    assert [e.kind for e in events] == ["knock", "hand_scored"]
    assert hand.is_over and hand.result is not None
    assert hand.result.reason == "knock" and hand.result.knocker == knocker
    return hand.result.points


# -- section 7: worked examples ----------------------------------------------------------


def test_section7_example1_two_players_plain_knock() -> None:
    hand = position(["2C 3D", "KS 7H"], draws=3)
    assert values(hand) == [5, 17]
    hand.apply(KNOCK)
    assert hand.result is not None
    assert hand.result.winners == (0,)
    assert hand.result.points == (12, 0)


def test_section7_example2_two_players_undercut() -> None:
    hand = position(["2C 3D", "3H"], draws=3)
    hand.apply(KNOCK)
    assert hand.result is not None
    assert hand.result.winners == (1,)
    assert hand.result.points == (0, 12)  # 2 + 10 undercut


def test_section7_example3_two_players_tie_with_knocker() -> None:
    assert knock_position(["2C 3D", "5H"]) == (0, 10)


def test_section7_example4_four_players_knock() -> None:
    hand = position(["3C", "KS", "JK", "7D"], draws=3)
    assert values(hand) == [3, 10, 25, 7]
    hand.apply(KNOCK)
    assert hand.result is not None and hand.result.points == (33, 0, 0, 0)


def test_section7_example5_knocker_ties_two() -> None:
    assert knock_position(["4C", "4H", "4D", "KS KH KD"]) == (0, 36, 36, 0)


def test_section7_example6_undercut_by_a_third_party() -> None:
    assert knock_position(["5C", "2H", "9D"]) == (0, 20, 0)


def test_section7_example7_five_players_going_out() -> None:
    hand = position(["9S", "QS 2H", "KH KD KC", "4H", "JK"], table=["6S 7S 8S"], draws=1)
    events = hand.apply(meld("6S 7S 8S 9S"))
    assert [e.kind for e in events] == ["meld", "went_out", "hand_scored"]
    result = hand.result
    assert result is not None
    assert result.reason == "went_out" and result.knocker == 0
    assert result.values == (0, 12, 30, 4, 25)
    assert result.points == (96, 0, 0, 0, 0)  # 71 + 25 going-out bonus
    assert hand.is_over and hand.legal_actions() == []


def test_section7_example8_stock_exhausted_co_winners() -> None:
    # Seat 2 (C) took the last card; the final lap is A, B, then C.
    hand = position(["8S", "8H", "KS KH"], stock=(), current=2, draws=1)
    hand.apply(END)
    assert hand.final_lap and hand.current_player == 0
    hand.apply(END)
    hand.apply(END)
    assert not hand.is_over
    hand.apply(END)
    result = hand.result
    assert result is not None
    assert result.reason == "stock_exhausted" and result.knocker is None
    assert result.winners == (0, 1)
    assert result.points == (12, 12, 0)  # no undercut bonus


def test_section7_example9_two_non_knockers_tie() -> None:
    assert knock_position(["5C", "AH", "AD", "6S"]) == (0, 19, 19, 0)


def test_section7_example10_game_end_both_options() -> None:
    default = carousel_final_totals([162, 151, 120], [5, 4, 3], CarouselRules())
    assert default.totals == (262, 251, 195)
    assert default.winners == (0,)
    everyone = carousel_final_totals(
        [162, 151, 120], [5, 4, 3], CarouselRules(round_bonus_to="all")
    )
    assert everyone.totals == (387, 351, 195)
    assert everyone.winners == (0,)


def test_section7_example11_split_a_run_into_a_group() -> None:
    hand = position(["8C 8D KS", "QH QD"], table=["5H 6H 7H 8H"], rules=CarouselRules())
    hand.apply(meld("5H 6H 7H", "8H 8C 8D"))
    assert table_text(hand) == ["5H 6H 7H", "8H 8C 8D"]
    assert [str(c) for c in hand.hand_cards(0)] == ["KS"]
    assert hand.melded and DRAW not in hand.legal_actions()


def test_section7_example12_freed_joker_reused() -> None:
    table = ["4S JK=5S 6S", "9H 9S 9C"]
    hand = position(["5S 2D", "KC KD", "QC QD"], table=table)
    joker = next(c for m in hand.table for c in m if c.face == JOKER_FACE)
    # The freed joker must stay on the table.
    assert_illegal(hand, meld("4S 5S 6S", "9H 9S 9C"), "illegal_layout", "cannot remove a joker")
    # Re-declared as 9H it duplicates a suit in the group.
    assert_illegal(
        hand, meld("4S 5S 6S", "9H 9S 9C JK=9H"), "illegal_layout", "two cards of suit H"
    )
    hand.apply(meld("4S 5S 6S", "9H 9S 9C JK=9D"))
    assert table_text(hand) == ["4S 5S 6S", "9H 9S 9C JK=9D"]
    assert [str(c) for c in hand.hand_cards(0)] == ["2D"]
    moved = next(c for m in hand.table for c in m if c.face == JOKER_FACE)
    assert moved.physical == joker.physical and str(moved.declared) == "9D"
    # With one deck the 9H declaration breaks the copy limit before the group is read.
    two = position(["5S 2D", "KC KD"], table=table)
    assert_illegal(two, meld("4S 5S 6S", "9H 9S 9C JK=9H"), "illegal_layout", "9H appears 2")
    two.apply(meld("4S 5S 6S", "9H 9S 9C JK=9D"))


def test_section7_example13_nothing_fits_so_draw_again() -> None:
    hand = position(["KH 2C 9D", "QC QD"], table=["7D 7S 7C"], top="5H JS")
    assert best_placement(hand.table, hand.hand_cards(0)) is None
    for layout in (
        ["7D 7S 7C KH"],
        ["7D 7S 7C", "KH 2C 9D"],
        ["7D 7S 7C 9D"],
        ["7D 7S", "7C 2C 9D"],
    ):
        assert_illegal(hand, meld(*layout), "illegal_layout")
    assert hand.legal_actions() == [DRAW]
    hand.apply(DRAW)
    hand.apply(DRAW)
    assert hand.draws == 3
    assert hand.hand_value(0) == 36
    assert hand.legal_actions() == [END]  # no knock at 36


# -- section 10: required test cases -----------------------------------------------------


def test_section10_case1_group_validity_two_decks() -> None:
    hand = position(["8S 8S 8H 8D 8C", "KC KD", "QC QD"])
    assert hand.decks == 2
    assert_illegal(hand, meld("8S 8S 8H"), "illegal_layout", "two cards of suit S")
    assert_illegal(hand, meld("8S 8H 8D 8C 8S"), "illegal_layout", "at most 4 cards")
    assert hand.is_legal(meld("8S 8H 8D 8C"))
    hand.apply(meld("8S 8H 8D 8C"))
    assert [str(c) for c in hand.hand_cards(0)] == ["8S"]
    # The same through the checker alone.
    with pytest.raises(IllegalLayoutError, match="two cards of suit S"):
        check_layout([], [p("8S 8S 8H")], p("8S 8S 8H"), decks=2)
    with pytest.raises(IllegalLayoutError, match="at most 4 cards"):
        check_layout([], [p("8S 8H 8D 8C JK=8S")], p("8S 8H 8D 8C JK"), decks=2)


def test_section10_case2_ace_high_or_low_never_around_the_corner() -> None:
    hand = position(["QD KD AD 2D 3D", "KC KS"])
    assert hand.is_legal(meld("QD KD AD"))
    assert hand.is_legal(meld("AD 2D 3D"))
    assert_illegal(hand, meld("KD AD 2D"), "illegal_layout", "no wrap around the ace")
    for legal in ("QD KD AD", "AD 2D 3D"):
        check_layout([], [p(legal)], p("QD KD AD 2D 3D"))
    with pytest.raises(IllegalLayoutError, match="no wrap"):
        check_layout([], [p("KD AD 2D")], p("QD KD AD 2D 3D"))


def test_section10_case3_three_draws_then_no_meld() -> None:
    hands = [
        "7H 8H 9H 2S 4C 6D 8S TC QD KS",
        "AS 3C 5D 7S 9C JD KH 2D 4S 6C",
        "AC 3D 5S 7C 9D JS KC 2C 4D 6S",
    ]
    hand = deal(hands, stock="QS 3H JC KD")
    assert hand.current_player == 0 and hand.draws == 1
    assert len(hand.hand_cards(0)) == 11 and card("QS") in hand.hand_cards(0)
    assert hand.legal_actions() == [DRAW]  # neither end nor knock before melding
    assert hand.is_legal(meld("7H 8H 9H"))  # melding would be open, but not chosen
    hand.apply(DRAW)
    assert hand.is_legal(meld("7H 8H 9H"))
    hand.apply(DRAW)
    assert hand.draws == 3 and len(hand.hand_cards(0)) == 13
    assert {card("QS"), card("3H"), card("JC")} <= set(hand.hand_cards(0))
    assert_illegal(hand, meld("7H 8H 9H"), "meld_after_last_draw", "no melding after the last")
    assert_illegal(hand, DRAW, "draw_not_allowed", "at most 3 draws")
    assert hand.legal_actions() == [END]
    hand.apply(END)
    assert hand.current_player == 1 and card("KD") in hand.hand_cards(1)


def test_section10_case4_no_draw_after_a_meld() -> None:
    hand = deal(
        [
            "7H 8H 9H 2S 4C 6D 8S TC QD KS",
            "AS 3C 5D 7S 9C JD KH 2D 4S 6C",
            "AC 3D 5S 7C 9D JS KC 2C 4D 6S",
        ],
        stock="QS 3H",
    )
    hand.apply(meld("7H 8H 9H"))
    assert hand.melded and hand.draws == 1
    assert_illegal(hand, DRAW, "draw_not_allowed", "once a meld has been made")
    assert DRAW not in hand.legal_actions() and END in hand.legal_actions()


def test_section10_case5_layout_missing_a_table_card() -> None:
    hands = [
        "7H 8H 9H 2S 4C 6D 8S TC QD KS",
        "KC KD KH 3C 5D 7S 9C JD 2D 4S",
        "AC 3D 5S 7C 9D JS QC 2C 4D 6S",
    ]
    hand = deal(hands, stock="QS 3H")
    hand.apply(meld("7H 8H 9H"))
    hand.apply(END)
    assert hand.current_player == 1
    error = assert_illegal(
        hand, meld("7H 8H", "KC KD KH"), "illegal_layout", "cannot remove 9H from the table"
    )
    assert error.rule == "carousel-3.5" and str(error).endswith("(Carousel rules §3.5)")
    assert_illegal(hand, meld("KC KD KH"), "illegal_layout", "cannot remove 7H from the table")
    hand.apply(meld("7H 8H 9H", "KC KD KH"))


def test_section10_case6_rearranging_only_table_cards() -> None:
    hand = position(["2C 4D", "KC KD"], table=["5H 6H 7H 8H 9H TH"])
    assert_illegal(hand, meld("5H 6H 7H", "8H 9H TH"), "illegal_layout", "no card from your hand")
    assert_illegal(hand, meld("5H 6H 7H 8H 9H TH"), "illegal_layout", "no card from your hand")


def test_section10_case7_joker_keeps_its_declaration_until_freed() -> None:
    without = position(["4H 4D 6H 6D 8S 9S", "KC KD", "QC QD"], table=["4S JK=5S 6S"])
    error = assert_illegal(
        without,
        meld("4S 4H 4D", "6S 6H 6D", "JK=7S 8S 9S"),
        "illegal_layout",
        "was not freed",
        "no real 5S on the table",
    )
    assert "JK=7S" in str(error)
    with_five = position(["5S 8S 9S", "KC KD", "QC QD"], table=["4S JK=5S 6S"])
    with_five.apply(meld("4S 5S 6S", "JK=7S 8S 9S"))
    assert table_text(with_five) == ["4S 5S 6S", "JK=7S 8S 9S"]
    assert with_five.hand_cards(0) == []  # ... and seat 0 went out
    assert with_five.result is not None and with_five.result.reason == "went_out"
    reused = position(["5S KD", "KC QH", "QC QD"], table=["4S JK=5S 6S"])
    reused.apply(meld("4S 5S 6S JK=7S"))
    assert table_text(reused) == ["4S 5S 6S JK=7S"]


def test_section10_case8_freed_joker_never_enters_a_hand() -> None:
    hand = position(["5S 2D", "KC KD", "QC QD"], table=["4S JK=5S 6S"])
    error = assert_illegal(hand, meld("4S 5S 6S"), "illegal_layout", "cannot remove a joker")
    assert "JK=5S" in str(error)
    assert all(not c.is_joker for c in hand.hand_cards(0))


@pytest.mark.parametrize(("kept", "value"), [("6H", 6), ("5H", 5)])
def test_section10_case9_knock_limit_at_the_end_of_the_turn(kept: str, value: int) -> None:
    hand = position([f"{kept} KS", "KC KD QC", "QS QD JC"], table=["TS JS QS"])
    assert_illegal(hand, KNOCK, "turn_not_finished")  # not before the turn may end
    hand.apply(meld("TS JS QS KS"))
    assert hand.hand_value(0) == value
    if value > 5:
        error = assert_illegal(hand, KNOCK, "hand_over_knock_limit", "hand value 6")
        assert error.rule == "carousel-4.2"
        assert hand.legal_actions() == [END]
        return
    assert hand.legal_actions() == [END, KNOCK]
    events = hand.apply(KNOCK)
    assert [e.kind for e in events] == ["knock", "hand_scored"]
    assert hand.is_over and hand.result is not None
    assert hand.result.points == (50, 0, 0)  # (30 - 5) + (30 - 5)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(END)
    assert info.value.code == "hand_over"


def test_section10_case10_a_held_joker_forbids_knocking() -> None:
    hand = position(["JK", "KC KD", "QC QD"], draws=3)
    assert hand.hand_value(0) == 25
    assert hand.legal_actions() == [END]
    assert_illegal(hand, KNOCK, "hand_over_knock_limit", "hand value 25")
    # It is the joker's value that forbids it: at joker_value 5 the same hand may knock.
    cheap = position(["JK", "KC KD", "QC QD"], draws=3, rules=CarouselRules(joker_value=5))
    assert cheap.legal_actions() == [END, KNOCK]


def test_section10_case11_example4_knocker_scores_33() -> None:
    assert knock_position(["3C", "KS", "JK", "7D"]) == (33, 0, 0, 0)


def test_section10_case12_example5_co_winners_and_rounds_won() -> None:
    game = CarouselGame(players=4, seed=5, first_dealer=3)
    assert game.current_player == 0
    game.hand = position(["4C", "4H", "4D", "KS KH KD"], draws=3, dealer=3)
    game.apply(KNOCK)
    assert game.results[-1].points == (0, 36, 36, 0)
    assert game.results[-1].winners == (1, 2)
    assert game.rounds_won == (0, 1, 1, 0)
    assert game.scores == (0, 36, 36, 0)


def test_section10_case13_example7_going_out_scores_96() -> None:
    hand = position(["9S", "QS 2H", "KH KD KC", "4H", "JK"], table=["6S 7S 8S"])
    hand.apply(meld("6S 7S 8S 9S"))
    assert hand.result is not None and hand.result.points[0] == 96


def test_section10_case14_stock_exhaustion_and_the_final_lap() -> None:
    hands = [
        "2S 5S 9S QS 3C 6C TC KC 4D 8D",
        "3S 6S TS KS 4C 7C JC AD 5D 9D",
        "4S 7S JS AC 5C 8C QC 2D 6D TD",
    ]
    hand = deal(hands)
    assert len(hand.stock) == 75  # 76 after the deal, one drawn by seat 0
    turns = 0
    while hand.stock:
        seat = hand.current_player
        while hand.stock and DRAW in hand.legal_actions():
            hand.apply(DRAW)
        if hand.stock:
            hand.apply(END)
            turns += 1
            assert hand.current_player == (seat + 1) % 3
    # 76 = 25 full turns of three draws + one card: seat 1 takes it with its first draw.
    exhauster = hand.current_player
    assert turns == 25 and exhauster == 1 and hand.draws == 1
    assert hand.legal_actions() == [END]  # nothing to draw: the turn may end
    assert not hand.final_lap
    hand.apply(END)
    sizes = [len(hand.hand_cards(s)) for s in range(3)]
    for seat in (2, 0, 1):  # the next player first, the exhauster last
        assert hand.final_lap and hand.current_player == seat
        assert hand.draws == 0 and [len(hand.hand_cards(s)) for s in range(3)] == sizes
        assert hand.legal_actions() == [END]
        assert_illegal(hand, DRAW, "draw_not_allowed", "final-lap turns have no draw")
        hand.apply(END)
    result = hand.result
    assert result is not None and result.reason == "stock_exhausted"
    expected = score_carousel_hand(result.values, knocker=None, went_out=False)
    assert (result.winners, result.points) == expected
    # Example 8 (values 8, 8, 20) through a final lap: 12 / 12 / 0.
    lap = final_lap_position(["8S", "8H", "KS KH"], current=0, turns_left=3)
    for _ in range(3):
        assert lap.legal_actions() == [END]
        lap.apply(END)
    assert lap.result is not None and lap.result.points == (12, 12, 0)


def test_section10_case15_game_end_example10() -> None:
    scores, rounds = [162, 151, 120], [5, 4, 3]
    default = carousel_final_totals(scores, rounds, CarouselRules())
    assert default.totals == (262, 251, 195)
    assert default.game_bonus == (100, 100, 0) and default.round_bonus == (0, 0, 75)
    everyone = carousel_final_totals(scores, rounds, CarouselRules(round_bonus_to="all"))
    assert everyone.totals == (387, 351, 195)
    assert everyone.round_bonus == (125, 100, 75)


def test_section10_case16_pack_sizes_and_the_stock() -> None:
    two = new_hand(players=2, seed=1)
    assert len(two.deck) == 53 and sum(1 for c in two.deck if c.is_joker) == 1
    assert len(two.stock) + 1 == 53 - 20
    five = new_hand(players=5, seed=1)
    assert len(five.deck) == 106 and sum(1 for c in five.deck if c.is_joker) == 2
    # 56 remain after the deal; the first player's automatic draw took one of them.
    assert len(five.stock) == 55 and five.draws == 1
    assert [len(five.hand_cards(s)) for s in range(5)] == [10, 11, 10, 10, 10]
    assert new_hand(players=3, seed=1).decks == 2


def test_section10_case17_never_stuck_on_an_empty_stock() -> None:
    # The first draw took the last card: nothing fits, the turn may end.
    hand = position(["KH 2C 9D", "QC QD", "JC JD"], table=["7D 7S 7C"], stock=())
    assert hand.legal_actions() == [END]
    assert_illegal(hand, DRAW, "draw_not_allowed", "the stock is empty")
    # A second draw that empties the stock: the player may still meld.
    second = position(["7H 8H", "QC QD", "JC JD"], stock="9H", draws=1)
    second.apply(DRAW)
    assert not second.stock and second.draws == 2
    assert second.legal_actions() == [END]
    assert second.is_legal(meld("7H 8H 9H"))
    second.apply(END)
    # Final-lap turns: only meld and end_turn (knock when low enough).
    assert second.final_lap and second.current_player == 1
    assert second.legal_actions() == [END]
    lap = final_lap_position(["KH", "7H 8H 9H 2C"], table=["7D 7S 7C"], current=1, turns_left=2)
    assert lap.legal_actions() == [END]
    assert lap.is_legal(meld("7D 7S 7C", "7H 8H 9H"))
    assert lap.is_legal(meld("7D 7S 7C 7H"))
    lap.apply(meld("7D 7S 7C", "7H 8H 9H"))
    assert lap.legal_actions() == [END, KNOCK]  # 2C left: value 2


def test_section10_case18_second_meld_cannot_take_back_the_first() -> None:
    hand = position(["7H 8H 9H KS KC KD", "QC QD", "JC JD"])
    hand.apply(meld("7H 8H 9H"))
    assert_illegal(hand, meld("KS KC KD"), "illegal_layout", "cannot remove 7H from the table")
    assert_illegal(
        hand, meld("7H 8H", "KS KC KD"), "illegal_layout", "cannot remove 9H from the table"
    )
    hand.apply(meld("7H 8H 9H", "KS KC KD"))  # a second meld keeping the first is fine
    assert table_text(hand) == ["7H 8H 9H", "KS KC KD"]


def test_section10_case19_freeing_with_a_table_card() -> None:
    hand = position(["9C 9D KS", "QC QD", "JC JD"], table=["4S JK=5S 6S", "5S 5H 5D 5C"])
    hand.apply(meld("4S 5S 6S", "5H 5D 5C", "9C 9D JK=9S"))
    assert table_text(hand) == ["4S 5S 6S", "5H 5D 5C", "9C 9D JK=9S"]
    assert [str(c) for c in hand.hand_cards(0)] == ["KS"]
    blocked = position(["9C 9D KS", "QC QD", "JC JD"], table=["4S JK=5S 6S", "7H 8H 9H"])
    assert_illegal(
        blocked,
        meld("4S 6S", "7H 8H 9H", "9C 9D JK=9S"),
        "illegal_layout",
        "no real 5S on the table",
    )
    # The checker alone says the same.
    with pytest.raises(IllegalLayoutError) as info:
        check_layout(
            [p("4S JK=5S 6S"), p("7H 8H 9H")],
            [p("4S 6S"), p("7H 8H 9H"), p("9C 9D JK=9S")],
            p("9C 9D"),
        )
    assert info.value.code == "joker_not_freed"


def test_meld_action_with_unknown_card_names_the_card() -> None:
    hand = position(["7H 8H", "QC QD"], table=["4S 5S 6S"])
    error = assert_illegal(hand, meld("4S 5S 6S", "7H 8H 9H"), "card_not_available", "9H")
    assert error.card == card("9H")
    with pytest.raises(Exception, match="bad card token"):
        CarouselAction.meld(["7H 8H ZZ"])


def test_layout_check_melds_of_one_shape_keep_their_own_cards() -> None:
    """Melds that differ only in which deck's copy they hold are checked as the meld
    rule checks each of them: the same kind, faces, rank and suit, each with its own
    cards (a layout check remembers legal melds by shape)."""
    joker = Card(JOKER_FACE).declare(natural_card(6, "H"))
    for copy in (0, 1, 0):
        run = (natural_card(5, "H", copy), joker, natural_card(7, "H", copy))
        group = tuple(natural_card(9, suit, 1 - copy) for suit in "SCD")
        hand = [run[0], run[2], *group, Card(JOKER_FACE)]
        check = check_layout([], [run, group], hand)
        assert [meld.cards for meld in check.melds] == [run, group]
        assert list(check.melds) == [check_meld(m, CAROUSEL_MELDS) for m in (run, group)]
