#!/bin/sh
# The gettext catalogs of rummykit's Python side (terminal texts, engine refusals), with Babel
# (pip install -e '.[dev]').
#
#   scripts/i18n.sh extract   collect the marked messages into src/rummykit/locale/rummykit.pot
#   scripts/i18n.sh update    merge the template into every language's .po (new ids, fuzzy ones)
#   scripts/i18n.sh init LANG start a new language's catalog (then add LANG to rummykit.i18n)
#   scripts/i18n.sh compile   compile every .po to the .mo rummykit reads
#   scripts/i18n.sh           extract, update, compile (after changing a message)
#
# The .mo files are committed (so a wheel or a checkout works with no build step);
# tests/test_i18n.py fails when a .mo is stale or a message lacks a translation.
# The browser's catalogs are separate: src/rummykit/web/js/locales/<lang>.js.
set -eu
cd "$(dirname "$0")/.."
LOCALE=src/rummykit/locale
POT=$LOCALE/rummykit.pot
PYBABEL=${PYBABEL:-pybabel}

extract() {
    "$PYBABEL" extract -F babel.cfg -k N_ -k NP_:1,2 --no-location --sort-output \
        --project=rummykit --copyright-holder="rummykit authors" -o "$POT" src/rummykit
}
update() { "$PYBABEL" update -i "$POT" -d "$LOCALE" -D rummykit --ignore-obsolete --width=100; }
compile() { "$PYBABEL" compile -d "$LOCALE" -D rummykit --statistics; }

case "${1:-all}" in
    extract) extract ;;
    update) update ;;
    compile) compile ;;
    init) "$PYBABEL" init -i "$POT" -d "$LOCALE" -D rummykit -l "$2" ;;
    all) extract && update && compile ;;
    *) echo "usage: $0 [extract|update|init LANG|compile]" >&2; exit 2 ;;
esac
