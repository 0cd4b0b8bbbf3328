"""Record the behaviour corpus: seeded whole games of every variant and preset, between
several bot levels, with their full records, event histories and results.

The suite (``tests/test_corpus.py``) replays every game and demands identical records,
events and results, and that the bots, seated again with the same seeds, choose the same
actions. Regenerate only when a change of behaviour is intended (and say so in the
commit)::

    python tests/corpus/record.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "games.json.gz"
SERVER_CORPUS = HERE / "server_games.json.gz"

# (variant or preset, players, rule options over the preset, bot names, game seeds)
# Short targets keep the check fast; a few games run to the real targets.
PLAN: list[tuple[str, int, dict[str, Any], tuple[str, ...], range]] = [
    ("gin", 2, {}, ("heuristic", "random"), range(1000, 1024)),
    ("gin", 2, {}, ("expert", "heuristic"), range(2000, 2016)),
    ("gin", 2, {"target": 50}, ("hard", "medium"), range(3000, 3024)),
    ("gin", 2, {"target": 40}, ("easy", "random"), range(4000, 4024)),
    (
        "gin",
        2,
        {"target": 40, "first_turn_after_double_pass": "stock_only", "undercut_on_tie": False},
        ("heuristic", "easy"),
        range(5000, 5024),
    ),
    (
        "gin",
        2,
        {"target": 30, "auto_layoff": False, "big_gin_bonus": 25},
        ("medium", "heuristic"),
        range(6000, 6016),
    ),
    ("carousel", 3, {"target": 60}, ("heuristic", "random", "heuristic"), range(7000, 7024)),
    ("carousel", 2, {"target": 60}, ("expert", "heuristic"), range(8000, 8016)),
    ("carousel", 4, {"target": 50}, ("hard", "medium", "easy", "random"), range(9000, 9016)),
    ("carousel", 5, {"target": 40}, ("heuristic",) * 5, range(10000, 10012)),
    ("carousel", 3, {}, ("heuristic", "heuristic", "medium"), range(11000, 11008)),
    ("rami", 4, {"end_mode": "rounds", "rounds": 2}, ("heuristic",) * 4, range(12000, 12024)),
    (
        "rami",
        3,
        {"end_mode": "rounds", "rounds": 1},
        ("random", "heuristic", "random"),
        range(13000, 13016),
    ),
    (
        "rami40",
        4,
        {"end_mode": "rounds", "rounds": 2},
        ("expert", "heuristic", "hard", "medium"),
        range(14000, 14016),
    ),
    ("rami51", 2, {"end_mode": "rounds", "rounds": 2}, ("easy", "heuristic"), range(15000, 15016)),
    (
        "rami51-house",
        5,
        {"end_mode": "rounds", "rounds": 2},
        ("heuristic",) * 5,
        range(16000, 16012),
    ),
    (
        "rami40-house",
        6,
        {"end_mode": "rounds", "rounds": 1},
        ("heuristic",) * 6,
        range(17000, 17012),
    ),
    (
        "rami",
        3,
        {
            "end_mode": "elimination",
            "limit": 150,
            "end_joker_shifts": True,
            "rami_sec_exempt_opening": True,
        },
        ("heuristic",) * 3,
        range(18000, 18008),
    ),
    (
        "rami",
        4,
        {"limit": 200},
        ("heuristic", "expert", "heuristic", "heuristic"),
        range(19000, 19008),
    ),
]


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1009 + seat * 7919 + 17


def play(
    variant: str, players: int, options: dict[str, Any], bots: tuple[str, ...], seed: int
) -> dict[str, Any]:
    from tests.corpus.engine_access import new_game, parse_action, rules_for, rules_json, seat_bots

    rules = rules_for(variant, options)
    first_dealer = seed % players
    game = new_game(variant, rules, players, seed, first_dealer)
    seated = seat_bots(variant, bots, rules, players, [bot_seed(seed, s) for s in range(players)])
    events: list[list[dict[str, Any]]] = []
    while not game.is_over:
        seat = game.current_player
        action = seated[seat].act(game.observation(seat), game.legal_actions())
        applied = game.apply(parse_action(variant, action.to_json()))
        # Serialised at once: an event is what happened then, whatever changes later.
        events.append(json.loads(json.dumps([event.to_json() for event in applied])))
    return {
        "variant": variant,
        "players": players,
        "options": options,
        "rules": rules_json(rules),
        "bots": list(bots),
        "seed": seed,
        "first_dealer": first_dealer,
        "record": game.to_record(),
        "events": events,
        "result": game.result.to_json(),
    }


VIEW_EVERY = 7
"""Server views are snapshot after every seventh action (and at the end)."""


def play_server(
    variant: str, players: int, options: dict[str, Any], bots: tuple[str, ...], seed: int
) -> dict[str, Any]:
    """The same kind of game through the server's table game: every seat's view, the
    spectator's, the summary and the legal actions, snapshot as the game goes."""
    from tests.corpus.engine_access import seat_bots, server_game

    game, rules = server_game(variant, options, players, seed)
    seated = seat_bots(variant, bots, rules, players, [bot_seed(seed, s) for s in range(players)])
    actions: list[list[Any]] = []
    snapshots: list[dict[str, Any]] = []
    while not game.is_over:
        seat = game.current_seat
        if len(actions) % VIEW_EVERY == 0:
            snapshots.append(json.loads(json.dumps(snapshot(game, players))))
        applied = game.apply(seat, game.bot_action(seat, seated[seat]))
        actions.append(
            json.loads(json.dumps([seat, applied.action, game.events_for(applied.events, seat)]))
        )
    snapshots.append(snapshot(game, players))
    snapshots[-1]["reveal"] = game.reveal()
    return {
        "variant": variant,
        "players": players,
        "options": options,
        "bots": list(bots),
        "seed": seed,
        "actions": actions,
        "snapshots": snapshots,
    }


def snapshot(game: Any, players: int) -> dict[str, Any]:
    return {
        "views": [game.view(seat) for seat in range(players)],
        "spectator": game.view(None),
        "summary": game.summary(),
        "legal": game.legal_actions(),
    }


SERVER_GAMES_PER_ENTRY = 2


def write(path: Path, entries: list[dict[str, Any]]) -> None:
    text = json.dumps(entries, separators=(",", ":"), sort_keys=True)
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def main() -> None:
    sys.path.insert(0, str(HERE.parent.parent))
    games = []
    for variant, players, options, bots, seeds in PLAN:
        for seed in seeds:
            games.append(json.loads(json.dumps(play(variant, players, options, bots, seed))))
            print(variant, players, bots, seed, len(games[-1]["events"]), "actions", flush=True)
    write(CORPUS, games)
    print(f"{len(games)} games written to {CORPUS}")
    tables = []
    for variant, players, options, bots, seeds in PLAN:
        for seed in list(seeds)[:SERVER_GAMES_PER_ENTRY]:
            tables.append(
                json.loads(json.dumps(play_server(variant, players, options, bots, seed)))
            )
    write(SERVER_CORPUS, tables)
    print(f"{len(tables)} server games written to {SERVER_CORPUS}")


if __name__ == "__main__":
    main()
