"""Tournaments: the job list (seat rotation, paired deals, derived seeds), determinism
across workers and backends, the statistics, the outputs, the command line and the
example bot of docs/bots.md.

Games are kept short with a low target (``target=50`` for gin): the heuristic bot
beats the random bot in two or three hands.
"""

from __future__ import annotations

import contextlib
import csv
import json
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.bots import RandomBot
from rummykit.cli import app
from rummykit.games.gin import GinAction, GinObservation, GinRules
from rummykit.sim.registry import (
    STRENGTH_ORDER,
    BotError,
    UnknownBotError,
    UnknownVariantError,
    available_bots,
    default_lineup,
    find_variant,
    get_variant,
    load_plugin,
    make_bot,
    register_bot,
    unregister_bot,
)
from rummykit.sim.stats import clustered_wilson_interval, elo_ratings, wilson_interval
from rummykit.sim.tournament import (
    GameRecord,
    TournamentError,
    TournamentTimeoutError,
    derive_seed,
    prepare_tournament,
    run_tournament,
    summarize,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "my_gin_bot.py"
SHORT = {"target": 50}
"""Gin matches to 50: a few hands each."""


def quick(**kwargs: Any) -> Any:
    """A short gin tournament, heuristic against random, no progress bar."""
    options: dict[str, Any] = {
        "games": 4,
        "seed": 9,
        "workers": 1,
        "rules": SHORT,
        "progress": False,
    }
    options.update(kwargs)
    bots = options.pop("bots", ["heuristic", "random"])
    return run_tournament(options.pop("variant", "gin"), bots, **options)


# -- test bots --------------------------------------------------------------------------------


class DrawsFromStockBot:
    """Always asks to draw from the stock, even when that is not legal."""

    name = "stubborn"

    def __init__(self, *, seed: int, rules: Any, players: int) -> None:
        pass

    def act(self, observation: GinObservation, legal_actions: Sequence[GinAction]) -> GinAction:
        return GinAction.draw_stock()


register_bot("gin", "test-stubborn", DrawsFromStockBot)


# -- the job list -----------------------------------------------------------------------------


def test_two_players_each_deal_is_played_again_with_the_seats_swapped() -> None:
    spec = prepare_tournament("gin", ["heuristic", "random"], games=3, seed=5)
    jobs = list(spec.jobs())
    assert spec.rotations == 2 and len(jobs) == spec.total_games == 6
    for deal in range(3):
        first, second = jobs[2 * deal], jobs[2 * deal + 1]
        assert (first.deal, first.rotation, second.deal, second.rotation) == (deal, 0, deal, 1)
        assert first.seed == second.seed == derive_seed(5, "deal", deal)
        assert first.seats == (0, 1) and second.seats == (1, 0)
        # The same dealer: seat 0 gets the same cards, so each bot plays both hands.
        assert second.first_dealer == first.first_dealer
    assert len({job.seed for job in jobs}) == 3


def test_each_deal_is_played_once_per_rotation_of_the_lineup() -> None:
    spec = prepare_tournament("carousel", ["heuristic", "random"], games=4, seed=2, players=3)
    assert [entry.name for entry in spec.lineup] == ["heuristic", "random", "heuristic"]
    jobs = list(spec.jobs())
    assert len(jobs) == 12
    for deal in range(4):
        rotations = [job for job in jobs if job.deal == deal]
        assert [job.rotation for job in rotations] == [0, 1, 2]
        assert len({job.seed for job in rotations}) == 1
        for job in rotations:
            # Seat s holds lineup position (s - rotation) mod 3.
            assert job.seats == tuple((seat - job.rotation) % 3 for seat in range(3))
        for position in range(3):
            seats = [job.seats.index(position) for job in rotations]
            assert sorted(seats) == [0, 1, 2]  # every position sits at every seat once
            # ... with the dealer fixed, so it plays every seat's cards once.
            assert len({job.first_dealer for job in rotations}) == 1
            offsets = {(job.seats.index(position) - job.first_dealer) % 3 for job in rotations}
            assert offsets == {0, 1, 2}


def test_bot_seeds_derive_from_seed_deal_rotation_and_seat() -> None:
    spec = prepare_tournament("gin", ["heuristic", "random"], games=2, seed=7)
    for job in spec.jobs():
        assert job.bot_seeds == tuple(
            derive_seed(7, "bot", job.deal, job.rotation, seat) for seat in range(2)
        )
    seeds = [seed for job in spec.jobs() for seed in job.bot_seeds]
    assert len(set(seeds)) == len(seeds)


@pytest.mark.parametrize(("variant", "players"), [("gin", 2), ("carousel", 3), ("rami40", 4)])
def test_paired_deals_give_each_bot_every_seats_first_hand(variant: str, players: int) -> None:
    spec = prepare_tournament(variant, ["random"], games=2, seed=3, players=players)
    driver = spec.driver
    for deal in range(2):
        hands_by_position: dict[int, set[tuple[int, ...]]] = {p: set() for p in range(players)}
        for rotation in range(players):
            job = spec.job(deal * players + rotation)
            game: Any = driver.new_game(
                spec.rules, players=players, seed=job.seed, first_dealer=job.first_dealer
            )
            current = getattr(game, "hand", None) or game.round
            for seat, position in enumerate(job.seats):
                cards = current.hands[seat]
                hand = cards if isinstance(cards, list) else current.hand_cards(seat)
                hands_by_position[position].add(tuple(sorted(int(c) for c in hand)))
        # Every lineup position plays each of the deal's hands once, so card luck
        # cancels: the same set of hands for every position, as many as there are seats.
        dealt = hands_by_position[0]
        assert len(dealt) == players
        assert all(hands == dealt for hands in hands_by_position.values())


# -- determinism ------------------------------------------------------------------------------


def test_results_do_not_depend_on_the_number_of_workers_or_chunks() -> None:
    one = quick(games=5)
    two = quick(games=5, workers=2, chunk_size=1)
    three = quick(games=5, workers=2, chunk_size=3)
    assert one == two == three
    assert [record.index for record in two.records] == list(range(10))
    assert (one.workers, two.workers) == (1, 2)
    assert quick(games=5, seed=10) != one


def test_unpicklable_bot_factory_fails_clearly_on_several_workers() -> None:
    register_bot("gin", "test-lambda", lambda *, seed, rules, players: RandomBot(seed))
    try:
        with pytest.raises(TournamentError, match="module-level"):
            quick(bots=["test-lambda", "random"], workers=2)
        assert quick(bots=["test-lambda", "random"], games=1).games_played == 2
    finally:
        unregister_bot("gin", "test-lambda")


def test_an_illegal_bot_action_names_the_bot_and_the_game() -> None:
    with pytest.raises(TournamentError, match=r"test-stubborn|stubborn.*draw_stock") as caught:
        quick(bots=["test-stubborn", "random"], games=1)
    assert "game 0 (deal 0, rotation 0" in str(caught.value)
    driver = get_variant("gin")
    bots = [DrawsFromStockBot(seed=0, rules=None, players=2), RandomBot(1)]
    with pytest.raises(BotError, match="not one of the legal actions") as error:
        driver.play(bots, rules=GinRules(), seed=1, first_dealer=1)
    assert error.value.seat == 0


def test_timeout() -> None:
    with pytest.raises(TournamentTimeoutError):
        quick(games=50, timeout=0)


# -- the ray backend --------------------------------------------------------------------------


@contextlib.contextmanager
def deadline(seconds: int, what: str) -> Iterator[None]:
    """Fail (rather than hang) when ``what`` takes longer than ``seconds``."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"{what} took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    """A light local Ray (2 CPUs, no dashboard), shut down after this module's tests."""
    ray = pytest.importorskip(
        "ray", reason="ray is not installed: pip install 'rummykit[ray]' to test the backend"
    )
    with deadline(120, "starting a local Ray"):
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_backend_gives_the_local_results(ray_session: Any) -> None:
    local = quick(games=6, workers=2)
    with deadline(120, "the Ray tournament"):
        remote = quick(games=6, backend="ray", workers=2, chunk_size=2, timeout=100)
    assert remote.backend == "ray" and ray_session.is_initialized()
    assert remote == local
    assert remote.records == local.records


# -- statistics -------------------------------------------------------------------------------


def test_clustered_interval_counts_identical_replays_once() -> None:
    # Independent games (one per deal) are plain Wilson.
    assert clustered_wilson_interval([(1.0, 1)] * 30 + [(0.0, 1)] * 70) == pytest.approx(
        wilson_interval(30, 100)
    )
    # Each deal replayed identically in both rotations: the same interval as the deals
    # alone, wider than Wilson over the 200 games.
    twice = clustered_wilson_interval([(2.0, 2)] * 30 + [(0.0, 2)] * 70)
    assert twice == pytest.approx(wilson_interval(30, 100))
    naive = wilson_interval(60, 200)
    assert twice[1] - twice[0] > 1.3 * (naive[1] - naive[0])
    # Rotations that cancel (each bot wins one side of most deals) narrow it.
    cancelling = clustered_wilson_interval([(1.0, 2)] * 90 + [(2.0, 2)] * 10)
    naive = wilson_interval(110, 200)
    assert cancelling[1] - cancelling[0] < naive[1] - naive[0]
    assert clustered_wilson_interval([]) == (0.0, 1.0)


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(50, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    # The roots of (81/263 - p)^2 * 263 = z^2 p (1 - p), solved independently.
    assert wilson_interval(81, 263) == pytest.approx((0.255289, 0.366210), abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_elo_fits_pairwise_odds_and_centres_on_1500() -> None:
    ratings = elo_ratings(["a", "b"], {("a", "b"): 75.0}, {("a", "b"): 100}, prior_games=0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * 0.47712125, abs=1e-3)  # 3:1
    assert sum(ratings.values()) / 2 == pytest.approx(1500)
    even = elo_ratings(["a", "b"], {("a", "b"): 5.0}, {("a", "b"): 10})
    assert even == pytest.approx({"a": 1500.0, "b": 1500.0})


def record(index: int, seats: tuple[str, ...], shares: tuple[float, ...]) -> GameRecord:
    return GameRecord(index, index, 0, 0, 0, seats, shares, (0,) * len(seats), 1, 1)


def test_a_bot_that_always_wins_gets_the_highest_rating() -> None:
    records = [record(i, ("a", "b", "c"), (1.0, 0.0, 0.0)) for i in range(20)]
    records += [record(20 + i, ("b", "c"), (1.0, 0.0)) for i in range(4)]
    records += [record(24 + i, ("c", "a", "b"), (0.0, 1.0, 0.0)) for i in range(4)]
    standings, head_to_head = summarize(["c", "b", "a"], records)
    assert [s.name for s in standings] == ["a", "b", "c"]
    assert standings[0].elo > standings[1].elo > standings[2].elo
    assert standings[0].win_rate == 1.0 and standings[0].games == 24
    assert standings[0].elo < 1500 + 2000  # large but finite (the prior)
    assert math_close(sum(s.elo for s in standings) / 3, 1500)
    by_pair = {(h.bot, h.opponent): h for h in head_to_head}
    assert by_pair[("a", "b")].games == 24 and by_pair[("a", "b")].score == 24.0
    assert by_pair[("b", "a")].score == 0.0
    assert by_pair[("b", "c")].games == 28 and by_pair[("b", "c")].score == 4 + 24 * 0.5


def math_close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def test_table_holds_games_wins_points_interval_and_elo() -> None:
    result = quick(games=6)
    heuristic, random_bot = result.standing("heuristic"), result.standing("random")
    assert heuristic.games == random_bot.games == 12
    assert heuristic.wins + random_bot.wins == 12
    assert heuristic.win_rate > 0.9 and heuristic.elo > random_bot.elo
    deals: dict[int, tuple[float, int]] = {}
    for record in result.records:
        share, count = deals.get(record.deal, (0.0, 0))
        deals[record.deal] = (share + record.shares[record.seats.index("heuristic")], count + 1)
    expected = clustered_wilson_interval(list(deals.values()))
    assert (heuristic.ci_low, heuristic.ci_high) == expected
    assert heuristic.points == sum(r.points[r.seats.index("heuristic")] for r in result.records)
    assert [s.name for s in result.standings] == ["heuristic", "random"]
    table = result.table()
    assert "heuristic" in table and "95% CI (by deal)" in table and "Elo" in table
    assert "12 games (6 deals x 2 seat rotations)" in table


def test_json_and_csv_outputs(tmp_path: Path) -> None:
    result = quick(games=3)
    result.write_json(tmp_path / "out.json")
    result.write_csv(tmp_path / "out.csv")
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["variant"] == "gin" and data["deals"] == 3 and data["games"] == 6
    assert data["rules"]["target"] == 50
    assert len(data["records"]) == 6 and data["records"][1]["seats"] == ["random", "heuristic"]
    assert [row["bot"] for row in data["standings"]] == ["heuristic", "random"]
    assert "Wilson" in data["methods"]["win_rate"] and "1500" in data["methods"]["elo"]
    rows = list(csv.DictReader((tmp_path / "out.csv").open()))
    assert [row["bot"] for row in rows] == ["heuristic", "random"]
    assert int(rows[0]["games"]) == 6
    assert float(rows[0]["win_rate"]) == pytest.approx(result.standings[0].win_rate)


# -- variants, registry, input checks ---------------------------------------------------------


def test_carousel_driver_with_random_bots() -> None:
    pytest.importorskip("rummykit.games.carousel.arrange", reason="no carousel meld solver")
    result = quick(variant="carousel", bots=["random"], players=3, games=1, rules={"target": 40})
    assert result.games_played == 3 and result.players == 3
    for game in result.records:
        assert sum(game.shares) == pytest.approx(1.0) and len(game.points) == 3
        assert max(game.points) >= 40


def test_carousel_driver_with_a_bot_that_never_melds() -> None:
    register_bot("carousel", "test-legal-only", legal_only_bot)
    try:
        result = quick(variant="carousel", bots=["test-legal-only"], players=2, games=1)
    finally:
        unregister_bot("carousel", "test-legal-only")
    assert [sum(game.shares) for game in result.records] == [1.0, 1.0]


def legal_only_bot(*, seed: int, rules: Any, players: int) -> RandomBot:
    """Random among the listed legal actions only: draws, ends turns and knocks."""
    return RandomBot(seed)


def test_rami_preset_tournament() -> None:
    try:
        find_variant("rami40")
    except UnknownVariantError as error:
        pytest.skip(str(error))
    result = quick(variant="rami40", games=1, rules=None)
    assert result.preset == "rami40" and result.variant == "rami"
    assert result.rules["opening_threshold"] == 40
    assert "penalty/game" in result.table()


def test_default_lineup_is_the_two_strongest_bots() -> None:
    names = available_bots("gin")
    expected = sorted(names, key=lambda n: STRENGTH_ORDER.index(n) if n in STRENGTH_ORDER else 99)[
        :2
    ]
    assert default_lineup("gin") == expected
    # The built-in gin levels (rummykit.games.gin.expert_bot) are the strongest two.
    assert default_lineup("gin") == ["expert", "hard"]


def test_bad_input_is_rejected_with_a_reason() -> None:
    with pytest.raises(UnknownVariantError, match=r"unknown variant 'poker'.*gin"):
        prepare_tournament("poker", ["random"])
    with pytest.raises(UnknownBotError, match=r"unknown gin bot 'nope'.*heuristic"):
        prepare_tournament("gin", ["nope"])
    with pytest.raises(ValueError, match="at least 1"):
        prepare_tournament("gin", ["random"], games=0)
    with pytest.raises(ValueError, match="gin is for 2 players, not 3"):
        prepare_tournament("gin", ["random"], players=3)
    with pytest.raises(ValueError, match="unknown gin option"):
        prepare_tournament("gin", ["random"], rules={"knock": 3})
    with pytest.raises(ValueError, match="knock_limit"):
        prepare_tournament("gin", ["random"], rules={"knock_limit": -1})
    with pytest.raises(ValueError, match="backend"):
        quick(backend="spark")
    with pytest.raises(ValueError, match="already registered"):
        register_bot("gin", "random", legal_only_bot)
    with pytest.raises(ValueError, match="bot name"):
        register_bot("gin", "a,b", legal_only_bot)
    with pytest.raises(UnknownVariantError):
        register_bot("poker", "x", legal_only_bot)


def test_rule_options_parse_by_type() -> None:
    gin = get_variant("gin")
    assert gin.parse_option("knock-limit=7") == ("knock_limit", 7)
    assert gin.parse_option("undercut_on_tie=no") == ("undercut_on_tie", False)
    assert gin.parse_option("redeal_after_draw=alternate") == (
        "redeal_after_draw",
        "alternate",
    )
    with pytest.raises(ValueError, match="NAME=VALUE"):
        gin.parse_option("colour=red")


def test_make_bot_builds_registered_bots() -> None:
    assert make_bot("gin", "heuristic", seed=1).name == "heuristic"
    assert make_bot("gin", "random", seed=1).name == "random"


# -- command line -----------------------------------------------------------------------------

runner = CliRunner()


def test_cli_prints_the_table_and_writes_json_and_csv(tmp_path: Path) -> None:
    out_json, out_csv = tmp_path / "t.json", tmp_path / "t.csv"
    args = ["tournament", "gin", "--bots", "heuristic,random", "--games", "3", "--seed", "4"]
    args += ["--workers", "1", "--no-progress", "-o", "target=50"]
    args += ["--json", str(out_json), "--csv", str(out_csv)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "6 games (3 deals x 2 seat rotations)" in result.output
    assert "heuristic" in result.output and "random" in result.output
    data = json.loads(out_json.read_text())
    assert data["seed"] == 4 and data["rules"]["target"] == 50
    assert next(csv.DictReader(out_csv.open()))["bot"] == "heuristic"
    same = quick(games=3, seed=4)
    assert [r["shares"] for r in data["records"]] == [list(r.shares) for r in same.records]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "poker"], "unknown variant 'poker'"),
        (["tournament", "gin", "--bots", "heuristic,nope"], "unknown gin bot 'nope'"),
        (["tournament", "gin", "--games", "0"], "at least 1"),
        (["tournament", "gin", "-o", "knock_limit=x"], "whole number"),
        (["tournament", "gin", "--backend", "spark"], "local or ray"),
        (["tournament", "gin", "--players", "4"], "gin is for 2 players"),
    ],
)
def test_cli_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())


def test_cli_reports_a_failing_bot() -> None:
    args = ["tournament", "gin", "--bots", "test-stubborn,random", "--games", "1"]
    result = runner.invoke(app, [*args, "--workers", "1", "--no-progress"])
    assert result.exit_code == 1
    assert "stubborn" in result.output and "deal 0" in result.output


# -- the example bot of docs/bots.md ------------------------------------------------------------


def test_example_bot_takes_part_in_a_tournament() -> None:
    load_plugin(str(EXAMPLE))
    result = quick(bots=["greedy", "random"], games=3, workers=2)
    assert result.standing("greedy").win_rate == 1.0
    assert result == quick(bots=["greedy", "random"], games=3)


def test_example_bot_from_the_command_line() -> None:
    args = ["tournament", "gin", "--load", str(EXAMPLE), "--bots", "greedy,heuristic"]
    args += ["--games", "2", "--workers", "1", "--no-progress", "-o", "target=50"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output
