#!/usr/bin/env bash
# The export, checked by the real tools (issue 20): hledger (`hledger check`, `hledger bal`), ledger (`ledger bal`)
# and beancount (`bean-check`) must accept `coffer export` of the feeds/ store, of a generated multi-currency store
# (scripts/gen-export-store.py) and of the golden files, and their balance of every account must equal Coffer's
# (scripts/check_export.py says how Coffer's is computed). An incremental export across two imports must give the
# tools the same balances as a whole export.
#
# Installs what is missing: hledger and ledger with apt-get (Debian's), beancount 3.2.3 from PyPI in a virtual
# environment ($COFFER_BEANCOUNT_VENV, else ~/.cache/coffer-ci/beancount-venv). CI runs it after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# hledger (GHC) reads files in the locale's encoding: with no locale set (cron, `env -i`, a bare container) the
# golden files' UTF-8 payees fail with "invalid byte sequence". C.UTF-8 is on every Debian system.
export LC_ALL=C.UTF-8

need=()
command -v hledger >/dev/null || need+=(hledger)
command -v ledger >/dev/null || need+=(ledger)
dpkg -s python3-venv >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
venv="${COFFER_BEANCOUNT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/coffer-ci/beancount-venv}"
if ! "$venv/bin/python" -c 'import beancount' 2>/dev/null; then
    echo "installing beancount 3.2.3 into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q beancount==3.2.3
fi
bean="$venv/bin/python"
echo "$(hledger --version | head -1); $(ledger --version | head -1); beancount $("$bean" -c 'import beancount; print(beancount.__version__)')"

swift build --product coffer >/dev/null
coffer="$(swift build --show-bin-path)/coffer"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The golden files of the hand-made store.
for f in Tests/Golden/export/*.hledger; do hledger -f "$f" check; done
for f in Tests/Golden/export/*.ledger; do ledger -f "$f" bal >/dev/null; done
for f in Tests/Golden/export/*.beancount; do "$bean" -m beancount.scripts.check "$f"; done
echo "golden files: accepted"

# The feeds/ store (its warnings, and those of the export, are expected: some samples do not reconcile on purpose).
mkdir "$work/feeds"
"$coffer" import --store "$work/feeds.sqlite" feeds 2>/dev/null
python3 scripts/check_export.py "$coffer" "$work/feeds.sqlite" "$work/feeds" "$bean" 2>/dev/null

# A generated store in five currencies, with own transfers.
python3 scripts/gen-export-store.py "$work/gen-files" --months 4 --per-month 60
mkdir "$work/gen"
"$coffer" import --store "$work/gen.sqlite" "$work/gen-files"
python3 scripts/check_export.py "$coffer" "$work/gen.sqlite" "$work/gen" "$bean"

# Incremental: months 1-3, then month 4 appended; the tools' balances equal those of a whole export.
mkdir "$work/inc"
for f in "$work"/gen-files/*-2026-0[123].ofx; do "$coffer" import --store "$work/inc.sqlite" "$f"; done
for fmt in hledger ledger beancount; do
    "$coffer" export --store "$work/inc.sqlite" --format $fmt --state "$work/inc/$fmt.state" -o "$work/inc/books.$fmt"
done
for f in "$work"/gen-files/*-2026-04.ofx; do "$coffer" import --store "$work/inc.sqlite" "$f"; done
for fmt in hledger ledger beancount; do
    "$coffer" export --store "$work/inc.sqlite" --format $fmt --state "$work/inc/$fmt.state" -o "$work/inc/books.$fmt"
    "$coffer" export --store "$work/inc.sqlite" --format $fmt -o "$work/inc/whole.$fmt"
done
hledger -f "$work/inc/books.hledger" check
diff <(hledger -f "$work/inc/books.hledger" bal --flat) <(hledger -f "$work/inc/whole.hledger" bal --flat)
diff <(ledger -f "$work/inc/books.ledger" bal --flat) <(ledger -f "$work/inc/whole.ledger" bal --flat)
"$bean" -m beancount.scripts.check "$work/inc/books.beancount"
echo "incremental export across two imports: accepted, balances equal a whole export's"
