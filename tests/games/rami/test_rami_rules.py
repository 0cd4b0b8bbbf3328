"""Rami options, presets, deal sizes and scoring: rules/rami.md sections 1, 2, 5, 6, 8."""

from __future__ import annotations

import json

import pytest

from rummykit.cards import parse_cards
from rummykit.errors import InvalidOptionError
from rummykit.games.rami import (
    PRESETS,
    RamiAction,
    RamiGame,
    RamiRules,
    card_token,
    game_winners,
    hand_value,
    new_round,
    parse_card_token,
    parse_option,
    preset,
    score_round,
)
from rummykit.options import Option, option_of, options_of

# ----------------------------------------------------------------- options (section 8)


def test_section8_defaults_are_the_reference_rules() -> None:
    rules = RamiRules()
    assert rules.opening_threshold == 51
    assert (rules.decks, rules.jokers, rules.hand_size) == ("auto", 4, 13)
    assert not rules.mandatory_final_discard and not rules.discard_must_be_melded
    assert not rules.discard_from_second_round and not rules.opening_requires_pure_run
    assert rules.play_after_open_same_turn
    assert (rules.joker_hand_value, rules.ace_hand_value) == (20, 11)
    assert (rules.unopened_penalty, rules.rami_sec) == ("count", "double")
    # The threshold binds rami sec too (§rami-4.6); an end joker's real card swaps (§rami-3.7).
    assert not rules.rami_sec_exempt_opening and not rules.end_joker_shifts
    assert rules.winner_bonus == 0 and not rules.one_card_must_draw_stock
    assert (rules.max_reshuffles, rules.max_turns) == (2, 300)
    assert rules.blocked_winner_scores_zero
    assert (rules.end_mode, rules.limit, rules.dealer_rotation) == ("limit", 500, "left")


def test_presets() -> None:
    assert set(PRESETS) == {"rami51", "rami40", "rami51-house", "rami40-house"}
    assert preset("rami51") == RamiRules()
    assert preset("rami40").opening_threshold == 40
    house = preset("rami51-house")
    assert house.jokers == "per_deck" and house.unopened_penalty == "flat:100"
    assert preset("rami40-house").opening_threshold == 40
    with pytest.raises(ValueError, match="unknown rami preset 'rami99'"):
        preset("rami99")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opening_threshold": -1}, "opening_threshold must be a whole number 0-1000"),
        ({"opening_threshold": True}, "opening_threshold"),
        ({"decks": 4}, "decks must be auto or a whole number 1-3"),
        ({"jokers": "many"}, "jokers must be per_deck or a whole number 0-7"),
        ({"unopened_penalty": "flat:x"}, "needs a number"),
        ({"unopened_penalty": "flat:-5"}, "cannot be negative"),
        ({"unopened_penalty": "triple"}, "count, flat:N or double_count"),
        ({"rami_sec": "bonus"}, "double, bonus:N or off"),
        ({"end_mode": "sudden"}, "end_mode must be one of"),
        ({"max_turns": 0}, "max_turns"),
        ({"end_joker_shifts": "yes"}, "true or false"),
    ],
)
def test_options_are_validated_eagerly(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message) as info:
        RamiRules(**changes)  # type: ignore[arg-type]
    assert info.value.option == next(iter(changes))


def test_every_option_is_declared_with_a_range_or_choices() -> None:
    for declared in options_of(RamiRules):
        assert declared.help, declared.name
        if declared.kind == "int":
            assert declared.low is not None and declared.high is not None, declared.name
        elif declared.kind == "choice":
            assert declared.choices, declared.name
        elif declared.kind == "text":
            assert declared.check_value is not None and declared.shown, declared.name
        else:
            assert declared.kind == "bool", declared.name
        assert declared.check(getattr(RamiRules(), declared.name)) == declared.default


@pytest.mark.parametrize("declared", options_of(RamiRules), ids=lambda o: o.name)
def test_an_out_of_range_option_names_itself(declared: Option) -> None:
    bad: object = {"int": (declared.high or 0) + 1, "bool": "maybe", "text": "nonsense"}.get(
        declared.kind, "nonsense"
    )
    with pytest.raises(InvalidOptionError, match=declared.name) as info:
        RamiRules(**{declared.name: bad})
    assert info.value.option == declared.name and info.value.code == "invalid_option"


def test_unknown_options_are_refused_by_name() -> None:
    with pytest.raises(InvalidOptionError, match="threshold") as info:
        RamiRules.from_dict({"threshold": 40})
    assert info.value.option == "threshold"
    with pytest.raises(InvalidOptionError) as info:
        parse_option("threshold=40")
    assert info.value.option == "threshold"
    with pytest.raises(InvalidOptionError, match="decks must be auto or a whole number 1-3"):
        parse_option("decks=4")
    assert option_of(RamiRules, "decks").parse("3") == 3
    assert option_of(RamiRules, "jokers").parse("per_deck") == "per_deck"


def test_players_outside_two_to_six_are_refused() -> None:
    for players in (1, 7):
        with pytest.raises(InvalidOptionError, match="2-6 players") as info:
            RamiRules().deck_spec(players)
        assert info.value.option == "players"
    with pytest.raises(InvalidOptionError, match="too small to deal") as info:
        new_round(RamiRules(hand_size=20, decks=1, jokers=0), players=3, seed=1)
    assert info.value.option == "hand_size"


def test_rules_round_trip_through_json() -> None:
    rules = RamiRules(jokers="per_deck", unopened_penalty="flat:100", rami_sec="bonus:-50")
    assert RamiRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with pytest.raises(ValueError, match="unknown rami option"):
        RamiRules.from_dict({"threshold": 40})


# ---------------------------------------------------------- deal (section 1, case 15)


@pytest.mark.parametrize(
    ("players", "rules", "pack", "stock"),
    [
        (2, RamiRules(), 108, 81),
        (3, RamiRules(), 108, 68),
        (4, RamiRules(), 108, 55),
        (5, RamiRules(), 160, 94),
        (6, RamiRules(), 160, 81),
        (4, preset("rami51-house"), 106, 53),
        (5, preset("rami51-house"), 159, 93),
        (6, preset("rami40-house"), 159, 80),
    ],
)
def test_section9_case15_deal_sizes(players: int, rules: RamiRules, pack: int, stock: int) -> None:
    rnd = new_round(rules, players, seed=11)
    assert len(rnd.deck) == pack
    assert len(rnd.stock) == stock
    assert all(len(hand) == 13 for hand in rnd.hands)
    assert len(rnd.discard_pile) == 1
    assert len(set(rnd.all_cards())) == pack  # every physical card is distinct


def test_section1_dealer_left_starts_and_deal_order() -> None:
    rnd = new_round(RamiRules(), 4, seed=1, dealer=2)
    assert rnd.current_player == 3 == rnd.starting_player
    # One card at a time from the dealer's left: seat 3 gets the top card.
    assert rnd.deck[0] in rnd.hands[3] and rnd.deck[1] in rnd.hands[0]
    assert rnd.discard_pile[0] == rnd.deck[52]


def test_unseeded_rounds_differ_and_seeded_rounds_repeat() -> None:
    assert new_round(seed=5).deck == new_round(seed=5).deck
    assert new_round().deck != new_round().deck
    with pytest.raises(ValueError, match="2-6 players"):
        new_round(players=7)


def test_card_tokens_keep_the_copy() -> None:
    for token in ("7H", "7H@1", "TD@2", "JK", "JK@3"):
        assert card_token(parse_card_token(token)) == token
    action = RamiAction.open(["7H@1 8H 9H", "KS KD KC@1"])
    assert RamiAction.from_json(json.loads(json.dumps(action.to_json()))) == action


# ------------------------------------------------------------ values (section 2)


def test_section2_hand_values() -> None:
    assert hand_value(parse_cards("2C 9D TH JS QC KD")) == 2 + 9 + 10 + 10 + 10 + 10
    assert hand_value(parse_cards("AS JK")) == 31
    assert hand_value(parse_cards("AS JK"), RamiRules(joker_hand_value=50, ace_hand_value=1)) == 51


# ----------------------------------------------------- scoring (section 5, cases 13-14)

B_HAND = parse_cards("7C KD AS JK")
C_HAND = parse_cards("KS QS 9D 9C 5H 2C")
D_HAND = parse_cards("2H 3H")
HANDS = [[], B_HAND, C_HAND, D_HAND]
OPENED = [True, True, False, True]


def test_section9_case13_example4_normal_round_end() -> None:
    penalties, raw, winners = score_round(RamiRules(), HANDS, OPENED, winner=0)
    assert penalties == (0, 48, 45, 5) and raw == (0, 48, 45, 5) and winners == (0,)
    flat = RamiRules(unopened_penalty="flat:100")
    assert score_round(flat, HANDS, OPENED, winner=0)[0] == (0, 48, 100, 5)
    double = RamiRules(unopened_penalty="double_count")
    assert score_round(double, HANDS, OPENED, winner=0)[0] == (0, 48, 90, 5)


def test_section9_case13_example5_rami_sec_doubles() -> None:
    rules = RamiRules()
    assert score_round(rules, HANDS, OPENED, winner=0, rami_sec=True)[0] == (0, 96, 90, 10)
    flat = RamiRules(unopened_penalty="flat:100")
    assert score_round(flat, HANDS, OPENED, winner=0, rami_sec=True)[0] == (0, 96, 200, 10)
    bonus = RamiRules(rami_sec="bonus:-50")
    assert score_round(bonus, HANDS, OPENED, winner=0, rami_sec=True)[0] == (-50, 48, 45, 5)
    off = RamiRules(rami_sec="off")
    assert score_round(off, HANDS, OPENED, winner=0, rami_sec=True)[0] == (0, 48, 45, 5)


def test_section5_winner_bonus() -> None:
    rules = RamiRules(winner_bonus=-10)
    assert score_round(rules, HANDS, OPENED, winner=0)[0] == (-10, 48, 45, 5)


def test_section9_case14_example6_blocked_round() -> None:
    hands = [parse_cards("5C 7D"), parse_cards("9S"), parse_cards("KS QS TD")]
    opened = [True, True, False]
    penalties, raw, winners = score_round(RamiRules(), hands, opened, winner=None)
    assert raw == (12, 9, 30) and winners == (1,)
    assert penalties == (12, 0, 30)
    flat = RamiRules(unopened_penalty="flat:100")
    assert score_round(flat, hands, opened, winner=None)[0] == (12, 0, 100)
    everyone = RamiRules(blocked_winner_scores_zero=False)
    assert score_round(everyone, hands, opened, winner=None)[0] == (12, 9, 30)


def test_blocked_round_ties_share_the_win() -> None:
    hands = [parse_cards("9S"), parse_cards("9C"), parse_cards("KS")]
    penalties, _, winners = score_round(RamiRules(), hands, [True] * 3, winner=None)
    assert winners == (0, 1) and penalties == (0, 0, 10)


# ------------------------------------------------------------ game end (section 6, 17)


def test_section9_case17_example9_game_end() -> None:
    assert game_winners(RamiRules(), [180, 510, 240], 7) == (0,)
    assert game_winners(RamiRules(), [180, 499, 240], 7) is None
    assert game_winners(RamiRules(), [180, 500, 180], 7) == (0, 2)  # ties share


def test_section6_rounds_and_elimination_modes() -> None:
    rounds = RamiRules(end_mode="rounds", rounds=3)
    assert game_winners(rounds, [900, 10, 20], 2) is None
    assert game_winners(rounds, [900, 10, 20], 3) == (1,)
    elim = RamiRules(end_mode="elimination", limit=100)
    assert game_winners(elim, [120, 50, 60], 2) is None
    assert game_winners(elim, [120, 150, 60], 2) == (2,)
    assert game_winners(elim, [120, 150, 130], 2, eliminated=[0]) == (2,)


def test_game_plays_to_the_limit_with_totals_and_dealer_rotation() -> None:
    game = RamiGame(RamiRules(limit=150), players=3, seed=4, first_dealer=0)
    dealers = []
    while not game.is_over:
        if not dealers or dealers[-1][0] != game.round_number:
            dealers.append((game.round_number, game.round.dealer))
        rnd = game.round
        legal = game.legal_actions()
        game.apply(legal[-1] if rnd.phase == "discard" else legal[0])
    assert [d for _, d in dealers] == [(i % 3) for i in range(len(dealers))]
    result = game.result
    assert result is not None and max(result.totals) >= 150
    assert result.totals == tuple(sum(r.penalties[s] for r in game.results) for s in range(3))
    assert min(result.totals) == result.totals[result.winners[0]]
    assert "wins" in game.score_sheet().splitlines()[-1]


def test_parse_option_for_the_command_line() -> None:
    assert parse_option("opening_threshold=40") == ("opening_threshold", 40)
    assert parse_option("discard-must-be-melded=yes") == ("discard_must_be_melded", True)
    assert parse_option("decks=3") == ("decks", 3)
    assert parse_option("rami_sec=bonus:-50") == ("rami_sec", "bonus:-50")
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option("threshold=40")
    with pytest.raises(ValueError, match="true or false"):
        parse_option("end_joker_shifts=maybe")
    with pytest.raises(ValueError, match="whole number"):
        parse_option("max_turns=many")
