"""A tournament's games as jobs: the spec every worker gets, one seeded game per job,
and what a game leaves behind (:class:`GameRecord`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, Literal

from rummykit.catalog import (
    DEFAULT_MAX_DECISIONS,
    BotEntry,
    Variant,
)
from rummykit.errors import RummykitError

Backend = Literal["local", "ray"]
BACKENDS: tuple[str, ...] = ("local", "ray")


class TournamentError(RummykitError, code="tournament_failed"):
    """A game of the tournament failed (a bot error, an engine error, a lost worker)."""


class TournamentTimeoutError(TournamentError, code="tournament_timeout"):
    """The tournament did not finish within its ``timeout``."""


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from the parts, stable across processes, machines and versions.

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    data = "\x1f".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") >> 1


# -- the job list --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GamePlace:
    """Which game of the job list: a deal in one seat rotation, and the seed and first
    dealer that make it. A job and its record both carry it, so a record stands alone."""

    index: int
    deal: int
    rotation: int
    seed: int
    """The game seed: the same for every rotation of a deal."""
    first_dealer: int


@dataclass(frozen=True, slots=True)
class Job(GamePlace):
    """One game of the tournament to play: its place and who sits where."""

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
class GameRecord(GamePlace):
    """The outcome of one game of the tournament, at its place in the job list."""

    seats: tuple[str, ...]
    """Bot name at each seat."""
    shares: tuple[float, ...]
    points: tuple[int, ...]
    hands: int
    decisions: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return fields_json(self)


def fields_json(record: Any, **renamed: str) -> dict[str, Any]:
    """A results dataclass as JSON: its fields in order, a tuple as a list; ``renamed``
    gives a field another key (``name="bot"``)."""
    return {
        renamed.get(item.name, item.name): (
            list(value) if isinstance(value := getattr(record, item.name), tuple) else value
        )
        for item in fields(record)
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
