"""Whole Carousel games (to 150) of one level against two heuristic bots, one game a deal.

With deterministic bots the tournament's seat rotations replay the same game from the
level's point of view (two identical opponents, the dealer rotated with the seats), so
its games are not independent. This script plays each deal once, the level in seat
``deal % 3``, and reports the win share with a 95% Wilson interval over independent
games. Run from the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/carousel_games.py expert --games 100 --seed 3000
"""

from __future__ import annotations

import argparse

from rummykit.games.carousel import CarouselGame, CarouselRules
from rummykit.sim.registry import make_bot
from rummykit.sim.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3000)
    args = parser.parse_args()
    rules = CarouselRules()
    wins = 0.0
    for deal in range(args.seed, args.seed + args.games):
        seat = deal % 3
        names = ["heuristic"] * 3
        names[seat] = args.level
        bots = [
            make_bot("carousel", n, seed=deal * 3 + s, rules=rules, players=3)
            for s, n in enumerate(names)
        ]
        game = CarouselGame(rules, players=3, seed=deal)
        while not game.is_over:
            acting = game.current_player
            game.apply(bots[acting].act(game.observation(acting), game.legal_actions()))
        assert game.result is not None
        if seat in game.result.winners:
            wins += 1 / len(game.result.winners)
    low, high = wilson_interval(wins, args.games)
    print(
        f"{args.level}: {wins:g}/{args.games} games won ({wins / args.games:.1%}), "
        f"95% Wilson [{low:.1%}, {high:.1%}], seeds {args.seed}-{args.seed + args.games - 1}"
    )


if __name__ == "__main__":
    main()
