#!/usr/bin/env bash
# Install rummykit into .venv and start a game (default: Gin against the heuristic bot).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
if [ "$#" -eq 0 ]; then
    set -- play gin
fi
exec .venv/bin/rummykit "$@"
