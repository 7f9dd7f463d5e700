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
w("| format | transactions | median wall s | tx/s (wall) | tx/s (CPU) | peak MiB | stored | vs SQLite floor (wall / CPU) | target |")
w("|---|---:|---:|---:|---:|---:|---:|---:|---|")
for n in sizes:
    floor_wall, floor_cpu = num(f"floor.{n}.insert_seconds"), num(f"floor.{n}.insert_cpu_seconds")
    for f, label in [("ofx1", "OFX 1.02 SGML"), ("ofx2", "OFX 2.2 XML"), ("camt", "camt.053"), ("csv", "CSV (Chase)")]:
        m = num(f"import.{f}.{n}.median_s")
        u, s = num(f"import.{f}.{n}.user_s"), num(f"import.{f}.{n}.sys_s")
        cpu = (u or 0) + (s or 0)
        rate = n / m if m else None
        crate = n / cpu if cpu else None
        peak = num(f"import.{f}.{n}.peak_mib")
        ratio = ""
        target, ok = "", None
        if f in ("ofx1", "ofx2") and floor_wall and m:
            ratio = f"{m / floor_wall:.2f}x / {cpu / floor_cpu:.2f}x" if floor_cpu else f"{m / floor_wall:.2f}x"
        if n == big and n >= 1_000_000 and f in ("ofx1", "ofx2"):
            target, ok = "≥250k/s, ≤1.2x floor", bool(rate and rate >= 250_000 and m / floor_wall <= 1.2)
        if n == big and n >= 1_000_000 and f == "csv":
            target, ok = "≥180k/s", bool(rate and rate >= 180_000)
        mem_ok = peak is not None and peak < 128
        target = (target + "; " if target else "") + "<128 MiB" + mark(mem_ok)
        w(f"| {label} | {n:,} | {fmt(m, 2)} | {fmt(rate)} | {fmt(crate)} | {fmt(peak, 1)} | {F.get(f'import.{f}.{n}.stored', '?')} "
          f"| {ratio} | {target}{mark(ok) if ok is not None else ''} |")
    fr = num(f"floor.{n}.insert_rows_per_s")
    w(f"| SQLite floor (C, insert only) | {n:,} | {fmt(floor_wall, 2)} | {fmt(fr)} | "
      f"{fmt(n / floor_cpu if floor_cpu else None)} | | | 1x | |")

w("\n## Re-import and overlap (OFX 1.02, " + f"{big:,} transactions)\n")
w("| case | median wall s | tx/s (wall) | tx/s (CPU) | peak MiB | target |")
w("|---|---:|---:|---:|---:|---|")
for key, label, target, floor in [(f"reimport.same.{big}", "identical file again (ledger short-circuit)", "≥1M/s", 1_000_000),
                                   (f"reimport.force.{big}", "identical file with --force (dedupe, no writes)", "", None),
                                   (f"overlap.{big}", "overlapping statement (half its days already stored)", "", None)]:
    m = num(key + ".median_s")
    cpu = (num(key + ".user_s") or 0) + (num(key + ".sys_s") or 0)
    rate = big / m if m else None
    ok = None if floor is None or rate is None else rate >= floor
    w(f"| {label} | {fmt(m, 3)} | {fmt(rate)} | {fmt(big / cpu if cpu else None)} | {fmt(num(key + '.peak_mib'), 1)} | {target}{mark(ok)} |")
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
                          ("query.deep_page", f"sorted by date, offset {big * 9 // 10:,}, limit 1,000 (library)", None)]:
    med = num(key + ".median_us")
    ratio = f"{med / floor_q:.1f}x" if key == "query.account_date" and med and floor_q else ""
    ok = None if limit is None or med is None else med < limit
    w(f"| {label} | {F.get(key + '.rows', '—')} | {fmt(med, 0)} µs | {fmt(num(key + '.p90_us'), 0)} µs | "
      f"{F.get(key + '.runs', '—')} | {ratio} | {'<1 ms' + mark(ok) if limit else ''} |")
cli = num(f"cli.account_date.{big}.median_s")
w(f"| account + 2-day range, one-shot `coffer transactions --format ndjson` | {F.get('cli.account_date.rows', '—')} | "
  f"{fmt(cli * 1000 if cli else None, 1)} ms | | {F.get(f'cli.account_date.{big}.runs', '—')} | | <25 ms{mark(cli is not None and cli < 0.025)} |")
w(f"| SQLite floor: same query by hand in C | {F.get(f'floor.{big}.query_rows', '—')} | {fmt(floor_q, 0)} µs | | 300 | 1x | |")

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
