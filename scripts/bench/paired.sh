#!/usr/bin/env bash
# Paired import timings of two release builds of coffer, side by side in one run (hyperfine medians):
#
#   scripts/bench/paired.sh BASE_COFFER NEW_COFFER [N]      # N transactions (default 100000)
#
# For example, the start of a round against its end:
#   git worktree add --detach /tmp/base <commit> && (cd /tmp/base && swift build -c release --product coffer)
#   swift build -c release --product coffer
#   scripts/bench/paired.sh /tmp/base/.build/release/coffer .build/release/coffer
#
# Measures, each with a fresh store per run: OFX 1.02, CSV (Chase) and camt.053 first imports; a forced re-import
# of the OFX file (through dedupe, writing nothing); and an overlapping OFX download (half its rows stored).
# Compare user CPU as well as wall time on a shared machine. Data goes to bench-out/paired/ (kept).
# BASE_CONFIG=DIR gives the base binary its own checkout's config folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=$(realpath "$1"); NEW=$(realpath "$2"); N=${3:-100000}
OUT=$PWD/bench-out/paired; mkdir -p "$OUT"; cd "$OUT"
# Each build reads its own checkout's config/ (the folder above the binary that holds Package.swift): an older build
# cannot read a newer config/ (a key it does not know), and a build with the defaults built in reads them the same.
config_of() {
    local dir; dir=$(dirname "$1")
    while [[ $dir != / && ! -f $dir/Package.swift ]]; do dir=$(dirname "$dir"); done
    [[ -d $dir/config ]] && echo "--config $dir/config"
}
# BASE_CONFIG=DIR, when given, wins for the base build.
BASE_CONFIG=${BASE_CONFIG:+--config $BASE_CONFIG}; [[ -n $BASE_CONFIG ]] || BASE_CONFIG=$(config_of "$BASE" || true)
NEW_CONFIG=$(config_of "$NEW" || true)
[[ -s ofx-$N.ofx ]] || python3 ../../scripts/gen-ofx.py --count "$N" --version 1 --out "ofx-$N.ofx" > /dev/null
[[ -s Chase1234_Activity_$N.CSV ]] || python3 ../../scripts/gen-csv.py chase-checking "$N" "Chase1234_Activity_$N.CSV" > /dev/null
[[ -s camt-$N.xml ]] || python3 ../../scripts/gen-camt.py "$N" "camt-$N.xml" > /dev/null
[[ -s overlap-a-$N.ofx ]] || python3 ../../scripts/bench/gen-ofx-range.py --first 0 --count "$N" --out "overlap-a-$N.ofx" > /dev/null
[[ -s overlap-b-$N.ofx ]] || python3 ../../scripts/bench/gen-ofx-range.py --first $((N / 2)) --count "$N" --out "overlap-b-$N.ofx" > /dev/null
fresh="rm -f $OUT/b.sqlite $OUT/b.sqlite-wal $OUT/b.sqlite-shm $OUT/n.sqlite $OUT/n.sqlite-wal $OUT/n.sqlite-shm"
cat > prepare-overlap.sh << SH
$fresh
$BASE import $BASE_CONFIG --store $OUT/b.sqlite $OUT/overlap-a-$N.ofx
$NEW import $NEW_CONFIG --store $OUT/n.sqlite $OUT/overlap-a-$N.ofx
SH
for f in "ofx-$N.ofx" "Chase1234_Activity_$N.CSV" "camt-$N.xml"; do
    hyperfine -N -r 5 -w 1 --prepare "$fresh" \
        -n "base $f" "$BASE import $BASE_CONFIG --store $OUT/b.sqlite $OUT/$f" \
        -n "new $f" "$NEW import $NEW_CONFIG --store $OUT/n.sqlite $OUT/$f"
done
sh -c "$fresh"
"$BASE" import $BASE_CONFIG --store "$OUT/b.sqlite" "ofx-$N.ofx"; "$NEW" import $NEW_CONFIG --store "$OUT/n.sqlite" "ofx-$N.ofx"
hyperfine -N -r 5 -w 1 -n "base --force" "$BASE import $BASE_CONFIG --force --store $OUT/b.sqlite $OUT/ofx-$N.ofx" \
    -n "new --force" "$NEW import $NEW_CONFIG --force --store $OUT/n.sqlite $OUT/ofx-$N.ofx"
hyperfine -N -r 5 --prepare "sh $OUT/prepare-overlap.sh" \
    -n "base overlap" "$BASE import $BASE_CONFIG --store $OUT/b.sqlite $OUT/overlap-b-$N.ofx" \
    -n "new overlap" "$NEW import $NEW_CONFIG --store $OUT/n.sqlite $OUT/overlap-b-$N.ofx"
