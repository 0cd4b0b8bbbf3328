"""The example of docs/rl.md runs (in well under a second a hand)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_random_vs_heuristic.py"


def test_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    namespace = runpy.run_path(str(EXAMPLE))
    stats = namespace["evaluate"](20, seed=1)
    assert stats["hands"] == 20 and 0.0 <= stats["win_rate"] <= 1.0
    assert stats["mean_points"] < 0  # the random policy loses to the heuristic bot
    assert namespace["main"](["--hands", "5"]) == 0
    assert "random masked policy vs heuristic over 5 hands" in capsys.readouterr().out
