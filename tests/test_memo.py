"""The bounded memo behind the per-meld caches."""

from __future__ import annotations

import pytest

from rummykit.errors import InvalidOptionError
from rummykit.memo import Memo


def test_computes_each_key_once_while_kept() -> None:
    calls: list[int] = []

    def double(n: int) -> int:
        calls.append(n)
        return 2 * n

    memo = Memo(double, limit=10)
    assert [memo[1], memo[2], memo[1], memo[2]] == [2, 4, 2, 4]
    assert calls == [1, 2]
    assert 1 in memo and 3 not in memo  # ``in`` does not compute


def test_forgets_everything_when_full() -> None:
    calls: list[str] = []
    memo = Memo(lambda key: calls.append(key) or key.upper(), limit=2)
    memo["a"], memo["b"]
    assert memo["c"] == "C"
    assert dict(memo) == {"c": "C"}  # never more than the limit
    memo["a"]
    assert calls == ["a", "b", "c", "a"]


def test_a_failed_computation_keeps_nothing() -> None:
    def refuse(key: int) -> int:
        raise KeyError(key)

    memo: Memo[int, int] = Memo(refuse)
    with pytest.raises(KeyError):
        memo[5]
    assert len(memo) == 0


@pytest.mark.parametrize("limit", [0, -3])
def test_refuses_a_limit_below_one(limit: int) -> None:
    with pytest.raises(InvalidOptionError, match="at least one entry"):
        Memo(str, limit=limit)
