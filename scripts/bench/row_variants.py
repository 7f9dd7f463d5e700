#!/usr/bin/env python3
"""What a narrower transaction row or fewer b-trees would save SQLite per imported row, on real rows.

    scripts/bench/row_variants.py STORE [RUNS]

STORE is a store an import made (for example bench-out/stores/ofx1-100000.sqlite). For each variant below, the
script makes an empty database with the store's own `txn` and `change_log` tables and indexes, changed as the
variant says, and copies the store's rows into it with one `INSERT … SELECT` per table inside one transaction,
WAL, `synchronous=NORMAL`, as an import writes. It prints the CPU microseconds per row (user + sys of this
process, SQLite's work: one statement per table, so none of Coffer's per-row statement overhead), the median of
RUNS (default 3) alternating rounds, and each variant against the current schema.

The variants are what issue 16's floor gap would ask the steering group to decide: a schema change, each a
migration rewriting every row of an existing store. Nothing here changes Coffer.
"""
import os
import re
import sqlite3
import statistics
import sys
import time

store, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
src = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
ddl = {name: sql for name, sql in src.execute(
    "SELECT name, sql FROM sqlite_master WHERE tbl_name IN ('txn', 'change_log') AND type IN ('table', 'index') "
    "AND sql IS NOT NULL")}
txn_columns = [r[1] for r in src.execute("PRAGMA table_info(txn)")]
log_columns = [r[1] for r in src.execute("PRAGMA table_info(change_log)")]
rows = src.execute("SELECT count(*) FROM txn").fetchone()[0]
src.close()
indexes = [n for n in ddl if n not in ("txn", "change_log")]


def variant(name, drop_indexes=(), column_sql=None, table_sql=None, log_table_sql=None):
    return dict(name=name, drop=set(drop_indexes), column_sql=column_sql or {}, table_sql=table_sql,
                log_table_sql=log_table_sql)


def without_autoincrement(sql):
    return sql.replace("AUTOINCREMENT", "")


VARIANTS = [
    variant("current schema"),
    variant("no txn_date index (txn_local_day kept)", drop_indexes=["txn_date"]),
    variant("no txn_local_day index (txn_date kept)", drop_indexes=["txn_local_day"]),
    variant("fingerprint as an 8-byte integer, not 27 bytes of text",
            column_sql={"fingerprint": "(created_seq * 2654435761) % 9223372036854775783"}),
    variant("no folded_text (search would fold at query time)", column_sql={"folded_text": "''"}),
    variant("no amount text (amount_scaled only)", column_sql={"amount": "''"}),
    variant("original_description only when it differs", column_sql={
        "original_description": "CASE WHEN original_description = description THEN NULL ELSE original_description END"}),
    variant("change_log without AUTOINCREMENT", log_table_sql=without_autoincrement),
    variant("all of the above but the two index rows", drop_indexes=["txn_date"], column_sql={
        "fingerprint": "(created_seq * 2654435761) % 9223372036854775783", "folded_text": "''", "amount": "''",
        "original_description": "CASE WHEN original_description = description THEN NULL ELSE original_description END"},
        log_table_sql=without_autoincrement),
]


def run(v, path):
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    txn_sql = ddl["txn"]
    if "fingerprint" in v["column_sql"]:
        txn_sql = re.sub(r"fingerprint TEXT", "fingerprint INTEGER", txn_sql)
    txn_sql = re.sub(r"amount TEXT NOT NULL", "amount TEXT", txn_sql)
    txn_sql = re.sub(r"original_description TEXT NOT NULL", "original_description TEXT", txn_sql)
    db.execute(txn_sql)
    log_sql = ddl["change_log"]
    if v["log_table_sql"]:
        log_sql = v["log_table_sql"](log_sql)
    db.execute(log_sql)
    for name in indexes:
        if name not in v["drop"]:
            db.execute(ddl[name])
    db.execute(f"ATTACH DATABASE 'file:{store}?mode=ro' AS src")
    select = ", ".join(v["column_sql"].get(c, c) for c in txn_columns)
    start = time.process_time()
    db.execute("BEGIN")
    db.execute(f"INSERT INTO main.txn({', '.join(txn_columns)}) SELECT {select} FROM src.txn ORDER BY rowid")
    db.execute(f"INSERT INTO main.change_log({', '.join(log_columns)}) SELECT {', '.join(log_columns)} "
               "FROM src.change_log ORDER BY seq")
    db.execute("COMMIT")
    db.execute("DETACH DATABASE src")
    db.close()
    return (time.process_time() - start) * 1e6 / rows


path = os.environ.get("TMPDIR", "/tmp") + "/coffer-row-variants.sqlite"
results = {v["name"]: [] for v in VARIANTS}
for r in range(runs):
    order = VARIANTS if r % 2 == 0 else VARIANTS[::-1]
    for v in order:
        results[v["name"]].append(run(v, path))
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
base = statistics.median(results[VARIANTS[0]["name"]])
print(f"{rows:,} rows from {store}, {runs} alternating rounds, CPU µs per row (median)")
print("| variant | µs per row | vs current |")
print("|---|---:|---:|")
for v in VARIANTS:
    m = statistics.median(results[v["name"]])
    print(f"| {v['name']} | {m:.2f} | {m / base:.2f}x ({m - base:+.2f}) |")
