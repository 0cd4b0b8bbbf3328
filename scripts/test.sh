#!/usr/bin/env bash
# Install everything the test suite needs into .venv, then run lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev,rl]"
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
status=0
.venv/bin/python -m pytest "$@" || status=$?
# pytest exits 5 when it collects no test; an empty run is a failure here too.
if [ "$status" -eq 5 ]; then
    echo "no tests were collected" >&2
    exit 1
fi
exit "$status"
