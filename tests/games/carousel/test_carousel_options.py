"""rules/carousel.md section 9: every option has its effect.

Each test plays the same position under the default and under the option, and checks
that exactly the rule the option names changes.
"""

from __future__ import annotations

import pytest
from carousel_helpers import (
    DRAW,
    END,
    KNOCK,
    assert_illegal,
    deal,
    final_lap_position,
    meld,
    position,
    table_text,
)
from test_carousel_game import play_knock

from rummykit.cards import parse_cards
from rummykit.errors import InvalidOptionError
from rummykit.games.carousel.game import CarouselGame, carousel_final_totals
from rummykit.games.carousel.hand import new_hand
from rummykit.games.carousel.layout import IllegalLayoutError, check_layout
from rummykit.games.carousel.rules import (
    CarouselRules,
    carousel_hand_value,
    score_carousel_hand,
)
from rummykit.options import option_of, options_of

DEFAULT = CarouselRules()


def knock_points(hands: list[str], rules: CarouselRules, knocker: int = 0) -> tuple[int, ...]:
    hand = position(hands, current=knocker, draws=3, rules=rules)
    hand.apply(KNOCK)
    assert hand.result is not None
    return hand.result.points


def test_defaults_are_the_reference_rules() -> None:
    assert DEFAULT.to_dict() == {
        "knock_limit": 5,
        "target": 150,
        "game_bonus": 100,
        "round_bonus": 25,
        "round_bonus_to": "others",
        "undercut_bonus": 10,
        "going_out_bonus": 25,
        "max_draws": 3,
        "meld_after_last_draw": False,
        "joker_value": 25,
        "ace_high_value": 1,
        "decks": None,
        "final_lap_draw": "none",
        "nonknocker_ties": "all_win",
        "joker_copy_limit": True,
    }
    assert CarouselRules.from_dict(DEFAULT.to_dict()) == DEFAULT


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"knock_limit": -1}, "knock_limit"),
        ({"max_draws": 0}, "max_draws"),
        ({"target": True}, "target"),
        ({"decks": 4}, "decks"),
        ({"round_bonus_to": "winners"}, "round_bonus_to"),
        ({"nonknocker_ties": "split"}, "nonknocker_ties"),
        ({"final_lap_draw": "one"}, "final_lap_draw"),
        ({"joker_copy_limit": 1}, "joker_copy_limit"),
        ({"meld_after_last_draw": "yes"}, "meld_after_last_draw"),
        ({"knock_limits": 5}, "unknown carousel option"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CarouselRules.from_dict(options)


# -- knock_limit ---------------------------------------------------------------------------


def test_knock_limit() -> None:
    hands = ["3C 4D", "KS KH", "QS QD"]  # seat 0 holds 7
    assert_illegal(position(hands, draws=3), KNOCK, "hand_over_knock_limit", "limit of 5")
    seven = CarouselRules(knock_limit=7)
    hand = position(hands, draws=3, rules=seven)
    assert KNOCK in hand.legal_actions()
    hand.apply(KNOCK)
    assert hand.result is not None and hand.result.points == (26, 0, 0)
    six = CarouselRules(knock_limit=6)
    assert_illegal(position(hands, draws=3, rules=six), KNOCK, "hand_over_knock_limit", "of 6")
    zero = CarouselRules(knock_limit=0)
    assert_illegal(position(["AC", "KS"], draws=3, rules=zero), KNOCK, "hand_over_knock_limit")


# -- target, game_bonus, round_bonus, round_bonus_to ---------------------------------------


def test_target() -> None:
    default = CarouselGame(players=3, seed=1, first_dealer=2)
    play_knock(default, 0, [1, 20, 19])  # 37
    assert not default.is_over
    low = CarouselGame(CarouselRules(target=37), players=3, seed=1, first_dealer=2)
    play_knock(low, 0, [1, 20, 19])
    assert low.is_over
    assert low.result is not None and low.result.game_bonus == (100, 0, 0)
    just_over = CarouselGame(CarouselRules(target=38), players=3, seed=1, first_dealer=2)
    play_knock(just_over, 0, [1, 20, 19])
    assert not just_over.is_over


def test_game_bonus() -> None:
    scores, rounds = [162, 151, 120], [5, 4, 3]
    assert carousel_final_totals(scores, rounds, DEFAULT).game_bonus == (100, 100, 0)
    fifty = carousel_final_totals(scores, rounds, CarouselRules(game_bonus=50))
    assert fifty.game_bonus == (50, 50, 0) and fifty.totals == (212, 201, 195)
    none = carousel_final_totals(scores, rounds, CarouselRules(game_bonus=0))
    assert none.totals == (162, 151, 195) and none.winners == (2,)


def test_round_bonus() -> None:
    scores, rounds = [162, 151, 120], [5, 4, 3]
    ten = carousel_final_totals(scores, rounds, CarouselRules(round_bonus=10))
    assert ten.round_bonus == (0, 0, 30) and ten.totals == (262, 251, 150)
    everyone = CarouselRules(round_bonus=10, round_bonus_to="all")
    assert carousel_final_totals(scores, rounds, everyone).round_bonus == (50, 40, 30)


def test_round_bonus_to() -> None:
    scores, rounds = [162, 151, 120], [5, 4, 3]
    others = carousel_final_totals(scores, rounds, CarouselRules(round_bonus_to="others"))
    assert others.round_bonus == (0, 0, 75) and others.totals == (262, 251, 195)
    everyone = carousel_final_totals(scores, rounds, CarouselRules(round_bonus_to="all"))
    assert everyone.round_bonus == (125, 100, 75) and everyone.totals == (387, 351, 195)


def test_round_bonus_to_in_a_played_game() -> None:
    for rules, totals in (
        (CarouselRules(round_bonus_to="others"), (250, 12 + 25)),
        (CarouselRules(round_bonus_to="all"), (250 + 50, 12 + 25)),
    ):
        game = CarouselGame(rules, players=2, seed=1)
        play_knock(game, 0, [1, 76])  # 75
        play_knock(game, 0, [5, 3])  # undercut: seat 1 scores 2 + 10
        play_knock(game, 0, [1, 76])  # 150
        assert game.is_over
        final = game.result
        assert final is not None
        assert final.rounds_won == (2, 1)
        assert final.totals == totals


# -- undercut_bonus, going_out_bonus -------------------------------------------------------


def test_undercut_bonus() -> None:
    hands = ["2C 3D", "3H"]  # Example 2: A knocks 5, B holds 3
    assert knock_points(hands, DEFAULT) == (0, 12)
    assert knock_points(hands, CarouselRules(undercut_bonus=0)) == (0, 2)
    assert knock_points(hands, CarouselRules(undercut_bonus=30)) == (0, 32)
    # No undercut bonus to a plain knocker.
    assert knock_points(["2C 3D", "KS 7H"], CarouselRules(undercut_bonus=30)) == (12, 0)


def test_going_out_bonus() -> None:
    hands = ["9S", "QS 2H", "KH KD KC", "4H", "JK"]  # Example 7: 71 + bonus
    for bonus, points in ((25, 96), (0, 71), (50, 121)):
        hand = position(hands, table=["6S 7S 8S"], rules=CarouselRules(going_out_bonus=bonus))
        hand.apply(meld("6S 7S 8S 9S"))
        assert hand.result is not None and hand.result.points[0] == points
    # A knock with 0 value left in hand is not going out: no bonus.
    assert score_carousel_hand([0, 5], knocker=0, went_out=False)[1] == (5, 0)


# -- max_draws, meld_after_last_draw -------------------------------------------------------

HANDS3 = [
    "7H 8H 9H 2S 4C 6D 8S TC QD KS",
    "AS 3C 5D 7S 9C JD KH 2D 4S 6C",
    "AC 3D 5S 7C 9D JS KC 2C 4D 6S",
]


def test_max_draws() -> None:
    two = deal(HANDS3, rules=CarouselRules(max_draws=2))
    two.apply(DRAW)
    assert two.draws == 2 and two.legal_actions() == [END]
    assert_illegal(two, DRAW, "draw_not_allowed", "at most 2 draws")
    assert_illegal(two, meld("7H 8H 9H"), "meld_after_last_draw", "(2) draw")
    four = deal(HANDS3, rules=CarouselRules(max_draws=4))
    four.apply(DRAW)
    four.apply(DRAW)
    assert four.draws == 3 and four.legal_actions() == [DRAW]
    assert four.is_legal(meld("7H 8H 9H"))  # a third draw is not the last one now
    four.apply(DRAW)
    assert four.legal_actions() == [END]
    assert not four.is_legal(meld("7H 8H 9H"))
    one = deal(HANDS3, rules=CarouselRules(max_draws=1))
    assert one.legal_actions() == [END]  # the automatic draw is the only one
    assert not one.is_legal(meld("7H 8H 9H"))


def test_meld_after_last_draw() -> None:
    default = deal(HANDS3)
    allowed = deal(HANDS3, rules=CarouselRules(meld_after_last_draw=True))
    for hand in (default, allowed):
        hand.apply(DRAW)
        hand.apply(DRAW)
        assert hand.draws == 3
    assert_illegal(default, meld("7H 8H 9H"), "meld_after_last_draw")
    allowed.apply(meld("7H 8H 9H"))
    assert allowed.melded and table_text(allowed) == ["7H 8H 9H"]
    assert allowed.legal_actions() == [END]


# -- joker_value, ace_high_value -----------------------------------------------------------


def test_joker_value() -> None:
    assert carousel_hand_value(parse_cards("JK 2C")) == 27
    assert carousel_hand_value(parse_cards("JK 2C"), CarouselRules(joker_value=50)) == 52
    hands = ["3C", "KS", "JK", "7D"]  # Example 4: 7 + 22 + 4 with the joker at 25
    assert knock_points(hands, DEFAULT) == (33, 0, 0, 0)
    assert knock_points(hands, CarouselRules(joker_value=15)) == (23, 0, 0, 0)
    cheap = position(["JK", "KC KD", "QC QD"], draws=3, rules=CarouselRules(joker_value=5))
    assert KNOCK in cheap.legal_actions()
    assert KNOCK not in position(["JK", "KC KD", "QC QD"], draws=3).legal_actions()


def test_ace_high_value() -> None:
    assert carousel_hand_value(parse_cards("AS AH 2C")) == 4
    eleven = CarouselRules(ace_high_value=11)
    assert carousel_hand_value(parse_cards("AS AH 2C"), eleven) == 24
    # An ace counts the same wherever it would sit in a run.
    hands = ["2C 3D", "AH", "KS"]
    assert knock_points(hands, DEFAULT) == (0, 4 + 9 + 10, 0)
    assert knock_points(hands, eleven) == (6 + 5, 0, 0)
    assert_illegal(position(["AS 2C", "KS"], draws=3, rules=eleven), KNOCK, "hand_over_knock_limit")


# -- decks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "players", "size"),
    [(None, 2, 53), (None, 3, 106), (None, 5, 106), (1, 3, 53), (2, 2, 106), (3, 5, 159)],
)
def test_decks(decks: int | None, players: int, size: int) -> None:
    rules = CarouselRules(decks=decks)
    hand = new_hand(rules, players=players, seed=2)
    assert len(hand.deck) == size
    assert hand.decks == size // 53
    assert sum(1 for c in hand.deck if c.is_joker) == size // 53
    assert len(hand.stock) == size - 10 * players - 1


def test_decks_set_how_many_copies_a_meld_may_hold() -> None:
    # Three real 5S in three melds need three decks.
    table = ["3S 4S 5S", "5S 6S 7S"]
    hands = ["5S 5H 5D", "KC KD", "QC QD"]
    three = position(hands, table=table, rules=CarouselRules(decks=3))
    three.apply(meld("3S 4S 5S", "5S 6S 7S", "5S 5H 5D"))
    old = [parse_cards(m) for m in table]
    new = [*old, parse_cards("5S 5H 5D")]
    check_layout(old, new, parse_cards("5S 5H 5D"), decks=3)
    with pytest.raises(IllegalLayoutError, match="5S appears 3 times"):
        check_layout(old, new, parse_cards("5S 5H 5D"), decks=2, joker_copy_limit=False)
    # One deck even stretches to five players: three cards are left for the stock.
    assert len(new_hand(CarouselRules(decks=1), players=5, seed=1).stock) == 3 - 1


# -- nonknocker_ties -----------------------------------------------------------------------


def test_nonknocker_ties() -> None:
    hands = ["5C", "AH", "AD", "6S"]  # Example 9
    assert knock_points(hands, DEFAULT) == (0, 19, 19, 0)
    rule_only = CarouselRules(nonknocker_ties="knocker_rule_only")
    # The tie is broken in turn order from the knocker's left: seat 1 before seat 2.
    assert knock_points(hands, rule_only) == (0, 19, 0, 0)
    assert knock_points(["AH", "6S", "5C", "AD"], rule_only, knocker=2) == (0, 0, 0, 19)
    # The knocker rule itself is unchanged: a knocker who ties loses to both (Example 5).
    assert knock_points(["4C", "4H", "4D", "KS KH KD"], rule_only) == (0, 36, 36, 0)


def test_nonknocker_ties_after_the_final_lap() -> None:
    # Example 8: with nobody knocking, ties share the win under either option
    # (section 5.6); knocker_rule_only only changes ties in a knocked hand.
    for rules, points in (
        (DEFAULT, (12, 12, 0)),
        (CarouselRules(nonknocker_ties="knocker_rule_only"), (12, 12, 0)),
    ):
        lap = final_lap_position(["8S", "8H", "KS KH"], current=0, turns_left=3, rules=rules)
        for _ in range(3):
            lap.apply(END)
        assert lap.result is not None and lap.result.points == points


# -- joker_copy_limit ----------------------------------------------------------------------


def test_joker_copy_limit() -> None:
    # Two decks: two real 5S on the table, a joker declared 5S would be the third.
    table = ["5S 5H 5D", "3S 4S 5S"]
    hands = ["JK 5C 5H", "KC KD", "QC QD"]
    layout = meld(*table, "5C 5H JK=5S")
    error = assert_illegal(position(hands, table=table), layout, "illegal_layout", "5S appears 3")
    assert "joker_copy_limit" in str(error)
    free = position(hands, table=table, rules=CarouselRules(joker_copy_limit=False))
    free.apply(layout)
    assert free.hand_cards(0) == []
    # One deck: the real 5S and a joker declared 5S.
    one = ["JK 5H 5D", "KC"]
    one_layout = meld("5S 6S 7S", "5H 5D JK=5S")
    assert_illegal(position(one, table=["5S 6S 7S"]), one_layout, "illegal_layout", "5S")
    position(one, table=["5S 6S 7S"], rules=CarouselRules(joker_copy_limit=False)).apply(one_layout)
    # The checker takes the option directly too.
    old = [parse_cards("5S 6S 7S")]
    new = [*old, parse_cards("5H 5D JK=5S")]
    check_layout(old, new, parse_cards("JK 5H 5D"), decks=1, joker_copy_limit=False)
    with pytest.raises(IllegalLayoutError, match="joker_copy_limit"):
        check_layout(old, new, parse_cards("JK 5H 5D"), decks=1)


def test_final_lap_draw_has_one_value() -> None:
    assert CarouselRules(final_lap_draw="none").final_lap_draw == "none"
    lap = final_lap_position(["KH", "QC QD"], current=0, turns_left=2)
    assert DRAW not in lap.legal_actions()


# -- the declarations --------------------------------------------------------------------


def test_every_option_is_declared_with_its_range_or_choices() -> None:
    declared = {o.name: o for o in options_of(CarouselRules)}
    assert list(declared) == list(DEFAULT.to_dict())
    assert all(o.help for o in declared.values())
    ranges = {name: (o.low, o.high) for name, o in declared.items() if o.kind == "int"}
    assert ranges == {
        "knock_limit": (0, 500),
        "target": (1, 100_000),
        "game_bonus": (0, 10_000),
        "round_bonus": (0, 10_000),
        "undercut_bonus": (0, 10_000),
        "going_out_bonus": (0, 10_000),
        "max_draws": (1, 10),
        "joker_value": (0, 1000),
        "ace_high_value": (0, 100),
        "decks": (1, 3),
    }
    assert declared["decks"].optional and not declared["knock_limit"].optional
    choices = {name: o.choices for name, o in declared.items() if o.kind == "choice"}
    assert choices == {
        "round_bonus_to": ("others", "all"),
        "final_lap_draw": ("none",),
        "nonknocker_ties": ("all_win", "knocker_rule_only"),
    }
    flags = [name for name, o in declared.items() if o.kind == "bool"]
    assert flags == ["meld_after_last_draw", "joker_copy_limit"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("knock_limit", 501),
        ("target", 0),
        ("max_draws", 11),
        ("decks", 0),
        ("decks", True),
        ("joker_value", "25"),
        ("round_bonus_to", "winners"),
        ("joker_copy_limit", None),
    ],
)
def test_a_bad_value_raises_invalid_option_error_naming_the_option(
    name: str, value: object
) -> None:
    with pytest.raises(InvalidOptionError) as info:
        CarouselRules(**{name: value})  # type: ignore[arg-type]
    assert info.value.option == name and info.value.code == "invalid_option"
    assert str(info.value).startswith(f"{name} must be ")
    with pytest.raises(InvalidOptionError) as unknown:
        CarouselRules.from_dict({"knock_limits": 5})
    assert unknown.value.option == "knock_limits"


def test_options_parse_from_text() -> None:
    assert option_of(CarouselRules, "decks").parse("none") is None
    assert option_of(CarouselRules, "decks").parse("3") == 3
    assert option_of(CarouselRules, "meld-after-last-draw").parse("yes") is True
    with pytest.raises(InvalidOptionError, match="decks must be a whole number 1-3"):
        option_of(CarouselRules, "decks").parse("4")
