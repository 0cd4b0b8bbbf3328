"""The RL tests need the optional ``[rl]`` extra (``pip install -e ".[dev,rl]"``)."""

import pytest

pytest.importorskip("numpy", reason="the rl tests need the 'rl' extra")
pytest.importorskip("gymnasium", reason="the rl tests need the 'rl' extra")
pytest.importorskip("pettingzoo", reason="the rl tests need the 'rl' extra")
