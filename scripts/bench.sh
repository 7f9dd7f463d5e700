#!/usr/bin/env bash
# Coffer's benchmark suite, side by side with the SQLite floor, ofxtools, ofxparse and hledger.
#
#   scripts/bench.sh [--quick]
#
# --quick: 10k and 100k transactions (a smoke run); the default adds 1M. The peers (ofxtools, ofxparse, hledger)
# run on the 10k files, 3 runs each: at a few hundred transactions a second they would take hours at 1M.
# Builds release, generates deterministic statements into bench-out/ (kept between runs), measures with
# hyperfine (medians; 5 runs, 3 at 1M) and coffer-bench (library-side medians), drives `coffer serve` with wrk and
# scripts/bench/sse_latency.py (the serve part), and writes every figure with the machine, the date and the ratios
# to bench-out/results.md (also printed). See docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-out
QUICK=0
[[ ${1:-} == --quick ]] && QUICK=1
if [[ $QUICK == 1 ]]; then SIZES=(10000 100000); else SIZES=(10000 100000 1000000); fi
# BENCH_SIZES="100000" measures the imports at those sizes only (BIG stays the largest of the mode).
BIG=${SIZES[-1]}
[[ -n ${BENCH_SIZES:-} ]] && read -r -a SIZES <<< "$BENCH_SIZES"
PEER_SIZES=(10000)
PEER_RUNS=3
# BENCH_PARTS picks sections (default all): build,import,reimport,overlap,query,history,serve,profile,peers. BENCH_KEEP=1
# adds to the figures of an earlier invocation instead of starting afresh (for measuring the parts at different times).
PARTS=${BENCH_PARTS:-build,import,reimport,overlap,query,history,serve,profile,peers}
part() { [[ ,$PARTS, == *,$1,* ]]; }
mkdir -p "$OUT/data" "$OUT/stores" "$OUT/json"
FIG=$OUT/figures.tsv
[[ ${BENCH_KEEP:-0} == 1 ]] || : > "$FIG"
log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
fig() { printf '%s\t%s\n' "$1" "$2" >> "$FIG"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# Runs per figure: BENCH_RUNS (default 5) below 1M, BENCH_RUNS_BIG (default 3) at 1M.
runs_for() { if (( $1 >= 1000000 )); then echo "${BENCH_RUNS_BIG:-3}"; else echo "${BENCH_RUNS:-5}"; fi; }

# --- tools ------------------------------------------------------------------------------------------------
need_apt=()
command -v hyperfine > /dev/null || need_apt+=(hyperfine)
command -v hledger > /dev/null || need_apt+=(hledger)
command -v perf > /dev/null || need_apt+=(linux-perf)
[[ -x /usr/bin/time ]] || need_apt+=(time)
[[ -f /usr/include/sqlite3.h ]] || need_apt+=(libsqlite3-dev)
# wrk only for the serve part, and not required: without it (not root) that part leaves its request figures out.
if part serve && ! command -v wrk > /dev/null && [[ $(id -u) == 0 ]]; then need_apt+=(wrk); fi
if (( ${#need_apt[@]} )); then
    if [[ $(id -u) == 0 ]]; then
        log "apt-get install ${need_apt[*]}"
        apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" > /dev/null
    else
        echo "bench: install ${need_apt[*]} first" >&2; exit 1
    fi
fi
PY=$OUT/venv/bin/python
if [[ ! -x $PY ]]; then python3 -m venv "$OUT/venv"; fi
for pkg in ofxtools ofxparse; do
    if ! "$PY" -c "import $pkg" 2> /dev/null; then
        log "pip install $pkg"
        "$PY" -m pip install -q "$pkg" || echo "bench: pip install $pkg failed; its figures are left out" >&2
    fi
done

fig machine.cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
fig machine.nproc "$(nproc)"
fig machine.mem_gib "$(awk '/MemTotal/ {printf "%.1f", $2/1048576}' /proc/meminfo)"
fig machine.date "$(date -u '+%Y-%m-%d %H:%M UTC')"
fig machine.mode "$([[ $QUICK == 1 ]] && echo quick || echo full)"
fig load.start "$(load)"

# --- build ------------------------------------------------------------------------------------------------
if part build; then
    # As the README installs it: the Swift runtime and Foundation linked in (`--static-swift-stdlib`), which takes
    # about 4 ms of dynamic linking off every one-shot command. (Switching the flag rebuilds everything.)
    log "swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib --product coffer > /dev/null
    swift build -c release --static-swift-stdlib --product coffer-serve > /dev/null   # `coffer serve` runs it
    swift build -c release --static-swift-stdlib --product coffer-bench > /dev/null
fi
BIN=${BENCH_BIN:-$(swift build -c release --static-swift-stdlib --show-bin-path)}
COFFER=$BIN/coffer
cc -O2 -o "$OUT/sqlite_floor" scripts/bench/sqlite_floor.c -lsqlite3
cc -O2 -o "$OUT/sqlite_min_floor" scripts/bench/sqlite_min_floor.c -lsqlite3
fig machine.swift "$(swift --version 2>&1 | head -1)"
fig machine.sqlite "$(sqlite3 --version 2> /dev/null | cut -d' ' -f1 || echo '?')"

# --- data (deterministic; kept between runs) --------------------------------------------------------------
gen() { # file command... (the command's second word is the generator script)
    # A file is kept while its generator and arguments are unchanged; the signature beside it says which made it,
    # so a changed generator (camt entries put in booking-date order, 2026-11-24) cannot leave a stale file behind.
    local file=$1; shift
    local sig; sig=$({ printf '%s\n' "$@"; cat "$2"; } | sha256sum | cut -c1-16)
    [[ -s $file && $(cat "$file.gen" 2> /dev/null) == "$sig" ]] && return 0
    log "generate $(basename "$file")"
    "$@" > /dev/null
    echo "$sig" > "$file.gen"
}
for n in "${SIZES[@]}"; do
    gen "$OUT/data/ofx1-$n.ofx" python3 scripts/gen-ofx.py --count "$n" --version 1 --out "$OUT/data/ofx1-$n.ofx"
    gen "$OUT/data/ofx2-$n.ofx" python3 scripts/gen-ofx.py --count "$n" --version 2 --out "$OUT/data/ofx2-$n.ofx"
    gen "$OUT/data/camt-$n.xml" python3 scripts/gen-camt.py "$n" "$OUT/data/camt-$n.xml"
    gen "$OUT/data/Chase1234_Activity_$n.CSV" python3 scripts/gen-csv.py chase-checking "$n" "$OUT/data/Chase1234_Activity_$n.CSV"
done
half=$((BIG / 2))
gen "$OUT/data/overlap-a-$BIG.ofx" python3 scripts/bench/gen-ofx-range.py --first 0 --count "$BIG" --out "$OUT/data/overlap-a-$BIG.ofx"
gen "$OUT/data/overlap-b-$BIG.ofx" python3 scripts/bench/gen-ofx-range.py --first "$half" --count "$BIG" --out "$OUT/data/overlap-b-$BIG.ofx"
# History: 100k new transactions of the gen-ofx.py account (1234567890), after its BIG transactions.
gen "$OUT/data/extend-$BIG.ofx" python3 scripts/bench/gen-ofx-range.py --first "$BIG" --count 100000 --acct 1234567890 --out "$OUT/data/extend-$BIG.ofx"
# Undo and update: 100k transactions, then the same ones under other payee names (every row an update).
gen "$OUT/data/range-100000.ofx" python3 scripts/bench/gen-ofx-range.py --count 100000 --out "$OUT/data/range-100000.ofx"
gen "$OUT/data/renamed-100000.ofx" python3 scripts/bench/gen-ofx-range.py --count 100000 --renamed --out "$OUT/data/renamed-100000.ofx"
for k in $(seq 1 10); do
    gen "$OUT/data/tiny-$k.ofx" python3 scripts/bench/gen-ofx-range.py --first $((20000000 + k * 5)) --count 5 --acct 1234567890 --out "$OUT/data/tiny-$k.ofx"
done

# --- helpers ----------------------------------------------------------------------------------------------
# hf NAME RUNS [hyperfine options...] COMMAND: runs hyperfine, records NAME.median_s / .user_s / .sys_s.
hf() {
    local name=$1 runs=$2; shift 2
    local json=$OUT/json/$name.json
    hyperfine --style basic --runs "$runs" --export-json "$json" "$@" >&2
    "$PY" - "$json" "$name" >> "$FIG" << 'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
n = sys.argv[2]
print(f"{n}.median_s\t{r['median']:.6f}\n{n}.user_s\t{r['user']:.6f}\n{n}.sys_s\t{r['system']:.6f}\n{n}.runs\t{len(r['times'])}")
EOF
}
rmstore() { rm -f "$1" "$1-wal" "$1-shm"; }
# Peak resident memory (MiB) over the runs, from /usr/bin/time -f %M lines (KiB) in $1.
peak() { awk '$1 ~ /^[0-9]+$/ { if ($1 > m) m = $1 } END { printf "%.1f", m / 1024 }' "$1"; }
# Runs a command R times, collecting `key value` lines; records the median of each key under PREFIX.
median_of() { # PREFIX RUNS COMMAND...
    local prefix=$1 runs=$2; shift 2
    local tmp; tmp=$(mktemp)
    for _ in $(seq 1 "$runs"); do "$@" >> "$tmp"; done
    "$PY" - "$tmp" "$prefix" >> "$FIG" << 'EOF'
import statistics, sys
values = {}
for line in open(sys.argv[1]):
    key, _, value = line.strip().partition(" ")
    values.setdefault(key, []).append(float(value))
for key, vs in values.items():
    print(f"{sys.argv[2]}.{key}\t{statistics.median(vs)}")
EOF
    rm -f "$tmp"
}

# --- Coffer import per format and size --------------------------------------------------------------------
part import && for n in "${SIZES[@]}"; do
    runs=$(runs_for "$n")
    for fmt in ofx1 ofx2 camt csv; do
        case $fmt in camt) file=$OUT/data/camt-$n.xml ;; csv) file=$OUT/data/Chase1234_Activity_$n.CSV ;; *) file=$OUT/data/$fmt-$n.ofx ;; esac
        store=$OUT/stores/$fmt-$n.sqlite
        mem=$OUT/json/import.$fmt.$n.mem
        : > "$mem"
        log "import $fmt $n (load $(load))"
        hf "import.$fmt.$n" "$runs" --prepare "rm -f $store $store-wal $store-shm" \
            "/usr/bin/time -a -o $mem -f %M $COFFER import --store $store $file"
        fig "import.$fmt.$n.peak_mib" "$(peak "$mem")"
        fig "import.$fmt.$n.stored" "$(sqlite3 "$store" 'SELECT count(*) FROM txn' 2> /dev/null || echo '?')"
    done
    log "SQLite floor $n"
    median_of "floor.$n" "$runs" "$OUT/sqlite_floor" "$OUT/stores/floor-$n.sqlite" "$n" 300
    log "minimal SQLite floor $n"
    median_of "minfloor.$n" "$runs" "$OUT/sqlite_min_floor" "$OUT/stores/minfloor-$n.sqlite" "$n"
done
fig load.after_import "$(load)"

# --- re-import: identical (ledger short-circuit) and --force (dedupe path) ---------------------------------
store=$OUT/stores/ofx1-$BIG.sqlite
file=$OUT/data/ofx1-$BIG.ofx
runs=$(runs_for "$BIG")
if part reimport; then
log "re-import identical / --force ($BIG)"
: > "$OUT/json/reimport.mem"
hf "reimport.same.$BIG" "$runs" --warmup 1 "/usr/bin/time -a -o $OUT/json/reimport.mem -f %M $COFFER import --store $store $file"
fig "reimport.same.$BIG.peak_mib" "$(peak "$OUT/json/reimport.mem")"
: > "$OUT/json/force.mem"
hf "reimport.force.$BIG" "$runs" "/usr/bin/time -a -o $OUT/json/force.mem -f %M $COFFER import --force --store $store $file"
fig "reimport.force.$BIG.peak_mib" "$(peak "$OUT/json/force.mem")"
# A cron-sized statement (5 transactions) into a copy of the BIG store's one account: what an import costs that the
# account's size should not change (migration v20). The warm-up stores it; the measured runs go through dedupe.
sstore=$OUT/stores/small-$BIG.sqlite
rmstore "$sstore"
cp "$store" "$sstore"
for ext in wal shm; do [[ -f $store-$ext ]] && cp "$store-$ext" "$sstore-$ext"; done
log "small statement into the $BIG store"
hf "reimport.small.$BIG" "$runs" --warmup 1 "$COFFER import --force --store $sstore $OUT/data/tiny-1.ofx"
rmstore "$sstore"
# Rows changed and rows taken back, 100k each, whatever BIG is: an import that updates every row of the store
# (undo journals each), the undo of a first import, and the undo of a --force import that alone kept the rows
# alive after their first import was undone.
ustore=$OUT/stores/undo-100000.sqlite
plain=$OUT/data/range-100000.ofx
log "update and undo (100000)"
hf "update.100000" 5 --prepare "rm -f $ustore $ustore-wal $ustore-shm; $COFFER import --store $ustore $plain" \
    "$COFFER import --store $ustore $OUT/data/renamed-100000.ofx"
hf "undo.first.100000" 5 --prepare "rm -f $ustore $ustore-wal $ustore-shm; $COFFER import --store $ustore $plain" \
    "$COFFER imports undo 1 --store $ustore"
hf "undo.force.100000" 5 --prepare "rm -f $ustore $ustore-wal $ustore-shm; $COFFER import --store $ustore $plain; $COFFER import --force --store $ustore $plain; $COFFER imports undo 1 --store $ustore" \
    "$COFFER imports undo 2 --store $ustore"
rmstore "$ustore"
fi

# --- overlapping statement: B shares half its days (and transactions) with A -------------------------------
ostore=$OUT/stores/overlap-$BIG.sqlite
if part overlap; then
log "overlapping statement ($BIG)"
: > "$OUT/json/overlap.mem"
hf "overlap.$BIG" "$runs" --prepare "rm -f $ostore $ostore-wal $ostore-shm; $COFFER import --store $ostore $OUT/data/overlap-a-$BIG.ofx" \
    "/usr/bin/time -a -o $OUT/json/overlap.mem -f %M $COFFER import --store $ostore $OUT/data/overlap-b-$BIG.ofx"
fig "overlap.$BIG.peak_mib" "$(peak "$OUT/json/overlap.mem")"
fig "overlap.$BIG.stored" "$(sqlite3 "$ostore" 'SELECT count(*) FROM txn' 2> /dev/null || echo '?')"
fi

# --- snapshot queries on the BIG store ---------------------------------------------------------------------
mid=$(python3 -c "import datetime; print(datetime.date(2020,1,1) + datetime.timedelta(days=$BIG // 500 // 2))")
mid2=$(python3 -c "import datetime; print(datetime.date(2020,1,1) + datetime.timedelta(days=$BIG // 500 // 2 + 1))")
if part query; then
fig query.first_day "$mid"
log "library queries ($BIG store, from $mid, load $(load))"
"$BIN/coffer-bench" query --store "$store" --first-day "$mid" --iterations 300 --offset $((BIG * 9 / 10)) | sed 's/ /\t/' >> "$FIG"
log "CLI query"
hf "cli.account_date.$BIG" 20 --warmup 3 "$COFFER transactions --store $store --account 7890 --from $mid --to $mid2 --format ndjson > /dev/null"
fig "cli.account_date.rows" "$("$COFFER" transactions --store "$store" --account 7890 --from "$mid" --to "$mid2" --format ndjson | wc -l)"
fi

# --- history and monitoring --------------------------------------------------------------------------------
if part history; then
hstore=$OUT/stores/history-$BIG.sqlite
rmstore "$hstore"
cp "$store" "$hstore"
for ext in wal shm; do [[ -f $store-$ext ]] && cp "$store-$ext" "$hstore-$ext"; done
log "history catch-up ($BIG + 100k)"
"$BIN/coffer-bench" history --store "$hstore" --extend "$OUT/data/extend-$BIG.ofx" --runs 3 | sed 's/ /\t/' >> "$FIG"
mstore=$OUT/stores/monitor.sqlite
rmstore "$mstore"
"$COFFER" import --store "$mstore" "$OUT/data/ofx1-10000.ofx"
log "monitor latency (10 commits from another process)"
"$BIN/coffer-bench" monitor --store "$mstore" --coffer "$COFFER" "$OUT"/data/tiny-{1..10}.ofx | sed 's/ /\t/' >> "$FIG"
fig load.after_library "$(load)"
fi

# --- coffer serve: requests/s and latency under wrk, history stream delivery ---------------------------------
# One server on a new store of BENCH_SERVE_SIZE (default 100k) OFX transactions, one client granted everything. wrk
# (BENCH_SERVE_THREADS 2, BENCH_SERVE_CONNECTIONS 16, BENCH_SERVE_DURATION 10s, after a 2 s warm-up; median of
# BENCH_SERVE_RUNS 3) shares the machine's cores with the server, so its figures are of both together. Then
# scripts/bench/sse_latency.py times commit → event on the history stream: BENCH_SSE_COMMITS (30) account renames
# and as many 5-transaction imports, each by a child `coffer`.
if part serve; then
    sn=${BENCH_SERVE_SIZE:-100000}
    gen "$OUT/data/ofx1-$sn.ofx" python3 scripts/gen-ofx.py --count "$sn" --version 1 --out "$OUT/data/ofx1-$sn.ofx"
    commits=${BENCH_SSE_COMMITS:-30}
    sse_files=()
    for k in $(seq 1 "$commits"); do
        gen "$OUT/data/sse-$k.ofx" python3 scripts/bench/gen-ofx-range.py --first $((30000000 + k * 5)) --count 5 --acct 1234567890 --out "$OUT/data/sse-$k.ofx"
        sse_files+=("$OUT/data/sse-$k.ofx")
    done
    sstore=$OUT/stores/serve-$sn.sqlite
    rmstore "$sstore"
    log "serve: import $sn into a new store, add a client"
    "$COFFER" import --store "$sstore" "$OUT/data/ofx1-$sn.ofx" > /dev/null
    token=$("$COFFER" clients add bench --store "$sstore" | tail -n 1)
    "$COFFER" clients authorize bench --store "$sstore" --accounts all --types accounts,accountBalances,transactions > /dev/null
    "$COFFER" serve --store "$sstore" --listen 127.0.0.1:0 > "$OUT/serve.out" 2> "$OUT/serve.err" &
    spid=$!
    trap 'kill -TERM "$spid" 2> /dev/null || true' EXIT
    port=
    for _ in $(seq 300); do
        port=$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9][0-9]*\)$#\1#p' "$OUT/serve.out")
        [[ -n $port ]] && break
        kill -0 "$spid" 2> /dev/null || { cat "$OUT/serve.err" >&2; echo "bench: coffer serve exited before listening" >&2; exit 1; }
        sleep 0.1
    done
    [[ -n $port ]] || { echo "bench: coffer serve did not say where it listens within 30 s" >&2; exit 1; }
    base=http://127.0.0.1:$port
    fig serve.size "$sn"
    fig serve.load "$(load)"
    # A caught-up token of the client's transaction history: "nothing new since" it.
    htoken=$("$PY" scripts/bench/sse_latency.py --url "$base" --token "$token" --print-token transactions)
    page=/v1/transactions?limit=1000
    nothing=/v1/history/transactions?since=$htoken
    # What each route answers, checked once: the page's rows, and that nothing is new.
    check() { # PATH PYTHON-EXPRESSION over the JSON document d
        "$PY" - "$port" "$token" "$1" "$2" << 'EOF'
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
c.request("GET", sys.argv[3], headers={"Authorization": "Bearer " + sys.argv[2]})
r = c.getresponse()
d = json.loads(r.read())
print(eval(sys.argv[4]) if r.status == 200 else f"HTTP {r.status}")
EOF
    }
    fig serve.page.rows "$(check "$page" 'len(d["transactions"])')"
    fig serve.nothing.changes "$(check "$nothing" 'len(d["inserted"]) + len(d["updated"]) + len(d["deleted"])')"
    if command -v wrk > /dev/null; then
        threads=${BENCH_SERVE_THREADS:-2} conns=${BENCH_SERVE_CONNECTIONS:-16} duration=${BENCH_SERVE_DURATION:-10s}
        fig serve.wrk "$threads threads, $conns connections, $duration"
        ticks=$(getconf CLK_TCK)
        server_cpu() { awk '{ print $14 + $15 }' "/proc/$spid/stat"; }
        machine_cpu() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
        # One wrk run: its `key value` lines (wrk_auth.lua's done()), then the cores busy over the run (CPU time /
        # wall time, from /proc and /usr/bin/time) of the server, of wrk and of everything else on the machine,
        # and the server's CPU per request; wrk's own report goes to stderr.
        wrk_run() { # PATH
            local tmp before after mbefore mafter start end
            tmp=$(mktemp)
            before=$(server_cpu) mbefore=$(machine_cpu) start=$(date +%s.%N)
            COFFER_BENCH_TOKEN=$token /usr/bin/time -o "$tmp.time" -f '%U %S' \
                wrk -t"$threads" -c"$conns" -d"$duration" --latency -s scripts/bench/wrk_auth.lua "$base$1" > "$tmp"
            after=$(server_cpu) mafter=$(machine_cpu) end=$(date +%s.%N)
            grep -Ev '^[a-z0-9_]+ [0-9.]+$' "$tmp" >&2
            grep -E '^[a-z0-9_]+ [0-9.]+$' "$tmp"
            awk -v s=$((after - before)) -v m=$((mafter - mbefore)) -v hz="$ticks" -v t0="$start" -v t1="$end" \
                -v w="$(awk '{ print $1 + $2 }' "$tmp.time")" '$1 == "requests" { n = $2 }
                END { wall = t1 - t0; printf "server_cpu_us_per_request %.1f\nserver_cores %.2f\nwrk_cores %.2f\nother_cores %.2f\n",
                             s / hz * 1e6 / (n > 0 ? n : 1), s / hz / wall, w / wall, (m - s) / hz / wall - w / wall }' "$tmp"
            rm -f "$tmp" "$tmp.time"
        }
        for what in page nothing; do
            path=$page; [[ $what == nothing ]] && path=$nothing
            log "serve: wrk GET ${path%%\?*} ($what; load $(load))"
            COFFER_BENCH_TOKEN=$token wrk -t"$threads" -c"$conns" -d2s -s scripts/bench/wrk_auth.lua "$base$path" > /dev/null
            median_of "serve.$what" "${BENCH_SERVE_RUNS:-3}" wrk_run "$path"
        done
    else
        echo "bench: wrk is not installed (apt-get install wrk); the serve part's requests/s and latency are left out" >&2
    fi
    log "serve: history stream, commit → event ($commits account renames, $commits imports of 5 transactions)"
    "$PY" scripts/bench/sse_latency.py --url "$base" --token "$token" --store "$sstore" --coffer "$COFFER" \
        --kind accounts --account 7890 --commits "$commits" | sed 's/ /\t/' >> "$FIG"
    "$PY" scripts/bench/sse_latency.py --url "$base" --token "$token" --store "$sstore" --coffer "$COFFER" \
        --kind transactions --files "${sse_files[@]}" | sed 's/ /\t/' >> "$FIG"
    fig serve.peak_mib "$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$spid/status")"
    kill -TERM "$spid"
    status=0
    wait "$spid" || status=$?
    trap - EXIT
    fig serve.exit "$status"
    fig serve.log_lines "$(wc -l < "$OUT/serve.err")"
    fig load.after_serve "$(load)"
fi

# --- where an import's CPU goes: perf, split by pipeline stage (scripts/bench/perf_split.py) -------------------
if part profile; then
    pn=$(( BIG >= 1000000 ? 200000 : 100000 ))
    [[ -n ${BENCH_PROFILE_SIZE:-} ]] && pn=$BENCH_PROFILE_SIZE
    gen "$OUT/data/ofx1-$pn.ofx" python3 scripts/gen-ofx.py --count "$pn" --version 1 --out "$OUT/data/ofx1-$pn.ofx"
    pstore=$OUT/stores/profile.sqlite
    rmstore "$pstore"
    log "perf profile of an OFX 1.02 import ($pn)"
    fig split.size "$pn"
    median_of "minfloor.$pn" 3 "$OUT/sqlite_min_floor" "$OUT/stores/minfloor-$pn.sqlite" "$pn"
    if perf record -q -F 499 --call-graph dwarf,16384 -o "$OUT/perf.data" "$COFFER" import --store "$pstore" \
        "$OUT/data/ofx1-$pn.ofx" > /dev/null 2>&1; then
        python3 scripts/bench/perf_split.py "$OUT/perf.data" "$pn" | sed 's/ /\t/' >> "$FIG"
    else
        echo "bench: perf record failed (kernel.perf_event_paranoid?); the CPU split is left out" >&2
    fi
fi

# --- peers -------------------------------------------------------------------------------------------------
part peers && for n in "${PEER_SIZES[@]}"; do
    runs=$PEER_RUNS
    for v in 1 2; do
        # ofxtools' converter rejects gen-ofx.py's files (no LANGUAGE, SIC after NAME): it reads a spec-ordered copy.
        gen "$OUT/data/ofx$v-$n.strict.ofx" python3 scripts/bench/ofx_strict.py "$OUT/data/ofx$v-$n.ofx" "$OUT/data/ofx$v-$n.strict.ofx"
        for tool in ofxtools ofxparse; do
            input=$OUT/data/ofx$v-$n.ofx
            [[ $tool == ofxtools ]] && input=$OUT/data/ofx$v-$n.strict.ofx
            if "$PY" -c "import $tool" 2> /dev/null; then
                log "$tool ofx$v $n"
                got=$("$PY" scripts/bench/peer_ofx.py "$tool" "$input" 2>&1 | tail -1 || true)
                fig "peer.$tool.ofx$v.$n.count" "$got"
                if [[ $got == "$n" ]]; then
                    hf "peer.$tool.ofx$v.$n" "$runs" "$PY scripts/bench/peer_ofx.py $tool $input"
                fi
            else
                fig "peer.$tool.ofx$v.$n.count" "not installed"
            fi
        done
    done
    # Coffer without its store, like the peers: identify, parse and normalize, printing every transaction.
    for f in ofx1 ofx2 csv; do
        input=$OUT/data/$f-$n.ofx; [[ $f == csv ]] && input=$OUT/data/Chase1234_Activity_$n.CSV
        log "coffer parse $f $n"
        hf "parse.$f.$n" "$runs" "$COFFER parse --format ndjson $input > /dev/null"
    done
    log "hledger csv $n"
    hf "peer.hledger.csv.$n" "$runs" "hledger -f $OUT/data/Chase1234_Activity_$n.CSV --rules-file scripts/bench/chase.rules print > /dev/null"
done
fig load.end "$(load)"

"$PY" scripts/bench/report.py "$FIG" > "$OUT/results.md"
cat "$OUT/results.md"
