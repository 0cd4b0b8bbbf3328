"""OpenSpiel's own ISMCTS plays every game, and the worked example keeps running."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rummykit.rl.openspiel import seeded_resampler  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ismcts_vs_random.py"


def _bot(game: Any, simulations: int, seed: int) -> Any:
    random_state = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=random_state,
    )
    bot.set_resampler(seeded_resampler(random_state))
    return bot


def _play(game: Any, bots: dict[int, Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [card for card, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        elif state.current_player() in bots:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


@pytest.mark.parametrize(
    "name",
    [
        "python_rummykit_gin",
        "python_rummykit_rami(players=2)",
        "python_rummykit_carousel(players=2)",
        "python_rummykit_carousel(players=3)",
    ],
)
def test_ismcts_plays_against_a_random_player(name: str) -> None:
    game = pyspiel.load_game(name)
    for seat in range(2):
        returns = _play(game, {seat: _bot(game, 3, seat)}, seed=seat)
        assert len(returns) == game.num_players()


def test_ismcts_with_the_default_resampler_runs() -> None:
    """Without ``set_resampler`` the bot passes a fresh unseeded sampler each time."""
    game = pyspiel.load_game("python_rummykit_gin(seed=4)")
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1),
        uct_c=2.0,
        max_simulations=4,
    )
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()


def test_the_ismcts_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    namespace = runpy.run_path(str(EXAMPLE))
    row = namespace["evaluate"](2, 2, seed=1)
    assert row["hands"] == 2 and 0.0 <= row["win_rate"] <= 1.0
    out = tmp_path / "ismcts.png"
    assert namespace["main"](["--budgets", "2,3", "--hands", "1", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "3 simulations: win rate" in capsys.readouterr().out


@pytest.mark.slow
def test_ismcts_with_a_modest_budget_beats_the_random_player_in_gin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The figure of docs/rl.md on a small seeded sample (printed); the assertion only
    asks that ISMCTS wins at least as many hands as it loses."""
    namespace = runpy.run_path(str(EXAMPLE))
    row = namespace["evaluate"](32, 6, seed=0)
    with capsys.disabled():
        print(
            f"\nISMCTS (32 simulations) vs random, 6 gin hands: won {row['won']}, "
            f"lost {row['lost']}, drawn {row['drawn']}, mean points {row['mean_points']:+.1f}"
        )
    assert row["won"] >= row["lost"]
