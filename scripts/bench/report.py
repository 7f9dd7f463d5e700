#!/usr/bin/env python3
"""Render bench-out/figures.tsv (key<TAB>value lines written by scripts/bench.sh) as the markdown results table.

Usage: report.py bench-out/figures.tsv > bench-out/results.md
Every figure is a median; throughput is transactions per second of wall time (and of CPU time, user + sys,
which the other processes sharing the machine disturb less). Ratios put Coffer over its comparison.
"""
import sys

F = {}
for line in open(sys.argv[1], encoding="utf-8"):
    key, _, value = line.rstrip("\n").partition("\t")
    F[key] = value


def num(key):
    try:
        return float(F[key])
    except (KeyError, ValueError):
        return None


def fmt(x, digits=0):
    if x is None:
        return "—"
    return f"{x:,.{digits}f}"


def mark(ok):
    return "" if ok is None else (" ✅" if ok else " ❌")


sizes = sorted({int(k.split(".")[2]) for k in F if k.startswith("import.ofx1.") and k.endswith(".median_s")})
big = max(sizes) if sizes else 0
out = []
w = out.append
w(f"# Coffer benchmark results ({F.get('machine.mode', '?')} run)\n")
w(f"- Date: {F.get('machine.date')}; machine: {F.get('machine.nproc')} cores, {F.get('machine.cpu')}, "
  f"{F.get('machine.mem_gib')} GiB RAM; {F.get('machine.swift')}; SQLite {F.get('machine.sqlite')}")
w(f"- Load average (1/5/15 min) at start {F.get('load.start')}, after imports {F.get('load.after_import')}, "
  f"after library runs {F.get('load.after_library')}, at end {F.get('load.end')} — the machine is shared, so "
  "wall-clock figures carry the other processes' load; CPU-time throughput (user + sys) is given beside them.")
w("- Medians: hyperfine, 5 runs (3 at 1M); library figures from coffer-bench (many iterations).\n")

w("## Import (end to end: `coffer import` into a new store, with history)\n")
w("Two floors run beside Coffer: the *SQLite floor* (`sqlite_floor.c`) inserts rows shaped as Coffer's schema "
  "stores them (its columns and indexes); the *minimal floor* (`sqlite_min_floor.c`, issue 16's shape) inserts "
  "the least any store with a change log must: nine columns, an (account, day) and a unique (account, FITID) "
  "index, a bare change-log row. Ratios are Coffer over the floor, wall / CPU (user + sys).\n")
w("| format | transactions | median wall s | tx/s (wall) | tx/s (CPU) | peak MiB | stored | vs SQLite floor | vs minimal floor | target |")
w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for n in sizes:
    floor_wall, floor_cpu = num(f"floor.{n}.insert_seconds"), num(f"floor.{n}.insert_cpu_seconds")
    min_wall, min_cpu = num(f"minfloor.{n}.insert_seconds"), num(f"minfloor.{n}.insert_cpu_seconds")
    for f, label in [("ofx1", "OFX 1.02 SGML"), ("ofx2", "OFX 2.2 XML"), ("camt", "camt.053"), ("csv", "CSV (Chase)")]:
        m = num(f"import.{f}.{n}.median_s")
        u, s_ = num(f"import.{f}.{n}.user_s"), num(f"import.{f}.{n}.sys_s")
        cpu = (u or 0) + (s_ or 0)
        rate = n / m if m else None
        crate = n / cpu if cpu else None
        peak = num(f"import.{f}.{n}.peak_mib")

        def ratio(wall, c):
            if not (wall and m):
                return "", None, None
            rw, rc = m / wall, (cpu / c if c else None)
            return (f"{rw:.2f}x / {rc:.2f}x" if rc else f"{rw:.2f}x"), rw, rc
        r_floor, _, _ = ratio(floor_wall, floor_cpu)
        r_min, rw, rc = ratio(min_wall, min_cpu)
        targets = []
        if n >= 100_000 and f == "ofx1" and rw is not None:
            targets.append("≤1.5x wall" + mark(rw <= 1.5))
            if rc is not None:
                targets.append("≤2.5x CPU" + mark(rc <= 2.5))
        if n >= 100_000 and f in ("ofx2", "csv") and rw is not None:
            targets.append("≤1.8x wall" + mark(rw <= 1.8))
        if n >= 1_000_000 and f == "camt":
            targets.append("≥100k tx/s" + mark(bool(rate and rate >= 100_000)))
        if n >= 1_000_000:
            targets.append("<128 MiB" + mark(peak is not None and peak < 128))
        w(f"| {label} | {n:,} | {fmt(m, 2)} | {fmt(rate)} | {fmt(crate)} | {fmt(peak, 1)} | {F.get(f'import.{f}.{n}.stored', '?')} "
          f"| {r_floor} | {r_min} | {'; '.join(targets)} |")
    w(f"| SQLite floor (C, Coffer's schema) | {n:,} | {fmt(floor_wall, 2)} | {fmt(num(f'floor.{n}.insert_rows_per_s'))} | "
      f"{fmt(n / floor_cpu if floor_cpu else None)} | | | 1x | | |")
    w(f"| minimal floor (C, issue 16's shape) | {n:,} | {fmt(min_wall, 2)} | {fmt(num(f'minfloor.{n}.insert_rows_per_s'))} | "
      f"{fmt(n / min_cpu if min_cpu else None)} | | | | 1x | |")

pn = num("split.size")
if pn:
    w(f"\n## Where an import's CPU goes (OFX 1.02, {int(pn):,} transactions, `perf record`, split by stage)\n")
    w("Each sample counts for the pipeline stage of the frame nearest its leaf (`scripts/bench/perf_split.py`): a "
      "malloc or a retain counts for whoever called it. Parse and normalize run on one thread, match, store and "
      "SQLite on the other, so wall time follows the busier thread. Figures include perf's own overhead.\n")
    w("| stage | share | CPU µs per transaction |")
    w("|---|---:|---:|")
    for stage, label in [("parse", "parse (OFX tokenizer and reader)"), ("normalize", "normalize (preparer: text, type, MCC, fingerprints)"),
                         ("match", "match (matcher, import session)"), ("store", "store (Swift around SQLite: binding, the writer)"),
                         ("SQLite", "SQLite (txn and change-log inserts, look-ups)"), ("pipe", "pipe between the threads"),
                         ("kernel", "kernel (I/O, page faults)"), ("other", "other (start-up, runtime)")]:
        sh = num(f"split.{stage}.share")
        w(f"| {label} | {fmt(sh * 100 if sh is not None else None, 1)}% | {fmt(num(f'split.{stage}.us_per_tx'), 2)} |")
    w(f"| whole process | 100% | {fmt(num('split.total.us_per_tx'), 2)} |")
    mc = num(f"minfloor.{int(pn)}.insert_cpu_seconds")
    if mc:
        w(f"| minimal floor, whole process (for comparison) | | {fmt(mc * 1e6 / pn, 2)} |")

w("\n## Re-import and overlap (OFX 1.02, " + f"{big:,} transactions)\n")
w("| case | median wall s | tx/s (wall) | tx/s (CPU) | peak MiB | target |")
w("|---|---:|---:|---:|---:|---|")
first = num(f"import.ofx1.{big}.median_s")
first_cpu = (num(f"import.ofx1.{big}.user_s") or 0) + (num(f"import.ofx1.{big}.sys_s") or 0)
for key, label, target, floor in [(f"reimport.same.{big}", "identical file again (ledger short-circuit)", "≥1M/s", 1_000_000),
                                   (f"reimport.force.{big}", "identical file with --force (dedupe, no writes)", "<0.5x a first import", None),
                                   (f"overlap.{big}", "overlapping statement (half its days already stored)", "", None),
                                   (f"reimport.small.{big}", "5-transaction statement into the store (--force)", "", None)]:
    m = num(key + ".median_s")
    cpu = (num(key + ".user_s") or 0) + (num(key + ".sys_s") or 0)
    n = 5 if key.startswith("reimport.small") else big
    rate = n / m if m else None
    ok = None if floor is None or rate is None else rate >= floor
    if key.startswith("reimport.force") and m and first:
        ok = m / first < 0.5
        target += f" ({m / first:.2f}x wall, {cpu / first_cpu:.2f}x CPU)" if first_cpu else f" ({m / first:.2f}x)"
    w(f"| {label} | {fmt(m, 3)} | {fmt(rate)} | {fmt(n / cpu if cpu else None)} | {fmt(num(key + '.peak_mib'), 1)} | {target}{mark(ok)} |")
for key, label in [("update.100000", "a statement changing every payee of 100,000 stored rows (each an update)"),
                   ("undo.first.100000", "`coffer imports undo` of a first import of 100,000"),
                   ("undo.force.100000", "the same of a `--force` import that alone kept 100,000 rows alive")]:
    m = num(key + ".median_s")
    if m:
        cpu = (num(key + ".user_s") or 0) + (num(key + ".sys_s") or 0)
        w(f"| {label} | {fmt(m, 3)} | {fmt(100_000 / m)} | {fmt(100_000 / cpu if cpu else None)} | | |")
if F.get(f"overlap.{big}.stored"):
    w(f"\nAfter the overlapping import the store holds {F[f'overlap.{big}.stored']} transactions "
      f"(expected {big + big // 2:,}: A's {big:,} plus B's {big // 2:,} new).")

w(f"\n## Snapshot queries ({big:,}-transaction store, first day {F.get('query.first_day')})\n")
w("| query | rows | median | p90 | runs | vs SQLite by hand | target |")
w("|---|---:|---:|---:|---:|---:|---|")
floor_q = num(f"floor.{big}.query_median_us")
for key, label, limit in [("query.account_date", "account + 2-day range (library)", 1000),
                          ("query.mcc_amount", "MCC 5411 + amount 100…110 (library)", None),
                          ("query.text", "searchText \"pinecone\", limit 1,000 (library)", None),
                          ("query.deep_page", f"sorted by date, offset {big * 9 // 10:,}, limit 1,000 (library)", None),
                          ("query.deep_cursor", "the same page by cursor (library)", None),
                          ("query.account_page", "the account's newest 1,000 by bank day (library)", None),
                          ("query.client.newest_page", "a client's newest 1,000 by bank day, granted the account (library)", None)]:
    med = num(key + ".median_us")
    # The account + date query is paired with the same SQL by hand on the same store (coffer-bench, interleaved):
    # that ratio, not one against the floor program's query minutes apart, says what the library adds.
    paired = num(key + ".vs_by_hand")
    ratio = f"{paired:.2f}x (paired)" if paired else (f"{med / floor_q:.1f}x" if key == "query.account_date" and med and floor_q else "")
    ok = None if limit is None or med is None else med < limit
    w(f"| {label} | {F.get(key + '.rows', '—')} | {fmt(med, 0)} µs | {fmt(num(key + '.p90_us'), 0)} µs | "
      f"{F.get(key + '.runs', '—')} | {ratio} | {'<1 ms' + mark(ok) if limit else ''} |")
cli = num(f"cli.account_date.{big}.median_s")
w(f"| account + 2-day range, one-shot `coffer transactions --format ndjson` | {F.get('cli.account_date.rows', '—')} | "
  f"{fmt(cli * 1000 if cli else None, 1)} ms | | {F.get(f'cli.account_date.{big}.runs', '—')} | | <25 ms{mark(cli is not None and cli < 0.025)} |")
hand = num("query.account_date.by_hand_median_us")
if hand:
    w(f"| the library's SQL for the account + 2-day range, by hand on the same store, each run paired with the library's "
      f"| {F.get('query.account_date.rows', '—')} | {fmt(hand, 0)} µs | | {F.get('query.account_date.runs', '—')} | 1x | |")
w(f"| SQLite floor: same query by hand in C, on the floor's own narrower store, at another moment | "
  f"{F.get(f'floor.{big}.query_rows', '—')} | {fmt(floor_q, 0)} µs | | 300 | | |")

w("\n## History and monitoring (library)\n")
w("| case | changes | median | target |")
w("|---|---:|---:|---|")
t = num("history.from_token.median_ms")
w(f"| catch-up from a token 100k changes back | {F.get('history.from_token.changes', '—')} | {fmt(t, 1)} ms | <1 s{mark(t is not None and t < 1000)} |")
w(f"| catch-up from nil (whole account) | {F.get('history.from_nil.changes', '—')} | {fmt(num('history.from_nil.median_ms'), 1)} ms | |")
e = num("history.nothing_new.median_us")
w(f"| changes since token, nothing new (p90 {fmt(num('history.nothing_new.p90_us'), 1)} µs) | 0 | {fmt(e, 1)} µs | <20 µs{mark(e is not None and e < 20)} |")
w(f"| monitor: commit in another process → delivery ({F.get('monitor.samples', '—')} commits, max "
  f"{fmt(num('monitor.max_ms'), 1)} ms) | 5 each | {fmt(num('monitor.median_ms'), 1)} ms | |")

sn = num("serve.size")
if sn:
    w(f"\n## coffer serve ({int(sn):,}-transaction store, one client granted every account)\n")
    w(f"`wrk` ({F.get('serve.wrk', '?')}; a 2 s warm-up, then the median of the runs; latency from `--latency`) runs on "
      f"the same {F.get('machine.nproc')} cores as the server, so requests/s is what both reach together. Cores busy are "
      f"CPU time (user + sys) over each run's wall time, from /proc: the server's, wrk's, and the rest of the machine's "
      f"(other processes; a busy machine lowers requests/s). Load average when the part began: {F.get('serve.load')}.\n")
    w("| request | rows / changes | requests/s | p50 | p90 | p99 | max | bytes | server CPU per request | cores busy: server / wrk / others | errors |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for key, label, rows in [("serve.page", "`GET /v1/transactions?limit=1000` (a 1,000-row page)", "serve.page.rows"),
                             ("serve.nothing", "`GET /v1/history/transactions?since=TOKEN`, nothing new", "serve.nothing.changes")]:
        if num(key + ".requests_per_s") is None:
            w(f"| {label} | {F.get(rows, '—')} | wrk not installed | | | | | | | | |")
            continue
        w(f"| {label} | {F.get(rows, '—')} | {fmt(num(key + '.requests_per_s'))} | {fmt(num(key + '.p50_ms'), 2)} ms | "
          f"{fmt(num(key + '.p90_ms'), 2)} ms | {fmt(num(key + '.p99_ms'), 2)} ms | {fmt(num(key + '.max_ms'), 1)} ms | "
          f"{fmt(num(key + '.bytes_per_request'))} | {fmt(num(key + '.server_cpu_us_per_request'))} µs | "
          f"{fmt(num(key + '.server_cores'), 2)} / {fmt(num(key + '.wrk_cores'), 2)} / {fmt(num(key + '.other_cores'), 2)} | "
          f"{fmt(num(key + '.errors'))} |")
    w("\nHistory stream (`GET /v1/history/KIND/stream?since=TOKEN`, Server-Sent Events), `scripts/bench/sse_latency.py`: "
      "each change is committed by a child `coffer`; the commit instant is when a 0.5 ms poller first sees the change "
      "log's new sequence number, the event's when it has been read whole from the socket.\n")
    w("| stream, change | samples | commit → event median | p90 | max | child start → event median (p90) |")
    w("|---|---:|---:|---:|---:|---:|")
    for kind, label in [("accounts", "accounts, `coffer accounts rename`"), ("transactions", "transactions, `coffer import` of 5 new transactions")]:
        k = f"sse.{kind}"
        w(f"| {label} | {F.get(k + '.samples', '—')} | {fmt(num(k + '.median_ms'), 1)} ms | {fmt(num(k + '.p90_ms'), 1)} ms | "
          f"{fmt(num(k + '.max_ms'), 1)} ms | {fmt(num(k + '.start_median_ms'), 1)} ms ({fmt(num(k + '.start_p90_ms'), 1)} ms) |")
    w(f"\nServer peak resident memory {fmt(num('serve.peak_mib'), 1)} MiB; exit status after SIGTERM "
      f"{F.get('serve.exit', '?')}; {F.get('serve.log_lines', '?')} lines on its stderr.")

w("\n## Peers (same files)\n")
w("The peers only parse (`hledger print` also prints). Coffer is compared twice: its whole import, which also "
  "stores every transaction with its change-log row, and `coffer parse --format ndjson`, which like the peers "
  "reads and normalizes the file and prints every transaction, with no store.\n")
w("| peer | input | transactions | median wall s | tx/s (wall) | tx/s (CPU) | Coffer import tx/s (wall) | import ÷ peer (wall / CPU) | Coffer parse tx/s (wall) | parse ÷ peer (wall) | target |")
w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
peer_sizes = sorted({int(k.split(".")[3]) for k in F if k.startswith("peer.") and k.endswith(".median_s")}
                    | {int(k.split(".")[3]) for k in F if k.startswith("peer.") and k.endswith(".count")})
for n in peer_sizes:
    for tool, f in [("ofxtools", "ofx1"), ("ofxtools", "ofx2"), ("ofxparse", "ofx1"), ("ofxparse", "ofx2"), ("hledger", "csv")]:
        key = f"peer.{tool}.{f}.{n}"
        m = num(key + ".median_s")
        cm = num(f"import.{f}.{n}.median_s")
        if m is None:
            count = F.get(key + ".count")
            if count is not None:
                w(f"| {tool} | {f} | {n:,} | — | — | — | {fmt(n / cm if cm else None)} | — | | | failed: {count[:80]} |")
            continue
        ratio = m / cm if cm else None
        pc = (num(key + ".user_s") or 0) + (num(key + ".sys_s") or 0)
        cc = (num(f"import.{f}.{n}.user_s") or 0) + (num(f"import.{f}.{n}.sys_s") or 0)
        cratio = pc / cc if pc and cc else None
        pm = num(f"parse.{f}.{n}.median_s")
        pratio = m / pm if pm else None
        w(f"| {tool} | {f} | {n:,} | {fmt(m, 2)} | {fmt(n / m)} | {fmt(n / pc if pc else None)} | {fmt(n / cm if cm else None)} | "
          f"{fmt(ratio, 1)}x / {fmt(cratio, 1)}x | {fmt(n / pm if pm else None)} | {fmt(pratio, 1)}x | "
          f"≥30x (import){mark(ratio is not None and ratio >= 30)} |")
print("\n".join(out))
