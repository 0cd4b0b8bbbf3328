"""A tournament's results: standings with their intervals and Elo, head-to-head
counts, and the JSON and CSV files."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit.sim.stats import clustered_wilson_interval, elo_ratings
from rummykit.sim.tournament_jobs import GameRecord, fields_json

WIN_RATE_METHOD = (
    "mean win share per game; 95% Wilson score interval with the effective number of games "
    "(deals are the independent samples: cluster-robust variance by deal)"
)
ELO_METHOD = (
    "Bradley-Terry maximum likelihood on pairwise results (1 win, 0.5 equal shares), "
    "one drawn prior game per pair, mean 1500"
)


# -- results -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot's line of the results table."""

    name: str
    games: int
    wins: float
    """Sum of win shares."""
    win_rate: float
    ci_low: float
    ci_high: float
    """95% Wilson score interval of the win rate."""
    points: int
    mean_points: float
    elo: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return fields_json(self, name="bot")


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Pairwise results of ``bot`` against ``opponent`` (1 a win, 0.5 equal shares)."""

    bot: str
    opponent: str
    games: int
    score: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return fields_json(self)


CSV_COLUMNS = (
    "bot",
    "games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "points",
    "mean_points",
    "elo",
)


@dataclass(frozen=True)
class TournamentResult:
    """Every game's record and the table built from them.

    Two results compare equal when their games and table are equal; the backend, the
    number of workers and the time taken are kept but not compared.
    """

    variant: str
    preset: str | None
    rules: dict[str, Any]
    players: int
    seed: int
    games: int
    """Deals played (each once per rotation)."""
    lineup: tuple[str, ...]
    records: tuple[GameRecord, ...]
    standings: tuple[BotStanding, ...]
    head_to_head: tuple[HeadToHead, ...]
    points_label: str = "points"
    """``points``, or ``penalty`` where lower is better (Rami)."""
    backend: str = field(default="local", compare=False)
    workers: int = field(default=1, compare=False)
    elapsed: float = field(default=0.0, compare=False)

    @property
    def games_played(self) -> int:
        """Games in all (deals times rotations)."""
        return len(self.records)

    def standing(self, name: str) -> BotStanding:
        """The table line of bot ``name``."""
        for standing in self.standings:
            if standing.name == name:
                return standing
        raise KeyError(name)

    def table(self) -> str:
        """The results table as text (bots by Elo, best first)."""
        title = self.preset or self.variant
        rate = self.games_played / self.elapsed if self.elapsed > 0 else 0.0
        lines = [
            f"{title}: {self.games_played} games ({self.games} deals x {self.players} seat "
            f"rotations), {self.players} players, seed {self.seed}; {self.backend} backend, "
            f"{self.workers} worker{'s' if self.workers != 1 else ''}, {self.elapsed:.1f} s "
            f"({rate:.1f} games/s)",
            "",
        ]
        width = max(len("bot"), *(len(s.name) for s in self.standings))
        lines.append(
            f"{'bot':<{width}}  {'games':>6}  {'wins':>8}  {'win rate':>8}  "
            f"{'95% CI (by deal)':>16}  {self.points_label + '/game':>12}  {'Elo':>6}"
        )
        for s in self.standings:
            interval = f"[{s.ci_low:6.1%}, {s.ci_high:6.1%}]"
            lines.append(
                f"{s.name:<{width}}  {s.games:>6}  {s.wins:>8.1f}  {s.win_rate:>8.1%}  "
                f"{interval:>16}  {s.mean_points:>12.1f}  {s.elo:>6.0f}"
            )
        lines.append("")
        lines.append(
            "win rate: mean win share (a shared win splits 1); Elo: Bradley-Terry fit on "
            "pairwise results, mean 1500"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form: settings, methods, the table, head-to-head and every game."""
        return {
            "variant": self.variant,
            "preset": self.preset,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "deals": self.games,
            "rotations": self.players,
            "games": self.games_played,
            "lineup": list(self.lineup),
            "points": self.points_label,
            "backend": self.backend,
            "workers": self.workers,
            "elapsed_seconds": self.elapsed,
            "methods": {"win_rate": WIN_RATE_METHOD, "elo": ELO_METHOD},
            "standings": [s.to_json() for s in self.standings],
            "head_to_head": [h.to_json() for h in self.head_to_head],
            "records": [r.to_json() for r in self.records],
        }

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_json` to ``path``."""
        with Path(path).open("w", encoding="utf-8") as handle:
            json.dump(self.to_json(), handle, indent=2)
            handle.write("\n")

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the table (one row per bot, :data:`CSV_COLUMNS`) to ``path``."""
        with Path(path).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            for standing in self.standings:
                writer.writerow(standing.to_json())


def summarize(
    names: Sequence[str], records: Sequence[GameRecord]
) -> tuple[tuple[BotStanding, ...], tuple[HeadToHead, ...]]:
    """The table (best Elo first) and head-to-head lines of ``records``.

    ``names`` lists the bots (its order breaks ties in the table).
    """
    order = list(dict.fromkeys(names))
    position = {name: i for i, name in enumerate(order)}
    games = dict.fromkeys(order, 0)
    wins = dict.fromkeys(order, 0.0)
    points = dict.fromkeys(order, 0)
    pair_games: dict[tuple[str, str], int] = {}
    pair_scores: dict[tuple[str, str], float] = {}
    # Per bot and deal: summed win share and games (the rotations of a deal are dependent).
    by_deal: dict[str, dict[int, list[float]]] = {name: {} for name in order}
    for record in records:
        seats = record.seats
        for seat, name in enumerate(seats):
            games[name] += 1
            wins[name] += record.shares[seat]
            points[name] += record.points[seat]
            cluster = by_deal[name].setdefault(record.deal, [0.0, 0])
            cluster[0] += record.shares[seat]
            cluster[1] += 1
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b, share_a, share_b = seats[i], seats[j], record.shares[i], record.shares[j]
                if a == b:
                    continue
                if position[a] > position[b]:
                    a, b, share_a, share_b = b, a, share_b, share_a
                score = 1.0 if share_a > share_b else 0.5 if share_a == share_b else 0.0
                pair_games[(a, b)] = pair_games.get((a, b), 0) + 1
                pair_scores[(a, b)] = pair_scores.get((a, b), 0.0) + score
    ratings = elo_ratings(order, pair_scores, pair_games)
    standings = []
    for name in order:
        n = games[name]
        low, high = clustered_wilson_interval(
            [(share, int(count)) for share, count in by_deal[name].values()]
        )
        standings.append(
            BotStanding(
                name=name,
                games=n,
                wins=wins[name],
                win_rate=wins[name] / n if n else 0.0,
                ci_low=low,
                ci_high=high,
                points=points[name],
                mean_points=points[name] / n if n else 0.0,
                elo=ratings[name],
            )
        )
    standings.sort(key=lambda s: (-round(s.elo, 9), position[s.name]))
    head_to_head = []
    for (a, b), count in pair_games.items():
        score = pair_scores[(a, b)]
        head_to_head.append(HeadToHead(a, b, count, score))
        head_to_head.append(HeadToHead(b, a, count, count - score))
    head_to_head.sort(key=lambda h: (position[h.bot], position[h.opponent]))
    return tuple(standings), tuple(head_to_head)
