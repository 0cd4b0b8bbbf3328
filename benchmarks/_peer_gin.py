"""Peer half of ``benchmarks/bench_gin.py``: times OpenSpiel's and RLCard's gin rummy.

This file is run by the *peer* interpreter (``benchmarks/.peers/bin/python``), never
by the project's own virtualenv, and imports nothing from rummykit. The bench writes a
JSON job on standard input and reads a JSON report on standard output; progress lines
go to standard error. Create the peer environment with::

    python3 -m venv benchmarks/.peers
    benchmarks/.peers/bin/pip install open_spiel rlcard numpy

Job (all hands are lists of card ids 0..51, ``suit * 13 + rank - 1`` with suits in
the order spades, clubs, diamonds, hearts and the ace low, which is OpenSpiel's own
card index)::

    {"play_seeds": [int, ...], "sets": {"NAME": {"hands10": [[id, ...]], "hands11": [...]}}}

Report::

    {"python": str, "platform": str, "versions": {...},
     "peers": {"openspiel": PEER, "rlcard": PEER}, "errors": {"rlcard": "..."}}

    PEER = {"card_names": [52 str],
            "play": {"count", "seconds", "actions", "went_out"},
            "sets": {"NAME": {"deadwood10": TIMED, "best_discard": TIMED,
                              "native11": [int] (OpenSpiel only)}}}
    TIMED = {"count": int, "seconds": float, "values": [int]}
"""

from __future__ import annotations

import contextlib
import json
import platform
import random
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

SUIT_LETTERS = "SCDH"
"""Suit of card id ``i`` is ``SUIT_LETTERS[i // 13]`` (rummykit's and OpenSpiel's order)."""
RANK_LETTERS = "A23456789TJQK"
WARMUP = 50


def progress(message: str) -> None:
    print(f"  [peers] {message}", file=sys.stderr, flush=True)


def timed(function: Callable[[Any], int], inputs: Sequence[Any]) -> dict[str, Any]:
    """Call ``function`` once per input after a short warm-up; values and wall time."""
    for item in inputs[:WARMUP]:
        function(item)
    start = time.perf_counter()
    values = [function(item) for item in inputs]
    seconds = time.perf_counter() - start
    return {"count": len(inputs), "seconds": seconds, "values": values}


class Peer:
    """One peer library: card conversion, a 10-card deadwood call, and random play."""

    name = ""

    def card_names(self) -> list[str]:
        raise NotImplementedError

    def convert(self, hand: Sequence[int]) -> list[Any]:
        """The library's own hand representation of card ids (built outside timing)."""
        raise NotImplementedError

    def deadwood10(self, hand: list[Any]) -> int:
        raise NotImplementedError

    def best_discard(self, hand: list[Any]) -> int:
        """Least deadwood over the 11 possible discards, each by the 10-card call."""
        deadwood10 = self.deadwood10
        return min(deadwood10(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    def play_hand(self, seed: int) -> tuple[int, bool]:
        """One random-vs-random hand: (decisions taken, hand ended by a knock or gin)."""
        raise NotImplementedError


class OpenSpielPeer(Peer):
    name = "openspiel"

    def __init__(self) -> None:
        import pyspiel
        from pyspiel import gin_rummy

        self.game = pyspiel.load_game("gin_rummy")
        # GinRummyUtils(num_ranks, num_suits, hand_size); the game's defaults.
        self.utils = gin_rummy.GinRummyUtils(13, 4, 10)
        self._min_deadwood = self.utils.min_deadwood

    def card_names(self) -> list[str]:
        return [str(self.utils.card_string(card)) for card in range(52)]

    def convert(self, hand: Sequence[int]) -> list[Any]:
        return list(hand)

    def deadwood10(self, hand: list[Any]) -> int:
        return int(self._min_deadwood(hand))

    def native11(self, hand: list[Any]) -> int:
        """OpenSpiel's own 11-card min_deadwood (best meld group, then drop one card)."""
        return int(self._min_deadwood(hand))

    def play_hand(self, seed: int) -> tuple[int, bool]:
        rng = random.Random(seed)
        state = self.game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        # A knock always scores for someone; a hand that hit the wall scores 0-0.
        return decisions, any(value != 0 for value in state.returns())


class RLCardPeer(Peer):
    name = "rlcard"

    def __init__(self) -> None:
        import rlcard
        from rlcard.games.base import Card
        from rlcard.games.gin_rummy.utils import melding, utils
        from rlcard.games.gin_rummy.utils.action_event import GinAction, KnockAction

        # RLCard's own card_id orders suits S, H, D, C: build cards by letters, not ids.
        self.deck = [
            Card(suit=SUIT_LETTERS[card // 13], rank=RANK_LETTERS[card % 13]) for card in range(52)
        ]
        self.best_meld_clusters = melding.get_best_meld_clusters
        self.deadwood_count = utils.get_deadwood_count
        self.going_out = (GinAction, KnockAction)
        self.env = rlcard.make("gin-rummy", config={"seed": 0})

    def card_names(self) -> list[str]:
        return [str(card) for card in self.deck]

    def convert(self, hand: Sequence[int]) -> list[Any]:
        return [self.deck[card] for card in hand]

    def deadwood10(self, hand: list[Any]) -> int:
        clusters = self.best_meld_clusters(hand=hand)
        return int(self.deadwood_count(hand=hand, meld_cluster=clusters[0] if clusters else []))

    def play_hand(self, seed: int) -> tuple[int, bool]:
        rng = random.Random(seed)
        env = self.env
        env.seed(seed)
        state, _ = env.reset()
        decisions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
        return decisions, isinstance(env.game.round.going_out_action, self.going_out)


def measure(peer: Peer, job: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"card_names": peer.card_names(), "sets": {}}
    for set_name, hand_set in job["sets"].items():
        hands10 = [peer.convert(hand) for hand in hand_set["hands10"]]
        hands11 = [peer.convert(hand) for hand in hand_set["hands11"]]
        progress(f"{peer.name}: 10-card deadwood, {len(hands10)} {set_name} hands")
        entry: dict[str, Any] = {"deadwood10": timed(peer.deadwood10, hands10)}
        progress(f"{peer.name}: best discard (11 calls each), {len(hands11)} {set_name} hands")
        entry["best_discard"] = timed(peer.best_discard, hands11)
        if isinstance(peer, OpenSpielPeer):
            entry["native11"] = [peer.native11(hand) for hand in hands11]
        result["sets"][set_name] = entry
    seeds: list[int] = job["play_seeds"]
    progress(f"{peer.name}: {len(seeds)} random-vs-random hands")
    if seeds:
        peer.play_hand(seeds[0])  # warm-up
    decisions = 0
    went_out = 0
    start = time.perf_counter()
    for seed in seeds:
        taken, out = peer.play_hand(seed)
        decisions += taken
        went_out += out
    seconds = time.perf_counter() - start
    result["play"] = {
        "count": len(seeds),
        "seconds": seconds,
        "actions": decisions,
        "went_out": went_out,
    }
    return result


def versions() -> dict[str, str]:
    found: dict[str, str] = {}
    for package in ("open_spiel", "rlcard", "numpy"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "missing"
    return found


def main() -> int:
    job = json.load(sys.stdin)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions(),
        "peers": {},
        "errors": {},
    }
    factories: list[tuple[str, Callable[[], Peer]]] = [
        ("openspiel", OpenSpielPeer),
        ("rlcard", RLCardPeer),
    ]
    out = sys.stdout
    # Anything a library prints must not corrupt the JSON report on stdout.
    with contextlib.redirect_stdout(sys.stderr):
        for name, factory in factories:
            try:
                report["peers"][name] = measure(factory(), job)
            except Exception:
                report["errors"][name] = traceback.format_exc(limit=3)
                progress(f"{name} failed: {traceback.format_exc(limit=1).strip()}")
    json.dump(report, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
