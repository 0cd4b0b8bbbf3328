#!/usr/bin/env bash
# Install everything the test suite needs into .venv, then run lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev,rl,ray,server,server-test,docs]"
# The compiled rank DP is optional for users (pure Python otherwise) but must build here,
# so that the suite tests it.
.venv/bin/python -c "import rummykit.games.carousel._rank_dp" || {
    echo "the C extension rummykit.games.carousel._rank_dp did not build (is gcc installed?)" >&2
    exit 1
}
# The browser tests drive Debian's Chromium through Playwright (no browser download).
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
    else
        echo "note: /usr/bin/chromium is missing and this is not root: browser tests will skip" >&2
    fi
fi
# The server's persistence tests run on PostgreSQL too (local server, trust auth); each
# test works in a schema of its own, dropped afterwards.
# This machine kind runs PostgreSQL before the session; start it if it has stopped.
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
        for version in /etc/postgresql/*; do
            pg_ctlcluster --skip-systemctl-redirect "$(basename "$version")" main start || true
        done
    fi
fi
export RUMMYKIT_TEST_DATABASE_URL="${RUMMYKIT_TEST_DATABASE_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test}"
# The cluster tests (tests/server/test_cluster_*.py) link their nodes through Redis.
export RUMMYKIT_TEST_REDIS_URL="${RUMMYKIT_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}"
.venv/bin/ruff check src tests benchmarks examples scripts
.venv/bin/mypy
# The documentation site, built strictly into a temporary folder: a broken link, anchor,
# include or API reference fails the run. (Its examples run in tests/test_docs.py.)
site_dir="$(mktemp -d)"
trap 'rm -rf "$site_dir"' EXIT
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site_dir"
status=0
.venv/bin/python -m pytest "$@" || status=$?
# pytest exits 5 when it collects no test; an empty run is a failure here too.
if [ "$status" -eq 5 ]; then
    echo "no tests were collected" >&2
    exit 1
fi
if [ "$status" -eq 0 ]; then
    bash scripts/check_wheel.sh .venv/bin/python
fi
exit "$status"
