"""OpenSpiel's ISMCTS against a uniformly random player in gin, by search budget.

Needs the ``rl`` extra (OpenSpiel, numpy, matplotlib). For each budget (simulations per
decision) ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts, ``mcts.RandomRolloutEvaluator``) plays ``--hands`` seeded hands of
``python_rummykit_gin`` against a player choosing uniformly among the legal ids,
alternating seats; the worlds it searches come from
``RummyState.resample_from_infostate`` (``rummykit.rl.resample``). The plot of its
win rate against the budget goes to ``--out``::

    python examples/ismcts_vs_random.py --budgets 2,8,32,128 --hands 40 \\
        --out docs/images/ismcts_gin.png

A hand is won by the seat with positive points; a drawn hand (the stock ran out)
counts half in the win rate, and the plot also shows the shares of hands won and lost.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from rummykit.rl.openspiel import seeded_resampler

GAME = "python_rummykit_gin"


def ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    """ISMCTS with one random rollout per leaf, reproducible from ``seed``."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=random_state,
    )
    bot.set_resampler(seeded_resampler(random_state))
    return bot


def play_hand(game: Any, bot: Any, bot_seat: int, seed: int) -> float:
    """One hand: ``bot`` at ``bot_seat``, uniformly random legal ids at the other
    seat; the bot's points."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == bot_seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return float(state.returns()[bot_seat])


def evaluate(
    simulations: int, hands: int, seed: int = 0, game_name: str = GAME
) -> dict[str, float]:
    """ISMCTS over ``hands`` hands: win rate (draws half), hands won, lost and drawn,
    mean points."""
    game = pyspiel.load_game(game_name)
    bot = ismcts_bot(game, simulations, seed)
    points = [play_hand(game, bot, hand % 2, seed * 100_003 + hand) for hand in range(hands)]
    won = sum(1 for gained in points if gained > 0)
    lost = sum(1 for gained in points if gained < 0)
    return {
        "simulations": simulations,
        "hands": hands,
        "win_rate": (won + 0.5 * (hands - won - lost)) / hands,
        "won": won,
        "lost": lost,
        "drawn": hands - won - lost,
        "mean_points": float(np.mean(points)),
    }


def plot(rows: Sequence[dict[str, float]], out: Path) -> None:
    """Win rate against simulations per decision, with 95% binomial intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    budgets = [row["simulations"] for row in rows]
    rates = np.array([row["win_rate"] for row in rows])
    hands = np.array([row["hands"] for row in rows])
    error = 1.96 * np.sqrt(rates * (1 - rates) / hands)
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.errorbar(budgets, rates, yerr=error, marker="o", capsize=4, label="win rate (draw = 1/2)")
    won = [row["won"] / row["hands"] for row in rows]
    lost = [row["lost"] / row["hands"] for row in rows]
    axes.plot(budgets, won, marker="^", linestyle=":", label="hands won")
    axes.plot(budgets, lost, marker="v", linestyle=":", label="hands lost")
    axes.legend(loc="upper left", fontsize="small")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xscale("log", base=2)
    axes.set_xticks(budgets, [str(int(b)) for b in budgets])
    axes.set_ylim(0, 1)
    axes.set_xlabel("ISMCTS simulations per decision (random rollouts)")
    axes.set_ylabel("share of hands vs random legal play")
    axes.set_title(f"ISMCTS in python_rummykit_gin, {int(hands[0])} hands per budget")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=100)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--budgets", default="2,8,32,128", help="simulations (at least 2), comma-separated"
    )
    parser.add_argument("--hands", type=int, default=40, help="hands per budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="PNG to write (none: no plot)")
    args = parser.parse_args(argv)
    rows = []
    for simulations in (int(b) for b in args.budgets.split(",")):
        start = time.process_time()
        row = evaluate(simulations, args.hands, args.seed)
        rows.append(row)
        print(
            f"{simulations:>5} simulations: win rate {row['win_rate']:.2f} "
            f"(won {row['won']}, lost {row['lost']}, drawn {row['drawn']}), "
            f"mean points {row['mean_points']:+.1f} over {args.hands} hands "
            f"({time.process_time() - start:.0f} s CPU)",
            flush=True,
        )
    if args.out is not None:
        plot(rows, args.out)
        print(f"plot written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
