#!/usr/bin/env bash
# An installed rummykit must carry its rules: build the wheel (from the sdist, as pip
# does from a source release, so no stale build/ folder of the checkout can leak in),
# check that it holds the rules pages and their JSON indexes, the browser table's
# message catalogs and its Devanagari font, and that nothing in it
# points outside the project, then install it into a scratch venv the way a user does
# (core dependencies only) and read a rule through the command line.
# Usage: scripts/check_wheel.sh [PYTHON]   (default: .venv/bin/python, with `build`)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

fail() {
    echo "wheel check FAILED: $*" >&2
    exit 1
}

"$python" -m build --outdir "$scratch/dist" . >"$scratch/build.log" 2>&1 || {
    cat "$scratch/build.log" >&2
    fail "python -m build did not build the sdist and the wheel"
}
wheels=("$scratch"/dist/rummykit-*.whl)
[ -f "${wheels[0]}" ] || fail "no wheel in $scratch/dist"
wheel="${wheels[0]}"

"$python" - "$wheel" <<'EOF' || fail "the wheel's contents (above)"
import sys
import zipfile

# The folder outside the project, spelt in two parts so that a search of the repository
# for it finds only real references.
OUTSIDE = b"../" + b"shared"
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
needed = [f"rummykit/rules/en/{page}.md" for page in ("index", "gin", "rami", "carousel")]
needed += ["rummykit/rules/ids.json", "rummykit/rules/codes.json", "rummykit/web/index.html"]
# The browser table's message catalogs and the Devanagari font it ships, with its licence.
needed += [f"rummykit/web/locales/{lang}.json" for lang in ("en", "hi")]
needed += [
    f"rummykit/web/fonts/noto-sans-devanagari-devanagari-{weight}-normal.woff2"
    for weight in (400, 700)
]
needed += ["rummykit/web/js/i18n.js", "rummykit/web/fonts/OFL.txt"]
missing = [name for name in needed if name not in names]
with zipfile.ZipFile(sys.argv[1]) as wheel:
    outside = [
        name
        for name in names
        if name.startswith("rummykit/") and OUTSIDE in wheel.read(name)
    ]
for name in missing:
    print(f"missing from the wheel: {name}", file=sys.stderr)
for name in outside:
    print(f"refers to {OUTSIDE.decode()}: {name}", file=sys.stderr)
sys.exit(1 if missing or outside else 0)
EOF

"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel" \
    || fail "pip install of the wheel"
# Run from the scratch folder, so that nothing of the checkout can be imported instead.
output="$(cd "$scratch" && NO_COLOR=1 "$scratch/venv/bin/rummykit" rules gin 3)" \
    || fail "rummykit rules gin 3 exited non-zero"
for expected in "Playing a hand" "§gin-3.2 The upcard offer"; do
    grep -qF "$expected" <<<"$output" || {
        printf '%s\n' "$output" >&2
        fail "rummykit rules gin 3 from the installed wheel does not show '$expected'"
    }
done
echo "wheel check: $(basename "$wheel") installs and shows its rules (rummykit rules gin 3)"
