"""Tournaments between bots: paired deals, seat rotation, local processes or a Ray cluster.

**The job list.** ``games`` is the number of *deals*. Each deal is played once per
rotation of the lineup over the seats, ``players`` times in all (for two players: the
deal again with the seats swapped), so luck of the cards cancels between the bots.
Game ``index = deal * players + rotation`` has

* seat ``s`` held by ``lineup[(s - rotation) % players]``,
* the game seed ``derive_seed(seed, "deal", deal)`` (the same cards for every rotation),
* first dealer ``derive_seed(seed, "dealer", deal) % players``, the same seat in every
  rotation, so the seats receive the same cards each time and every bot plays every
  seat's cards once (from the same place relative to the dealer as the bot it replaces),
* the bot at seat ``s`` seeded with ``derive_seed(seed, "bot", deal, rotation, s)``.

Results depend only on the arguments, never on the number of workers or the backend:
the job list is fixed, and records are gathered by job index.

**Backends.** ``local`` runs chunks of jobs in a process pool over the cores
(``workers=1`` plays in this process); ``ray`` sends the same chunks as Ray tasks to a
cluster (``address``) or to a local Ray it starts (``pip install 'rummykit[ray]'``).
Workers are fresh processes (a fork server, or ``spawn``), so a bot factory travels by
pickle: register module-level functions or classes.

**Statistics** (see :mod:`rummykit.sim.stats`): per bot the games, wins (win shares),
points, the win rate with its 95% Wilson interval (deals as the independent samples),
and Elo ratings fitted to the
pairwise results (mean 1500).

>>> result = run_tournament("gin", ["heuristic", "random"], games=2, seed=1, workers=1,
...                         progress=False, rules={"target": 25})
>>> len(result.records), [record.seats for record in result.records[:2]]
(4, [('heuristic', 'random'), ('random', 'heuristic')])
>>> result.standing("heuristic").games
4
"""

from __future__ import annotations

import csv
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from rummykit.catalog import (
    DEFAULT_MAX_DECISIONS,
    BotEntry,
    Variant,
    find_variant,
    get_bot,
    missing_modules,
)
from rummykit.catalog import default_lineup as _default_lineup
from rummykit.errors import InvalidOptionError, RummykitError
from rummykit.sim.registry import loaded_plugin_files, reload_plugin_files
from rummykit.sim.stats import clustered_wilson_interval, elo_ratings

__all__ = [
    "BACKENDS",
    "BotStanding",
    "GameRecord",
    "HeadToHead",
    "Job",
    "TournamentError",
    "TournamentResult",
    "TournamentSpec",
    "TournamentTimeoutError",
    "derive_seed",
    "prepare_tournament",
    "run_jobs",
    "run_tournament",
    "summarize",
]

Backend = Literal["local", "ray"]
BACKENDS: tuple[str, ...] = ("local", "ray")
WIN_RATE_METHOD = (
    "mean win share per game; 95% Wilson score interval with the effective number of games "
    "(deals are the independent samples: cluster-robust variance by deal)"
)
ELO_METHOD = (
    "Bradley-Terry maximum likelihood on pairwise results (1 win, 0.5 equal shares), "
    "one drawn prior game per pair, mean 1500"
)


class TournamentError(RummykitError):
    """A game of the tournament failed (a bot error, an engine error, a lost worker)."""

    default_code = "tournament_failed"


class TournamentTimeoutError(TournamentError):
    """The tournament did not finish within its ``timeout``."""

    default_code = "tournament_timeout"


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from the parts, stable across processes, machines and versions.

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    data = "\x1f".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") >> 1


# -- the job list --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Job:
    """One game of the tournament: a deal in one seat rotation."""

    index: int
    deal: int
    rotation: int
    seed: int
    """The game seed: the same for every rotation of a deal."""
    first_dealer: int
    seats: tuple[int, ...]
    """Lineup position of the bot at each seat."""
    bot_seeds: tuple[int, ...]
    """The RNG seed of the bot at each seat."""


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Everything that determines a tournament's results (sent to the workers)."""

    driver: Variant
    rules: Any
    players: int
    seed: int
    games: int
    """Deals; each is played once per rotation."""
    lineup: tuple[BotEntry, ...]
    """The bot of each lineup position (one per seat)."""
    preset: str | None = None
    max_decisions: int = DEFAULT_MAX_DECISIONS

    @property
    def rotations(self) -> int:
        """Seat rotations per deal (the number of players)."""
        return self.players

    @property
    def total_games(self) -> int:
        """Games played in all: deals times rotations."""
        return self.games * self.rotations

    def job(self, index: int) -> Job:
        """The ``index``-th game of the job list."""
        if not 0 <= index < self.total_games:
            raise IndexError(f"job {index} is outside 0-{self.total_games - 1}")
        players = self.players
        deal, rotation = divmod(index, self.rotations)
        base_dealer = derive_seed(self.seed, "dealer", deal) % players
        return Job(
            index=index,
            deal=deal,
            rotation=rotation,
            seed=derive_seed(self.seed, "deal", deal),
            first_dealer=base_dealer,
            seats=tuple((seat - rotation) % players for seat in range(players)),
            bot_seeds=tuple(
                derive_seed(self.seed, "bot", deal, rotation, seat) for seat in range(players)
            ),
        )

    def jobs(self) -> Iterator[Job]:
        """The whole job list, in index order."""
        return (self.job(index) for index in range(self.total_games))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one game of the tournament."""

    index: int
    deal: int
    rotation: int
    seed: int
    first_dealer: int
    seats: tuple[str, ...]
    """Bot name at each seat."""
    shares: tuple[float, ...]
    points: tuple[int, ...]
    hands: int
    decisions: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "index": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "seats": list(self.seats),
            "shares": list(self.shares),
            "points": list(self.points),
            "hands": self.hands,
            "decisions": self.decisions,
        }


def play_job(spec: TournamentSpec, index: int) -> GameRecord:
    """Play game ``index`` of the tournament."""
    job = spec.job(index)
    entries = [spec.lineup[position] for position in job.seats]
    bots = [
        entry.create(seed=bot_seed, rules=spec.rules, players=spec.players)
        for entry, bot_seed in zip(entries, job.bot_seeds, strict=True)
    ]
    outcome = spec.driver.play(
        bots,
        rules=spec.rules,
        seed=job.seed,
        first_dealer=job.first_dealer,
        max_decisions=spec.max_decisions,
    )
    return GameRecord(
        index=index,
        deal=job.deal,
        rotation=job.rotation,
        seed=job.seed,
        first_dealer=job.first_dealer,
        seats=tuple(entry.name for entry in entries),
        shares=outcome.shares,
        points=outcome.points,
        hands=outcome.hands,
        decisions=outcome.decisions,
    )


def run_jobs(spec: TournamentSpec, start: int, stop: int) -> list[GameRecord]:
    """Play games ``start`` to ``stop - 1`` (a worker's chunk).

    Any failure comes back as a :class:`TournamentError` naming the game, its deal,
    rotation and seed, so it crosses process boundaries intact.
    """
    records = []
    for index in range(start, stop):
        try:
            records.append(play_job(spec, index))
        except Exception as error:
            job = spec.job(index)
            lineup = ", ".join(spec.lineup[p].name for p in job.seats)
            raise TournamentError(
                f"{spec.driver.name} game {index} (deal {job.deal}, rotation {job.rotation}, "
                f"game seed {job.seed}, seats {lineup}) failed: "
                f"{type(error).__name__}: {error}"
            ) from None
    return records


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
        return {
            "bot": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "points": self.points,
            "mean_points": self.mean_points,
            "elo": self.elo,
        }


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Pairwise results of ``bot`` against ``opponent`` (1 a win, 0.5 equal shares)."""

    bot: str
    opponent: str
    games: int
    score: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "games": self.games,
            "score": self.score,
        }


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


# -- running -------------------------------------------------------------------------------------


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def prepare_tournament(
    variant: str,
    bots: Sequence[str] | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    players: int | None = None,
    rules: Any = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> TournamentSpec:
    """Check the arguments of :func:`run_tournament` and build the job list's spec.

    Raises:
        UnknownVariantError, UnknownBotError: unknown names (both ``ValueError``).
        InvalidOptionError: games below 1, an impossible number of players, bad rule
            options.
    """
    driver, preset = find_variant(variant)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptionError(
            f"games must be a whole number of at least 1, not {games!r}", option="games"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"seed must be a whole number, not {seed!r}", option="seed")
    if isinstance(bots, str):
        bots = [name for name in bots.split(",") if name.strip()]
    names = [name.strip() for name in (bots if bots is not None else _default_lineup(driver.name))]
    if not names:
        raise InvalidOptionError(f"no bots to play {driver.name}: name at least one", option="bots")
    entries = [get_bot(driver.name, name) for name in names]
    if players is None:
        players = max(len(entries), driver.min_players)
    driver.check_players(players)
    if len(entries) > players:
        raise InvalidOptionError(
            f"{len(entries)} bots do not fit at a {players}-player {driver.name} table; "
            f"give at most {players} bots (or more players)"
        )
    # Fewer bots than seats: the lineup repeats (a, b -> a, b, a for three players).
    lineup = tuple(entries[i % len(entries)] for i in range(players))
    made_rules = driver.make_rules(rules, preset=preset)
    return TournamentSpec(
        driver=driver,
        rules=made_rules,
        players=players,
        seed=seed,
        games=games,
        lineup=lineup,
        preset=preset,
        max_decisions=max_decisions,
    )


class _Bar(Protocol):
    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool, label: str) -> _Bar:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    bar: _Bar = tqdm(
        total=total,
        unit="game",
        desc=label,
        file=sys.stderr,
        dynamic_ncols=True,
        smoothing=0.05,
    )
    return bar


def _chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def _chunk_size(total: int, workers: int, chunk_size: int | None) -> int:
    if chunk_size is not None:
        if chunk_size < 1:
            raise InvalidOptionError(
                f"chunk_size must be at least 1, not {chunk_size}", option="chunk_size"
            )
        return chunk_size
    # About eight chunks per worker balances the load and keeps the bar moving.
    return max(1, min(64, math.ceil(total / (workers * 8))))


def run_tournament(
    variant: str,
    bots: Sequence[str] | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend = "local",
    address: str | None = None,
    players: int | None = None,
    rules: Any = None,
    progress: bool = True,
    chunk_size: int | None = None,
    timeout: float | None = None,
) -> TournamentResult:
    """Play a tournament and return the table and every game's record.

    Args:
        variant: ``gin``, ``carousel``, ``rami``, or a preset name such as ``rami40``.
        bots: registered bot names, one per lineup position; by default the two
            strongest registered bots (``expert`` then ``heuristic`` once both exist).
            Fewer bots than ``players`` repeat in order.
        games: deals; each is played once per seat rotation (``players`` times).
        seed: the only source of randomness: the same seed gives the same results on
            any number of workers and on either backend.
        workers: processes (``local``; 1 plays in this process) or, when starting a
            local Ray, its CPUs; default: every core (on a Ray cluster, its CPUs).
        backend: ``local`` or ``ray``.
        address: the Ray cluster to join (``auto``, ``ray://host:10001``); default:
            an initialized Ray, else a new local one.
        players: seats at the table; default the number of bots (at least the
            variant's minimum).
        rules: a rules object, a mapping of options, or ``None`` (reference rules).
        progress: show a progress bar with an ETA on standard error.
        chunk_size: games per task (scheduling only; results do not depend on it).
        timeout: seconds before giving up with :class:`TournamentTimeoutError`.
    """
    spec = prepare_tournament(variant, bots, games=games, seed=seed, players=players, rules=rules)
    if backend not in BACKENDS:
        raise InvalidOptionError(
            f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}", option="backend"
        )
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise InvalidOptionError(f"workers must be at least 1, not {workers!r}", option="workers")
    if address is not None and backend != "ray":
        raise InvalidOptionError("address is for the ray backend", option="address")
    label = f"{spec.preset or spec.driver.name} tournament"
    bar = _progress_bar(spec.total_games, progress, label)
    start = time.perf_counter()
    try:
        if backend == "ray":
            records, used = _run_ray(spec, workers, address, bar, chunk_size, timeout)
        else:
            used = workers or _cpu_count()
            records = _run_local(spec, used, bar, chunk_size, timeout)
    finally:
        bar.close()
    elapsed = time.perf_counter() - start
    names = [entry.name for entry in spec.lineup]
    standings, head_to_head = summarize(names, records)
    return TournamentResult(
        variant=spec.driver.name,
        preset=spec.preset,
        rules=spec.driver.rules_to_dict(spec.rules),
        players=spec.players,
        seed=spec.seed,
        games=spec.games,
        lineup=tuple(names),
        records=tuple(records),
        standings=standings,
        head_to_head=head_to_head,
        points_label=spec.driver.points_label,
        backend=backend,
        workers=used,
        elapsed=elapsed,
    )


def _gather(total: int) -> list[GameRecord | None]:
    return [None] * total


def _complete(slots: list[GameRecord | None]) -> list[GameRecord]:
    records = [record for record in slots if record is not None]
    if len(records) != len(slots):  # pragma: no cover - a backend lost a chunk
        raise TournamentError(f"{len(slots) - len(records)} games have no result")
    return records


def _check_picklable(spec: TournamentSpec) -> None:
    try:
        pickle.dumps(spec)
    except Exception as error:
        raise TournamentError(
            "the bots cannot be sent to worker processes "
            f"({type(error).__name__}: {error}); register a module-level function or "
            "class (not a lambda or a nested function), or play with workers=1"
        ) from None


def _process_context(spec: TournamentSpec) -> multiprocessing.context.BaseContext:
    """A fork server where there is one, else fresh (``spawn``) processes.

    Workers fork from a server that has already imported rummykit, the variant's
    engine and the bots' modules, so a pool starts quickly and no thread of this
    process is copied. (The server starts with the first pool and serves later ones.)
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    wanted = ["rummykit.sim.tournament", *spec.driver.modules]
    wanted += [m for entry in spec.lineup if (m := entry.module) is not None]
    files = loaded_plugin_files()
    modules = [m for m in dict.fromkeys(wanted) if m not in files and not missing_modules([m])]
    context.set_forkserver_preload(modules)
    return context


def _run_local(
    spec: TournamentSpec,
    workers: int,
    bar: _Bar,
    chunk_size: int | None,
    timeout: float | None,
) -> list[GameRecord]:
    total = spec.total_games
    deadline = None if timeout is None else time.monotonic() + timeout
    slots = _gather(total)
    if workers == 1:
        for start, stop in _chunks(total, chunk_size or 1):
            if deadline is not None and time.monotonic() > deadline:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            slots[start:stop] = run_jobs(spec, start, stop)
            bar.update(stop - start)
        return _complete(slots)
    _check_picklable(spec)
    chunks = _chunks(total, _chunk_size(total, workers, chunk_size))
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(chunks)),
        mp_context=_process_context(spec),
        initializer=reload_plugin_files,
        initargs=(loaded_plugin_files(),),
    )
    finished = False
    try:
        pending: dict[Future[list[GameRecord]], tuple[int, int]] = {
            pool.submit(run_jobs, spec, start, stop): (start, stop) for start, stop in chunks
        }
        while pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            if not done:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            for future in done:
                start, stop = pending.pop(future)
                slots[start:stop] = future.result()
                bar.update(stop - start)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            # Stop at once: cancel what has not started and end the worker processes.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
    return _complete(slots)


def _run_ray(
    spec: TournamentSpec,
    workers: int | None,
    address: str | None,
    bar: _Bar,
    chunk_size: int | None,
    timeout: float | None,
) -> tuple[list[GameRecord], int]:
    try:
        # Typed as Any: Ray's own annotations are partial and optional here.
        ray: Any = importlib.import_module("ray")
    except ImportError as error:
        raise TournamentError("the ray backend needs Ray: pip install 'rummykit[ray]'") from error
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"address": address, "log_to_driver": False}
        if address is None:
            options.update(num_cpus=workers or _cpu_count(), include_dashboard=False)
        ray.init(**options)
        started = True
    pending: dict[Any, tuple[int, int]] = {}
    try:
        for name in loaded_plugin_files():
            # Plugin files are not importable on the cluster: send them by value.
            ray.cloudpickle.register_pickle_by_value(sys.modules[name])
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        used = workers or cpus
        total = spec.total_games
        deadline = None if timeout is None else time.monotonic() + timeout
        task = ray.remote(num_cpus=1, max_retries=0)(run_jobs)
        spec_ref = ray.put(spec)
        slots = _gather(total)
        for start, stop in _chunks(total, _chunk_size(total, used, chunk_size)):
            pending[task.remote(spec_ref, start, stop)] = (start, stop)
        while pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = ray.wait(list(pending), num_returns=1, timeout=remaining)
            if not done:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            for ref in done:
                start, stop = pending.pop(ref)
                try:
                    slots[start:stop] = ray.get(ref)
                except Exception as error:
                    cause = getattr(error, "cause", None)
                    raise TournamentError(str(cause if cause is not None else error)) from None
                bar.update(stop - start)
        return _complete(slots), used
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
