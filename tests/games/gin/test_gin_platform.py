"""What the platform relies on: every rule option declared with its range or choices,
refusals from the error tree, the match vocabulary, and records from before replaying."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from gin_helpers import play_won_hand
from tests.corpus.record import CORPUS

from rummykit.errors import IllegalActionError, InvalidOptionError, InvalidRecordError
from rummykit.games.gin import (
    GinAction,
    GinHand,
    GinHandResult,
    GinMatch,
    GinRules,
    final_totals,
    new_hand,
)
from rummykit.options import Option, option_of, options_of, replace_options

OPTIONS = options_of(GinRules)
RECORDS = Path(__file__).parent / "records"


def _bad_values(declared: Option) -> list[Any]:
    """Values just outside the declaration, and of the wrong type."""
    if declared.kind == "bool":
        return [1, "yes", None]
    if declared.kind == "choice":
        return ["nonsense", 1, None]
    assert declared.low is not None and declared.high is not None
    return [declared.low - 1, declared.high + 1, True, "7", 7.0]


# -- options ------------------------------------------------------------------------------


def test_every_option_is_declared_with_a_range_or_choices_and_help() -> None:
    assert [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(GinRules)]
    for declared in OPTIONS:
        assert declared.help, declared.name
        if declared.kind == "int":
            assert declared.low is not None and declared.high is not None, declared.name
            assert declared.low <= declared.default <= declared.high
        elif declared.kind == "choice":
            assert declared.choices and declared.default in declared.choices, declared.name
        else:
            assert declared.kind == "bool" and isinstance(declared.default, bool), declared.name


def test_the_declared_kinds_and_ranges() -> None:
    kinds = {o.name: o.kind for o in OPTIONS}
    assert kinds["knock_limit"] == kinds["target"] == kinds["stock_floor"] == "int"
    assert kinds["auto_layoff"] == kinds["ace_high_runs"] == "bool"
    assert option_of(GinRules, "knocker_arrangement").choices == ("auto", "explicit")
    assert option_of(GinRules, "redeal_after_draw").choices == ("same_dealer", "alternate")
    assert (option_of(GinRules, "target").low, option_of(GinRules, "target").high) == (1, 100_000)
    assert option_of(GinRules, "shutout_multiplier").low == 1


def test_the_edges_of_every_range_are_allowed() -> None:
    for declared in OPTIONS:
        values = [declared.low, declared.high] if declared.kind == "int" else declared.choices
        for value in values or (True, False):
            assert getattr(GinRules(**{declared.name: value}), declared.name) == value


@pytest.mark.parametrize("declared", OPTIONS, ids=lambda o: o.name)
def test_a_value_outside_the_declaration_is_refused_naming_the_option(declared: Option) -> None:
    rules = GinRules(knock_limit=7, target=50)
    before = rules.to_dict()
    for bad in _bad_values(declared):
        with pytest.raises(InvalidOptionError) as refused:
            replace_options(rules, {declared.name: bad})
        assert refused.value.option == declared.name
        assert declared.name in str(refused.value) and repr(bad) in str(refused.value)
        assert refused.value.code == "invalid_option"
        with pytest.raises(InvalidOptionError):
            GinRules.from_dict({**before, declared.name: bad})
    assert rules.to_dict() == before


def test_an_unknown_option_is_refused_naming_it_and_changes_nothing() -> None:
    rules = GinRules(knock_limit=7)
    with pytest.raises(InvalidOptionError, match="knocklimit") as refused:
        GinRules.from_dict({"knock_limit": 5, "knocklimit": 3})
    assert refused.value.option == "knocklimit"
    with pytest.raises(InvalidOptionError, match="knock_limit") as refused:
        replace_options(rules, {"knocklimit": 3})
    assert refused.value.option == "knocklimit"
    assert rules == GinRules(knock_limit=7)


def test_options_parse_from_text() -> None:
    assert option_of(GinRules, "knock-limit").parse("7") == 7
    assert option_of(GinRules, "auto_layoff").parse("off") is False
    assert option_of(GinRules, "knocker_arrangement").parse("explicit") == "explicit"
    with pytest.raises(InvalidOptionError, match="knock_limit"):
        option_of(GinRules, "knock_limit").parse("201")


def test_bad_seats_and_dealers_are_refused_from_the_error_tree() -> None:
    with pytest.raises(InvalidOptionError, match="dealer") as refused:
        new_hand(GinRules(), 1, dealer=2)
    assert refused.value.option == "dealer"
    with pytest.raises(InvalidOptionError, match="seats 0 and 1"):
        new_hand(GinRules(), 1).observation(2)
    with pytest.raises(InvalidOptionError, match="first_dealer"):
        GinMatch(seed=1, first_dealer=True)  # type: ignore[arg-type]
    with pytest.raises(InvalidRecordError, match="not a gin record"):
        GinHand.from_record({"variant": "rami"})
    with pytest.raises(InvalidRecordError, match="gin-match"):
        GinMatch.from_record({"variant": "gin", "seed": 1})
    with pytest.raises(InvalidRecordError, match="decks"):
        GinMatch.from_record({"variant": "gin-match", "seed": None, "actions": []})


# -- the match vocabulary -----------------------------------------------------------------


def test_match_scores_are_the_hand_points() -> None:
    match = GinMatch(first_dealer=0)
    assert match.scores == match.points == (0, 0)
    play_won_hand(match, 1, 20)
    assert match.scores == match.points == (0, 20)
    assert match.hand_number == 2 and len(match.results) == 1


def test_match_result_winners() -> None:
    won = [GinHandResult("knock", 0, points) for points in (40, 35, 30)]
    result = final_totals([*won, GinHandResult("knock", 1, 20)], GinRules())
    assert result.winner == 0 and result.winners == (0,)
    # Records and match_over events carry the JSON form: it stays as it was.
    assert "winners" not in result.to_json()
    tied = dataclasses.replace(result, totals=(280, 280), winner=None)
    assert tied.winners == (0, 1)


def test_the_end_of_the_match_refuses_more_actions() -> None:
    match = GinMatch(first_dealer=0)
    for points in (40, 35, 30):
        play_won_hand(match, 0, points)
    assert match.is_over and match.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the match is over") as refused:
        match.apply(GinAction.pass_())
    assert refused.value.code == "match_over"


# -- records from before ------------------------------------------------------------------


def _corpus_gin_records() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as source:
        return [entry for entry in json.load(source) if entry["variant"] == "gin"]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_corpus_match_records_replay_from_the_record_alone() -> None:
    entries = _corpus_gin_records()
    assert len(entries) >= 100
    for entry in entries:
        match = GinMatch.from_record(entry["record"])
        assert match.is_over
        assert _json(match.to_record()) == entry["record"]
        assert _json(match.result.to_json()) == entry["result"]  # type: ignore[union-attr]


def test_an_unseeded_match_record_from_before_replays_from_its_decks() -> None:
    saved = json.loads((RECORDS / "unseeded_match.json").read_text(encoding="utf-8"))
    record = saved["record"]
    assert record["seed"] is None and "players" not in record
    match = GinMatch.from_record(record)
    assert match.is_over
    assert [r.outcome for r in match.results] == ["draw", "knock", "draw", "knock"]
    assert any(r.layoffs for r in match.results)
    assert _json(match.to_record()) == record
    assert _json(match.result.to_json()) == saved["result"]  # type: ignore[union-attr]
    again = GinMatch.from_record(_json(match.clone().to_record()))
    assert again.score_sheet() == match.score_sheet()
