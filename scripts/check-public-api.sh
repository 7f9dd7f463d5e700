#!/usr/bin/env bash
# The public API is the product: compare it with the checked-in list (api/public-api.txt), and check that every
# public symbol has a doc comment. A change to the public API is deliberate: review the diff, then
#   scripts/check-public-api.sh --update
# CI runs this after the tests (.ci/run); it reuses the debug build, so it takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(swift package dump-symbol-graph --skip-synthesized-members 2>&1) || { echo "$out"; exit 1; }
graphs=$(printf '%s\n' "$out" | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "$out"; echo "check-public-api: no symbol graphs were written" >&2; exit 1; }
current=$(mktemp)
trap 'rm -f "$current"' EXIT
python3 scripts/public-api.py "$graphs" > "$current"
if [ "${1:-}" = "--update" ]; then
    cp "$current" api/public-api.txt
    echo "api/public-api.txt: $(wc -l < api/public-api.txt) lines"
else
    if ! diff -u api/public-api.txt "$current"; then
        echo "The public API changed (lines above: - was, + is). If that is intended, run scripts/check-public-api.sh --update" >&2
        echo "and commit api/public-api.txt with the change; if not, make the new declarations package or internal." >&2
        exit 1
    fi
    echo "public API: $(wc -l < "$current") lines, as api/public-api.txt says"
fi
if ! undocumented=$(python3 scripts/public-api.py --undocumented "$graphs"); then
    echo "$undocumented"
    echo "Public symbols without a doc comment (above): give each a one-line summary." >&2
    exit 1
fi
