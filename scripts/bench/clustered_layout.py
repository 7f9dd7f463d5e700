#!/usr/bin/env python3
"""Whether a clustered transaction table would earn its cost: the insert price and the account + day query, on real rows.

    scripts/bench/clustered_layout.py STORE [RUNS]

STORE is a store an import made (bench-out/stores/ofx1-1000000.sqlite after scripts/bench.sh). Issue 16 asks
whether a clustered layout, `txn` as a `WITHOUT ROWID` table keyed by (account_id, transaction_date, id), would turn
the account + date query into a range scan of the table itself and drop the `txn_account_date` index. For each
layout the script makes an empty database (16 KiB pages, WAL, `synchronous=NORMAL`, as a store), with the store's
own `txn` and `change_log` tables and indexes, and copies the store's rows into it in one transaction with one
`INSERT … SELECT` per table (as scripts/bench/row_variants.py does). The clustered layout keeps every index but
`txn_account_date` and adds a unique index on `id`, which the store's look-ups by id need (today the primary key's).

Printed per layout: SQLite's CPU microseconds per copied row (user + sys of this process), the median of RUNS
(default 3) alternating rounds; the account + 2-day query of `coffer-bench query` (1,000 rows of one account in the
middle of the store), run in SQL so that no Python object is made per row (`count(*)` and the sum of every column's
length: SQLite decodes each column of each row as a reader of `Transaction`s would), the two layouts alternating, 200
pairs: each one's median and the median of the per-pair ratios; its query plan; and the file's size. Nothing here changes Coffer.
"""
import os
import statistics
import sys
import time

import sqlite3

store, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
src = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
ddl = {name: sql for name, sql in src.execute(
    "SELECT name, sql FROM sqlite_master WHERE tbl_name IN ('txn', 'change_log') AND sql IS NOT NULL")}
txn_columns = [r[1] for r in src.execute("PRAGMA table_info(txn)")]
log_columns = [r[1] for r in src.execute("PRAGMA table_info(change_log)")]
rows = src.execute("SELECT count(*) FROM txn").fetchone()[0]
# One account's two days in the middle of the store, as coffer-bench's account + date query reads them.
account, start = src.execute("SELECT account_id, transaction_date FROM txn ORDER BY rowid LIMIT 1 OFFSET ?",
                             (rows // 2,)).fetchone()
day = 86_400_000
start -= start % day
src.close()

PRIMARY_KEY = "id BLOB PRIMARY KEY NOT NULL"


def clustered_txn(sql):
    if PRIMARY_KEY not in sql:
        sys.exit("clustered_layout: the store's txn table no longer starts with " + PRIMARY_KEY)
    sql = sql.replace(PRIMARY_KEY, "id BLOB NOT NULL").rstrip()
    return sql[:-1] + ", PRIMARY KEY (account_id, transaction_date, id)) WITHOUT ROWID"


def build(path, clustered):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size=16384")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(clustered_txn(ddl["txn"]) if clustered else ddl["txn"])
    db.execute(ddl["change_log"])
    for name, sql in ddl.items():
        if name in ("txn", "change_log") or (clustered and name == "txn_account_date"):
            continue
        db.execute(sql)
    if clustered:
        db.execute("CREATE UNIQUE INDEX txn_id ON txn(id)")
    db.execute(f"ATTACH DATABASE 'file:{store}?mode=ro' AS src")
    began = time.process_time()
    db.execute("BEGIN")
    db.execute(f"INSERT INTO main.txn({', '.join(txn_columns)}) SELECT {', '.join(txn_columns)} "
               "FROM src.txn ORDER BY rowid")
    db.execute(f"INSERT INTO main.change_log({', '.join(log_columns)}) SELECT {', '.join(log_columns)} "
               "FROM src.change_log ORDER BY seq")
    db.execute("COMMIT")
    cost = (time.process_time() - began) * 1e6 / rows
    db.execute("DETACH DATABASE src")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return cost


def queries(paths, iterations=200):
    """Each layout's account + 2-day query, the two run alternately (the order flipping every pair): medians of
    each, the median of the per-pair ratios (clustered over current), the rows, the plan and the file's size."""
    lengths = " + ".join(f"coalesce(length({c}), 0)" for c in txn_columns)
    sql = (f"SELECT count(*), sum({lengths}) FROM txn "
           "WHERE account_id = ? AND transaction_date >= ? AND transaction_date < ?")
    arguments = (account, start, start + 2 * day)
    dbs = {c: sqlite3.connect(f"file:{p}?mode=ro", uri=True) for c, p in paths.items()}
    found = {c: db.execute(sql, arguments).fetchone()[0] for c, db in dbs.items()}
    samples = {c: [] for c in dbs}
    for i in range(iterations):
        for c in ((False, True) if i % 2 == 0 else (True, False)):
            began = time.perf_counter()
            dbs[c].execute(sql, arguments).fetchone()
            samples[c].append(time.perf_counter() - began)
    ratio = statistics.median(b / a for a, b in zip(samples[False], samples[True]))
    plans = {c: db.execute("EXPLAIN QUERY PLAN " + sql, arguments).fetchall()[-1][-1] for c, db in dbs.items()}
    for db in dbs.values():
        db.close()
    return ({c: (statistics.median(samples[c]) * 1e6, found[c], plans[c], os.path.getsize(paths[c])) for c in dbs},
            ratio)


directory = os.environ.get("TMPDIR", "/tmp")
paths = {False: f"{directory}/coffer-layout-current.sqlite", True: f"{directory}/coffer-layout-clustered.sqlite"}
costs = {False: [], True: []}
for round in range(runs):
    for clustered in ((False, True) if round % 2 == 0 else (True, False)):
        costs[clustered].append(build(paths[clustered], clustered))
results, ratio = queries(paths)
for path in paths.values():
    os.remove(path)

print(f"{rows:,} rows from {store}, {runs} alternating rounds (medians)")
print("| layout | insert µs per row | account + 2-day query | rows | plan | file MB |")
print("|---|---:|---:|---:|---|---:|")
for clustered, name in ((False, "current (rowid table, `txn_account_date` index)"),
                        (True, "clustered (`WITHOUT ROWID`, key account, date, id)")):
    micros, found, plan, size = results[clustered]
    print(f"| {name} | {statistics.median(costs[clustered]):.2f} | {micros:,.0f} µs | {found:,} | {plan} | "
          f"{size / 1e6:,.0f} |")
print(f"\nThe query, the two layouts alternating (200 pairs): clustered ÷ current, median of the per-pair ratios "
      f"{ratio:.3f}x")
