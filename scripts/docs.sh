#!/usr/bin/env bash
# Build the documentation site (mkdocs, Material, mkdocstrings) and serve it locally on
# http://127.0.0.1:8001/, rebuilding as pages and docstrings change.
#   bash scripts/docs.sh               serve
#   bash scripts/docs.sh --build-only  build into site/ (strict: a broken link fails) and stop
#   bash scripts/docs.sh build         the same
# Further arguments go to mkdocs (bash scripts/docs.sh --dev-addr 0.0.0.0:8001).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[docs]"
export NO_MKDOCS_2_WARNING=1
case "${1:-}" in
    --build-only | build)
        shift
        exec .venv/bin/mkdocs build --strict "$@"
        ;;
    *)
        exec .venv/bin/mkdocs serve --dev-addr 127.0.0.1:8001 "$@"
        ;;
esac
