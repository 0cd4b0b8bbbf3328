"""The Rami round engine against rules/rami.md: sections 4, 5, 7 and the section 9 cases."""

from __future__ import annotations

import pytest
from rami_helpers import card, cards, illegal, rig, snapshot, table_text

from rummykit.core import InvalidActionError
from rummykit.games.rami import RamiAction, RamiRound, RamiRules, new_round, preset

A = RamiAction


# ------------------------------------------------------------------ section 9, case 1-2


def test_section9_case1_sets_in_the_engine() -> None:
    rnd = rig(hands={0: "7S 7S@1 7H 7D 7C JK 2C 5D"}, phase="play", opened=[0])
    illegal(rnd, A.meld(cards("7S 7S@1 7H")), "invalid_combination", "suits must all differ")
    illegal(rnd, A.meld(cards("7S 7H 7D 7C JK")), "invalid_combination", "at most 4")
    rnd.apply(A.meld(cards("7S 7H 7D 7C")))
    assert table_text(rnd) == ["7S 7H 7D 7C"]


def test_section9_case2_ace_runs_in_the_engine() -> None:
    rnd = rig(hands={0: "QH KH AH 2H 3H AH@1 9C 9D"}, phase="play", opened=[0])
    illegal(rnd, A.meld(cards("KH AH 2H")), "invalid_combination", "no wrap")
    rnd.apply(A.meld(cards("QH KH AH")))
    rnd.apply(A.meld(cards("AH@1 2H 3H")))
    assert [c.value for c in rnd.table] == [31, 6]


# ------------------------------------------------------------------ section 9, case 3-4


def test_section9_case3_two_jokers_rejected_and_joker_onto_a_joker_run() -> None:
    rnd = rig(
        hands={0: "JK JK@1 5H 6H 9C"},
        table=[(1, "JK@2 7S 8S")],
        phase="play",
        opened=[0],
    )
    illegal(rnd, A.meld(cards("JK JK@1 5H 6H")), "invalid_combination", "at most 1 joker")
    illegal(rnd, A.layoff("JK", 0), "joker_limit", "at most one")


def test_section9_case4_joker_run_valued_21_then_layoffs_both_ends() -> None:
    rnd = rig(hands={0: "JK 7S 8S KH KS KD 9S 5S 2D"}, phase="play")
    rnd.apply(A.open([cards("JK 7S 8S"), cards("KH KS KD")]))
    run = rnd.table[0]
    assert run.value == 21 and str(run) == "JK=6S 7S 8S"
    rnd.apply(A.layoff("9S", 0))
    rnd.apply(A.layoff("5S", 0))
    assert table_text(rnd)[0] == "5S JK=6S 7S 8S 9S"


# ---------------------------------------------------------------------- case 5, ex. 1-3


def test_section9_case5_rami51_opening_50_rejected_51_accepted() -> None:
    rnd = rig(hands={0: "5D 6D 7D 8D 8C 8H 8S JK 7S@1 8S@1 KH KS KD 2C"}, phase="play")
    illegal(
        rnd,
        A.open([cards("5D 6D 7D 8D"), cards("8C 8H 8S")]),
        "opening_below_threshold",
        "= 50",
        "reach 51",
    )
    rnd.apply(A.open([cards("JK 7S@1 8S@1"), cards("KH KS KD")]))  # Example 2: 21 + 30
    assert rnd.opened[0] and rnd.history[-1].detail["value"] == 51


def test_section7_example1_rami51_opening_67() -> None:
    rnd = rig(hands={0: "QH KH AH 9C 9D 9H JK 4S"}, phase="play")
    rnd.apply(A.open(["QH KH AH", "9C 9D 9H JK"]))
    assert rnd.history[-1].detail["value"] == 67
    assert table_text(rnd) == ["QH KH AH", "9C 9D 9H JK=9S"]


def test_section7_example2_ambiguous_joker_is_48_not_51_and_valid_in_rami40() -> None:
    hand = {0: "JK 7S 8S 9C 9D 9H 4D KC"}
    illegal(
        rig(hands=hand, phase="play"),
        A.open(["JK 7S 8S", "9C 9D 9H"]),
        "opening_below_threshold",
        "= 48",
    )
    rnd = rig(hands=hand, phase="play", rules=preset("rami40"))
    rnd.apply(A.open(["JK 7S 8S", "9C 9D 9H"]))
    assert rnd.opened[0]


def test_section7_example3_aces() -> None:
    rules = preset("rami40")
    illegal(
        rig(hands={0: "AC AH AS 5D 9D"}, phase="play", rules=rules),
        A.open(["AC AH AS"]),
        "opening_below_threshold",
        "= 33",
    )
    rnd = rig(hands={0: "AC AH AS 2D 3D 4D 9D"}, phase="play", rules=rules)
    rnd.apply(A.open(["AC AH AS", "2D 3D 4D"]))
    assert rnd.history[-1].detail["value"] == 42


def test_opening_requires_pure_run_option() -> None:
    rules = RamiRules(opening_requires_pure_run=True)
    hand = {0: "KH KS KD QH QS QD 4C 5C 6C 2D"}
    illegal(
        rig(hands=hand, phase="play", rules=rules),
        A.open(["KH KS KD", "QH QS QD"]),
        "pure_run_required",
    )
    rnd = rig(hands=hand, phase="play", rules=rules)
    rnd.apply(A.open(["KH KS KD", "QH QS QD", "4C 5C 6C"]))
    assert rnd.opened[0]


def test_open_twice_and_open_with_foreign_cards_rejected() -> None:
    rnd = rig(hands={0: "KH KS KD QH QS QD 4C 5C 6C 2D"}, phase="play")
    illegal(rnd, A.open(["KH KS KC"]), "card_not_in_hand", "KC")
    illegal(rnd, A.open(["KH KS KD", "KH QS QD"]), "card_not_in_hand", "named twice")
    rnd.apply(A.open(["KH KS KD", "QH QS QD"]))
    illegal(rnd, A.open(["4C 5C 6C"]), "already_opened")


# ------------------------------------------------------------------------ case 6-7


def test_section9_case6_unopened_player_cannot_layoff_meld_or_swap() -> None:
    rnd = rig(
        hands={0: "9S 6S 2C 3C 4C KD"},
        table=[(1, "9C 9D 9H JK"), (1, "6S@1 7S 8S")],
        phase="play",
    )
    illegal(rnd, A.layoff("6S", 1), "not_opened", "before opening")
    illegal(rnd, A.swap_joker("9S", 0, joker_target=1), "not_opened")
    illegal(rnd, A.meld("2C 3C 4C"), "not_opened")


def test_section9_case7_taken_card_kept_not_discarded() -> None:
    rnd = rig(hands={0: "2C 5D 9H KS"}, discard="3D 7H")
    rnd.apply(A.take_discard())
    assert rnd.taken_card == card("7H") and card("7H") in rnd.hands[0]
    rnd.apply(A.end_play())
    assert A.discard("7H") not in rnd.legal_actions()
    illegal(rnd, A.discard("7H"), "discard_taken_card", "same turn")
    rnd.apply(A.discard("KS"))
    assert card("7H") in rnd.hands[0] and rnd.discard_pile[-1] == card("KS")
    assert rnd.current_player == 1
    # The taker is known to hold 7H (public information) until it leaves the hand.
    assert rnd.observation(2).known_cards[0] == (card("7H"),)


# -------------------------------------------------------------------------- case 8


def test_section9_case8_discard_must_be_melded() -> None:
    rules = RamiRules(discard_must_be_melded=True)
    rnd = rig(hands={0: "7S 8S 2C 3C 4C 5D"}, table=[(0, "KH KS KD")], discard="3D 9S", rules=rules)
    assert rnd.legal_actions() == [A.draw_stock()]
    illegal(rnd, A.take_discard(), "discard_must_be_melded", "same action")
    illegal(rnd, A.take_discard(A.meld("2C 3C 4C")), "discard_must_be_melded", "9S")
    rnd.apply(A.take_discard(A.meld("7S 8S 9S")))
    assert table_text(rnd)[-1] == "7S 8S 9S" and rnd.phase == "play"
    assert rnd.discard_pile == cards("3D")


def test_discard_must_be_melded_with_an_opening_and_a_layoff() -> None:
    rules = RamiRules(discard_must_be_melded=True)
    rnd = rig(hands={0: "KH KS 9C TC JC 2D"}, discard="KD", rules=rules)
    rnd.apply(A.take_discard(A.open(["KH KS KD", "9C TC JC"])))
    assert rnd.opened[0]
    rnd = rig(hands={0: "2C 3D"}, table=[(1, "6S 7S 8S")], discard="9S", rules=rules, opened=[0])
    rnd.apply(A.take_discard(A.layoff("9S", 0)))
    assert table_text(rnd) == ["6S 7S 8S 9S"]


# -------------------------------------------------------------------------- case 9


def test_section9_case9_and_example7_joker_swap_on_a_set() -> None:
    rnd = rig(
        hands={0: "9S 9S@1 4D 5D 2C"},
        table=[(1, "9C 9D JK"), (1, "9C@1 9D@1 9H JK@1")],
        phase="play",
        opened=[0],
    )
    illegal(rnd, A.swap_joker("9S", 0, joker_cards="4D 5D"), "set_too_small", "3 natural")
    illegal(rnd, A.swap_joker("9S", 1), "joker_must_be_placed", "place the swapped joker")
    rnd.apply(A.swap_joker("9S", 1, joker_cards="4D 5D"))
    assert table_text(rnd)[1] == "9C 9D 9H 9S"
    assert table_text(rnd)[2] == "JK=3D 4D 5D"  # Example 7: Jo=3D
    assert rnd.table[1].joker < 0 and sorted(rnd.hands[0]) == sorted(cards("9S@1 2C"))


def test_swap_joker_to_a_layoff_and_wrong_card() -> None:
    rnd = rig(
        hands={0: "8S 7S@1 2C 5D"},
        table=[(1, "7S JK 9S"), (2, "4H 5H 6H")],
        phase="play",
        opened=[0],
    )
    illegal(rnd, A.swap_joker("7S@1", 0, joker_target=1), "wrong_card", "stands for 8S")
    illegal(rnd, A.swap_joker("8S", 0, joker_target=5), "no_such_combination")
    illegal(rnd, A.swap_joker("8S", 0, joker_cards="2C 5D"), "invalid_combination")
    rnd.apply(A.swap_joker("8S", 0, joker_target=1))
    assert table_text(rnd) == ["7S 8S 9S", "JK=3H 4H 5H 6H"]


def test_swapped_joker_stays_in_hand_only_without_a_placement() -> None:
    rnd = rig(
        hands={0: "8S 2C 9D"},
        table=[(1, "7S JK 9S"), (2, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")],
        phase="play",
        opened=[0],
    )
    # The run of hearts is full, 2C and 9D make nothing with a joker, and after the swap
    # 7S 8S 9S takes a joker: so the joker must go there.
    illegal(rnd, A.swap_joker("8S", 0), "joker_must_be_placed", "onto combination 1")
    rnd.apply(A.swap_joker("8S", 0, joker_target=0))
    assert table_text(rnd)[0] == "JK=6S 7S 8S 9S"


def test_swapped_joker_without_a_placement_stays_in_hand() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    rnd = rig(
        hands={0: "9S 2C 9D@1"},
        table=[(1, "9C 9D 9H@1 JK"), (2, full)],
        phase="play",
        opened=[0],
    )
    rnd.apply(A.swap_joker("9S", 0))
    assert sorted(rnd.hands[0]) == sorted(cards("2C 9D@1 JK"))
    assert rnd.history[-1].detail["joker_to"] == "hand"


# ------------------------------------------------------------------- case 10, example 8


def test_section9_case10_and_example8_going_out_without_discard() -> None:
    rnd = rig(hands={0: "5C 6C"}, table=[(0, "KH KS KD")], stock_top="7C")
    rnd.apply(A.draw_stock())
    events = rnd.apply(A.meld("5C 6C 7C"))
    assert rnd.is_over and rnd.result is not None
    assert rnd.result.outcome == "out" and rnd.result.winner == 0
    assert events[-1].kind == "round_over" and events[-1].detail["by_discard"] is False


def test_section9_case10_mandatory_final_discard_rejects_the_same_play() -> None:
    rules = RamiRules(mandatory_final_discard=True)
    rnd = rig(hands={0: "5C 6C"}, table=[(0, "KH KS KD")], stock_top="7C", rules=rules)
    rnd.apply(A.draw_stock())
    illegal(rnd, A.meld("5C 6C 7C"), "final_discard_required", "mandatory_final_discard")
    rnd.apply(A.end_play())
    rnd.apply(A.discard("7C"))
    assert not rnd.is_over


def test_going_out_by_discarding_the_last_card() -> None:
    rnd = rig(hands={0: "5C 6C 7C"}, table=[(0, "KH KS KD")], stock_top="9D")
    rnd.apply(A.draw_stock())
    rnd.apply(A.meld("5C 6C 7C"))
    rnd.apply(A.end_play())
    events = rnd.apply(A.discard("9D"))
    assert rnd.is_over and events[-1].detail["by_discard"] is True


# ------------------------------------------------------------------- case 11-12 (stock)


def _pass_turn(rnd: RamiRound) -> None:
    rnd.apply(A.draw_stock())
    rnd.apply(A.end_play())
    rnd.apply(rnd.legal_actions()[0])


def test_section9_case11_refill_keeps_the_top_card_then_blocks() -> None:
    rnd = new_round(RamiRules(), players=4, seed=3)
    while not rnd.is_over:
        stock_before = len(rnd.stock)
        refills_before = rnd.refills
        pile_before = list(rnd.discard_pile)
        _pass_turn(rnd)
        if rnd.refills > refills_before:
            # The stock ran out at the end of this turn: the pile minus its top card
            # (the card just discarded) became the new stock.
            assert stock_before == 1
            assert len(rnd.discard_pile) == 1
            assert sorted(rnd.stock) == sorted(pile_before)
    assert rnd.result is not None
    assert rnd.result.outcome == "blocked" and rnd.result.blocked_reason == "stock"
    assert rnd.refills == 2 and not rnd.stock
    # Blocked (section 5.5): the lowest raw hand wins with 0, the others score their hands.
    low = min(rnd.result.hand_values)
    for seat in range(4):
        expected = 0 if rnd.result.hand_values[seat] == low else rnd.result.hand_values[seat]
        assert rnd.result.penalties[seat] == expected


def test_section9_case11_refill_contents() -> None:
    rnd = rig(players=2, hands={0: "2C 3D", 1: "4H 5S"}, discard="9C 8C 7C")
    rnd.discard_pile.extend(rnd.stock[:-1])  # one card left in the stock: drawn this turn
    rnd.stock = rnd.stock[-1:]
    pile = list(rnd.discard_pile)
    drawn = rnd.stock[-1]
    rnd.apply(A.draw_stock())
    rnd.apply(A.end_play())
    events = rnd.apply(A.discard("2C"))
    assert events[-1].kind == "refill" and rnd.refills == 1
    assert rnd.discard_pile == cards("2C")  # the top card stays
    assert sorted(rnd.stock) == sorted(pile) and drawn in rnd.hands[0]


def test_section9_case11_max_reshuffles_zero_blocks_at_once() -> None:
    rnd = rig(
        players=2,
        hands={0: "2C 3D KS", 1: "4H 5S"},
        discard="9C 8C 7C",
        rules=RamiRules(max_reshuffles=0),
    )
    rnd.discard_pile[:0] = rnd.stock[:-1]
    rnd.stock = rnd.stock[-1:]
    _pass_turn(rnd)
    assert rnd.result is not None and rnd.result.blocked_reason == "stock"


def test_section9_case12_round_blocked_after_the_300th_turn() -> None:
    rnd = new_round(RamiRules(), players=3, seed=8)
    turns = 0
    while not rnd.is_over:
        if rnd.phase == "draw":
            turns += 1
        # Take the discard when possible so the stock never runs out.
        legal = rnd.legal_actions()
        if rnd.phase == "draw" and A.take_discard() in legal:
            rnd.apply(A.take_discard())
        elif rnd.phase == "draw":
            rnd.apply(A.draw_stock())
        else:
            rnd.apply(legal[0])
    assert rnd.result is not None and rnd.result.blocked_reason == "turns"
    assert rnd.turn == 300 and turns == 300


def test_max_turns_option() -> None:
    rnd = new_round(RamiRules(max_turns=5), players=2, seed=2)
    while not rnd.is_over:
        _pass_turn(rnd)
    assert rnd.turn == 5 and rnd.result is not None and rnd.result.outcome == "blocked"


# ------------------------------------------------------------------------- case 16


def test_section9_case16_end_play_with_only_the_taken_card_rejected() -> None:
    rnd = rig(hands={0: "5C 6C 7C"}, table=[(0, "KH KS KD"), (1, "2D 3D 4D")], discard="5D")
    rnd.apply(A.take_discard())
    rnd.apply(A.meld("5C 6C 7C"))
    assert rnd.hands[0] == cards("5D")
    assert rnd.legal_actions() == [A.layoff("5D", 1)]  # end_play is not among them
    illegal(rnd, A.end_play(), "taken_card_stranded", "just taken")
    rnd.apply(A.layoff("5D", 1))  # laying that last card too goes out
    assert rnd.is_over and rnd.result is not None and rnd.result.winner == 0


def test_a_play_that_strands_the_taken_card_is_rejected() -> None:
    rnd = rig(hands={0: "5C 6C 7C"}, table=[(0, "KH KS KD")], discard="9H")
    rnd.apply(A.take_discard())
    illegal(rnd, A.meld("5C 6C 7C"), "taken_card_stranded", "9H")


# ------------------------------------------------------------------------- case 18


def test_section9_case18_end_joker_shift_and_interior_joker_needs_a_swap() -> None:
    """§rami-3.7 with end_joker_shifts=true: the real card of an end joker is laid off
    and moves the joker to the other end; an interior joker still needs a swap."""
    rnd = rig(
        hands={0: "6S 8S@1 2C 3C"},
        table=[(1, "JK 7S 8S"), (2, "7S@1 JK@1 9S")],
        phase="play",
        opened=[0],
        rules=RamiRules(end_joker_shifts=True),
    )
    assert table_text(rnd) == ["JK=6S 7S 8S", "7S JK=8S 9S"]
    rnd.apply(A.layoff("6S", 0))
    assert table_text(rnd)[0] == "6S 7S 8S JK=9S"
    assert rnd.history[-1].detail["joker_shifted"] is True
    illegal(rnd, A.layoff("8S@1", 1), "needs_swap", "joker swap")


def test_end_joker_shifts_false_makes_it_a_swap() -> None:
    """§rami-3.7, the default: the real card of an end joker takes it by a joker swap."""
    rules = RamiRules(end_joker_shifts=False)
    rnd = rig(
        hands={0: "6S 2C 3C 9D"},
        table=[(1, "JK 7S 8S"), (2, "4H 5H 6H")],
        phase="play",
        opened=[0],
        rules=rules,
    )
    illegal(rnd, A.layoff("6S", 0), "needs_swap")
    rnd.apply(A.swap_joker("6S", 0, joker_target=1))
    assert table_text(rnd) == ["6S 7S 8S", "JK=3H 4H 5H 6H"]


def test_shifting_end_joker_cannot_be_swapped_when_it_shifts() -> None:
    """§rami-3.7 with end_joker_shifts=true: the card that shifts the joker is a lay-off."""
    rnd = rig(
        hands={0: "6S 2C 3C 9D"},
        table=[(1, "JK 7S 8S"), (2, "4H 5H 6H")],
        phase="play",
        opened=[0],
        rules=RamiRules(end_joker_shifts=True),
    )
    illegal(rnd, A.swap_joker("6S", 0, joker_target=1), "joker_shifts", "lay 6S off")


# ------------------------------------------------------------------------- case 19


def test_section9_case19_rami_sec_below_the_threshold() -> None:
    """§rami-4.6 with rami_sec_exempt_opening=true: an opening that goes out this turn
    may fall short of the threshold."""
    hand = "AS 2S 3S 4S AC 2C 3C 2D 3D 4D 2H 3H 4H"
    rnd = rig(
        hands={0: hand, 1: "7C KD AS@1 JK", 2: "KS QS 9D 9C 5H 2C@1"},
        stock_top="KC",
        rules=RamiRules(rami_sec_exempt_opening=True),
    )
    rnd.apply(A.draw_stock())
    rnd.apply(A.open(["AS 2S 3S 4S", "AC 2C 3C", "2D 3D 4D", "2H 3H 4H"]))
    assert rnd.history[-1].detail == {
        "combos": ["AS 2S 3S 4S", "AC 2C 3C", "2D 3D 4D", "2H 3H 4H"],
        "targets": [0, 1, 2, 3],
        "value": 34,
        "exempt": True,
    }
    rnd.apply(A.end_play())
    rnd.apply(A.discard("KC"))
    result = rnd.result
    assert result is not None and result.rami_sec and result.winner == 0
    assert result.penalties[1] == 2 * 48 and result.penalties[2] == 2 * 45


def test_section9_case19_same_opening_leaving_two_cards_rejected() -> None:
    """§rami-4.6 with rami_sec_exempt_opening=true: two cards left is no going out."""
    hand = "AS 2S 3S 4S AC 2C 3C 2D 3D 4D 2H 3H 4H"
    rnd = rig(hands={0: hand}, stock_top="KC", rules=RamiRules(rami_sec_exempt_opening=True))
    rnd.apply(A.draw_stock())
    rnd.hands[0].append(rnd.stock.pop())  # a second spare card (cards still conserved)
    illegal(
        rnd,
        A.open(["AS 2S 3S 4S", "AC 2C 3C", "2D 3D 4D", "2H 3H 4H"]),
        "opening_below_threshold",
        "goes out this turn",
    )


def test_rami_sec_exemption_off() -> None:
    """§rami-4.6, the default: the threshold binds an opening that goes out too."""
    rules = RamiRules(rami_sec_exempt_opening=False)
    rnd = rig(hands={0: "AS 2S 3S 4S AC 2C 3C 2D 3D 4D 2H 3H 4H"}, stock_top="KC", rules=rules)
    rnd.apply(A.draw_stock())
    illegal(
        rnd, A.open(["AS 2S 3S 4S", "AC 2C 3C", "2D 3D 4D", "2H 3H 4H"]), "opening_below_threshold"
    )


def test_no_rami_sec_when_the_winner_laid_cards_before() -> None:
    rnd = rig(hands={0: "5C 6C"}, table=[(0, "KH KS KD")], stock_top="7C")
    rnd.apply(A.draw_stock())
    rnd.apply(A.meld("5C 6C 7C"))
    assert rnd.result is not None and not rnd.result.rami_sec


# ------------------------------------------------------------------ other options


def test_discard_from_second_round() -> None:
    rules = RamiRules(discard_from_second_round=True)
    rnd = new_round(rules, players=3, seed=4)
    assert rnd.legal_actions() == [A.draw_stock()]
    illegal(rnd, A.take_discard(), "discard_in_first_turn")
    for _ in range(3):
        _pass_turn(rnd)
    assert A.take_discard() in rnd.legal_actions()


def test_one_card_must_draw_stock() -> None:
    rules = RamiRules(one_card_must_draw_stock=True)
    rnd = rig(hands={0: "5C"}, table=[(0, "KH KS KD")], discard="5D", rules=rules)
    assert rnd.legal_actions() == [A.draw_stock()]
    illegal(rnd, A.take_discard(), "one_card_draws_stock")


def test_play_after_open_same_turn_false() -> None:
    rules = RamiRules(play_after_open_same_turn=False)
    rnd = rig(hands={0: "KH KS KD QH QS QD 4C 5C 6C 2D"}, phase="play", rules=rules)
    rnd.apply(A.open(["KH KS KD", "QH QS QD"]))
    illegal(rnd, A.meld("4C 5C 6C"), "play_after_open", "play_after_open_same_turn")
    rnd.apply(A.end_play())
    assert rnd.phase == "discard"


def test_layoff_onto_any_players_combination_and_errors() -> None:
    rnd = rig(
        hands={0: "9S 3D KC 2H"},
        table=[(1, "6S 7S 8S"), (2, "KH KS KD")],
        phase="play",
        opened=[0],
    )
    illegal(rnd, A.layoff("3D", 0), "does_not_fit", "next card of the run")
    illegal(rnd, A.layoff("9S", 7), "no_such_combination", "no combination 8")
    illegal(rnd, A.layoff("QS", 0), "card_not_in_hand", "not in the hand")
    rnd.apply(A.layoff("9S", 0))
    rnd.apply(A.layoff("KC", 1))
    assert table_text(rnd) == ["6S 7S 8S 9S", "KH KS KD KC"]
    assert [c.owner for c in rnd.table] == [1, 2]


def test_refusals_number_the_table_combinations_from_1() -> None:
    rnd = rig(
        hands={0: "3D 9H JK 4C"},
        table=[(1, "6S 7S 8S"), (2, "KH KS KD"), (1, "2C 3C JK@1")],
        phase="play",
        opened=[0],
    )
    # Index 0 of the action is "combination 1" for people; the JSON keeps 0.
    error = illegal(rnd, A.layoff("3D", 0), "does_not_fit", "(combination 1, run 6S-8S")
    assert "combination 0" not in str(error)
    illegal(rnd, A.layoff("9H", 1), "does_not_fit", "(combination 2, set of Ks")
    illegal(rnd, A.swap_joker("4C", 2), "wrong_card", "(combination 3, run AC-3C")
    illegal(rnd, A.layoff("3D", 3), "no_such_combination", "no combination 4", "from 1")
    illegal(rnd, A.layoff("3D", -1), "no_such_combination", "no combination 0 ")
    assert A.layoff("3D", 0).to_json()["target"] == 0
    assert str(A.swap_joker("4C", 2, joker_target=0)) == "swap_joker 4C to 3, joker to 1"


def test_wrong_phase_and_malformed_actions() -> None:
    rnd = rig(hands={0: "2C 5D 9H KS"})
    illegal(rnd, A.discard("2C"), "wrong_phase", "draw phase")
    illegal(rnd, A.end_play(), "wrong_phase")
    with pytest.raises(InvalidActionError):
        rnd.apply("draw_stock")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        A.from_json({"kind": "fly"})
    with pytest.raises(InvalidActionError):
        A.discard("ZZ")


def test_physical_copies_are_kept_and_resolved() -> None:
    rnd = rig(hands={0: "7H@1 8H 9H 2C"}, phase="play", opened=[0])
    # "7H" names the first deck's card; the player holds the second deck's, which is used.
    rnd.apply(A.meld("7H 8H 9H"))
    assert rnd.table[0].cards[0] == card("7H@1")
    assert rnd.actions[-1].to_json() == {"kind": "meld", "combos": ["7H@1 8H 9H"]}


def test_illegal_action_changes_nothing_including_bundled_take() -> None:
    rules = RamiRules(discard_must_be_melded=True)
    rnd = rig(hands={0: "7S 8S 2C 3C 4C 5D"}, discard="3D 9S", rules=rules, opened=[0])
    before = snapshot(rnd)
    illegal(rnd, A.take_discard(A.meld("7S 8S 9S 2C")), "invalid_combination")
    assert snapshot(rnd) == before


def test_discard_must_be_melded_lays_the_physical_card_taken() -> None:
    rules = RamiRules(discard_must_be_melded=True)
    rnd = rig(hands={0: "7S 8S 9S 2C 5D"}, discard="3D 9S@1", rules=rules, opened=[0])
    rnd.apply(A.take_discard(A.meld("7S 8S 9S")))  # "9S" names the first deck's copy
    assert card("9S@1") in rnd.table[-1].cards
    assert card("9S") in rnd.hands[0] and rnd.taken_card == card("9S@1")
