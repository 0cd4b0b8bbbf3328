"""The behaviour corpus replays identically (tests/corpus/record.py made it).

Every recorded game, replayed action by action, gives the same events, record and
result; the bots, seated again with the same seeds, choose the same actions; the
server's table games give the same views, summaries, legal actions and reveals. A change
that alters any of these changes behaviour: regenerate the corpus only when that is
intended, and say so in the commit.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from tests.corpus.engine_access import new_game, parse_action, rules_for, rules_json
from tests.corpus.record import CORPUS, SERVER_CORPUS, play, play_server


def _load(path: Any) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as source:
        return list(json.load(source))


GAMES = _load(CORPUS)
TABLES = _load(SERVER_CORPUS)


def _id(entry: dict[str, Any]) -> str:
    return f"{entry['variant']}-{entry['players']}p-{'-'.join(entry['bots'])}-{entry['seed']}"


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_corpus_covers_every_variant_and_preset() -> None:
    variants = {entry["variant"] for entry in GAMES}
    assert {
        "gin",
        "carousel",
        "rami",
        "rami40",
        "rami51",
        "rami51-house",
        "rami40-house",
    } <= variants
    assert len(GAMES) >= 300
    bots = {bot for entry in GAMES for bot in entry["bots"]}
    assert {"random", "heuristic", "easy", "medium", "hard", "expert"} <= bots


@pytest.mark.parametrize("entry", GAMES, ids=_id)
def test_engine_replays_identically(entry: dict[str, Any]) -> None:
    rules = rules_for(entry["variant"], entry["options"])
    assert _json(rules_json(rules)) == entry["rules"]
    game = new_game(entry["variant"], rules, entry["players"], entry["seed"], entry["first_dealer"])
    actions = entry["record"]["actions"]
    assert len(actions) == len(entry["events"])
    for data, expected in zip(actions, entry["events"], strict=True):
        events = game.apply(parse_action(entry["variant"], data))
        assert _json([event.to_json() for event in events]) == expected
    assert game.is_over
    assert _json(game.to_record()) == entry["record"]
    assert _json(game.result.to_json()) == entry["result"]


@pytest.mark.parametrize("entry", GAMES, ids=_id)
def test_bots_choose_the_same_actions(entry: dict[str, Any]) -> None:
    again = _json(
        play(
            entry["variant"],
            entry["players"],
            entry["options"],
            tuple(entry["bots"]),
            entry["seed"],
        )
    )
    assert again["record"] == entry["record"]
    assert again["events"] == entry["events"]
    assert again["result"] == entry["result"]


@pytest.mark.parametrize("entry", TABLES, ids=_id)
def test_server_views_replay_identically(entry: dict[str, Any]) -> None:
    again = _json(
        play_server(
            entry["variant"],
            entry["players"],
            entry["options"],
            tuple(entry["bots"]),
            entry["seed"],
        )
    )
    assert again["actions"] == entry["actions"]
    assert len(again["snapshots"]) == len(entry["snapshots"])
    for got, expected in zip(again["snapshots"], entry["snapshots"], strict=True):
        assert got == expected
