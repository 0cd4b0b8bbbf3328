#!/usr/bin/env bash
# Install rummykit with its table server into .venv and start it: the lobby and the
# browser table on http://127.0.0.1:8000/ (an SQLite file, no other service needed).
# Arguments are passed on: `bash scripts/play.sh play gin` starts the terminal game.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[server]"
if [ "$#" -eq 0 ]; then
    set -- serve
fi
exec .venv/bin/rummykit "$@"
