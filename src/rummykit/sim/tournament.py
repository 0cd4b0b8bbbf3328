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

import time
from collections.abc import Sequence
from typing import Any

from rummykit.catalog import (
    DEFAULT_MAX_DECISIONS,
    find_variant,
    get_bot,
)
from rummykit.catalog import default_lineup as _default_lineup
from rummykit.errors import InvalidOptionError
from rummykit.sim.tournament_backends import (
    _cpu_count,
    _progress_bar,
    _run_local,
    _run_ray,
)
from rummykit.sim.tournament_jobs import (
    BACKENDS,
    Backend,
    GameRecord,
    Job,
    TournamentError,
    TournamentSpec,
    TournamentTimeoutError,
    derive_seed,
    run_jobs,
)
from rummykit.sim.tournament_results import (
    BotStanding,
    HeadToHead,
    TournamentResult,
    summarize,
)

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

# -- running -------------------------------------------------------------------------------------


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
