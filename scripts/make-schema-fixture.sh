#!/bin/sh
# Makes one fixture store of Tests/Golden/schema-history (docs/schema.md): builds `coffer` as it was at COMMIT in a
# temporary worktree, imports a few of that commit's own feeds/ samples into a new store, folds the write-ahead log
# in and VACUUMs it with 1 KiB pages, and puts it at Tests/Golden/schema-history/NAME/coffer.sqlite.
#
#   scripts/make-schema-fixture.sh COMMIT NAME [WORKTREE]
#
# WORKTREE (default /tmp/coffer-schema-history) is reused from one call to the next, and the build folder
# (/work/.build-hist, or $HIST_SCRATCH) is shared, so that each older commit builds incrementally.
set -eu
commit=$1
name=$2
tree=${3:-/tmp/coffer-schema-history}
scratch=${HIST_SCRATCH:-/work/.build-hist}
repo=$(git rev-parse --show-toplevel)
out="$repo/Tests/Golden/schema-history/$name"

if [ -d "$tree" ]; then git -C "$tree" checkout -q --detach "$commit"; else git worktree add -q --detach "$tree" "$commit"; fi
(cd "$tree" && swift build --scratch-path "$scratch" --product coffer >/dev/null)
coffer="$scratch/debug/coffer"
work=$(mktemp -d)
(cd "$tree" && "$coffer" import --store "$work/coffer.sqlite" --config config \
    feeds/ofx/bank-ofx1-sgml.ofx feeds/ofx/creditcard-ofx2.qfx \
    feeds/camt/de-musterbank-053-v02.xml feeds/csv/dkb-giro-2026-03.csv --verbose)
# Small: 1 KiB pages (each table and index takes at least one), WAL mode as coffer left it.
sqlite3 "$work/coffer.sqlite" 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM; PRAGMA journal_mode = WAL;' >/dev/null
mkdir -p "$out"
cp "$work/coffer.sqlite" "$out/coffer.sqlite"
rm -rf "$work"
echo "$name: $(git -C "$tree" rev-parse --short HEAD), $(wc -c < "$out/coffer.sqlite") bytes, migrations:" \
    "$(sqlite3 "$out/coffer.sqlite" 'SELECT group_concat(identifier, " ") FROM grdb_migrations')"
