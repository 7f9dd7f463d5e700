/* What each index on Coffer's transaction table costs per inserted row, in SQLite alone.
 *
 * Usage: index_cost DB COUNT MASK
 *   MASK is a string of 0/1 flags, one per candidate index below, e.g. 000000 (none) or 110100.
 * Builds the txn and change_log tables as Coffer's schema has them, creates the indexes MASK selects, then inserts
 * COUNT rows shaped like scripts/gen-ofx.py's (500 a day, FITID, payee, day-prefixed fingerprint text) with a
 * change-log row each, prepared statements in one transaction, WAL; prints the CPU microseconds per row.
 * Build: cc -O2 -o index_cost scripts/bench/index_cost.c -lsqlite3
 * Measured 2026-11-22 (2 cores, 200k rows): 6.0 us/row with no txn index, 11.9 with all six (111111), 9.0 with
 * what an OFX import writes now (110110), 8.4 with the SQLite floor's set (110100): about 1 us an index.
 */
#include <string.h>

#include "bench_rows.h"

static const char *INDEXES[] = {
    "CREATE INDEX txn_account_date ON txn(account_id, transaction_date)",
    "CREATE UNIQUE INDEX txn_external_id ON txn(account_id, external_id) WHERE external_id IS NOT NULL",
    "CREATE UNIQUE INDEX txn_fingerprint ON txn(account_id, fingerprint, occurrence) WHERE fingerprint IS NOT NULL",
    "CREATE INDEX txn_open ON txn(account_id, transaction_date) WHERE status IN (0, 3)",
    "CREATE INDEX txn_date ON txn(transaction_date)",
    "CREATE INDEX txn_account_id ON txn(account_id, id)"};




int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s DB COUNT MASK\n", argv[0]); return 2; }
    const char *path = argv[1], *mask = argv[3];
    long count = atol(argv[2]);
    remove_store(path);
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE txn (id BLOB PRIMARY KEY NOT NULL, account_id BLOB NOT NULL, amount TEXT NOT NULL,"
        " amount_scaled INTEGER NOT NULL, currency_code TEXT NOT NULL, foreign_amount TEXT, foreign_currency_code TEXT,"
        " exchange_rate TEXT, indicator INTEGER NOT NULL, description TEXT NOT NULL, original_description TEXT NOT NULL,"
        " mcc INTEGER, merchant_name TEXT, type INTEGER NOT NULL, status INTEGER NOT NULL, transaction_date INTEGER NOT NULL,"
        " posted_date INTEGER, external_id TEXT, fingerprint TEXT, occurrence INTEGER, created_seq INTEGER NOT NULL);"
        "CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, entity INTEGER NOT NULL, op INTEGER NOT NULL,"
        " entity_id BLOB NOT NULL, account_id BLOB NOT NULL, committed_at INTEGER NOT NULL, import_id INTEGER);"
        "CREATE INDEX change_log_stream ON change_log(entity, account_id, seq);", 0, 0, 0), db, "schema");
    for (size_t i = 0; mask[i] && i < sizeof INDEXES / sizeof *INDEXES; i++)
        if (mask[i] == '1') check(sqlite3_exec(db, INDEXES[i], 0, 0, 0), db, INDEXES[i]);

    unsigned char account[16];
    account_id(account);
    sqlite3_stmt *ins, *log;
    check(sqlite3_prepare_v2(db, "INSERT INTO txn(id, account_id, amount, amount_scaled, currency_code, indicator,"
        " description, original_description, mcc, merchant_name, type, status, transaction_date, posted_date,"
        " external_id, fingerprint, occurrence, created_seq) VALUES (?,?,?,?,'USD',?,?,?,?,?,?,1,?,?,?,?,1,?)", -1, &ins, 0), db, "prepare");
    check(sqlite3_prepare_v2(db, "INSERT INTO change_log(entity, op, entity_id, account_id, committed_at)"
        " VALUES (2,0,?,?,?)", -1, &log, 0), db, "prepare log");
    double c0 = cpu();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    int64_t ms = (int64_t)time(NULL) * 1000;
    for (long i = 0; i < count; i++) {
        uint64_t h = mix((uint64_t)i);
        int kind = (int)(h % 8);
        long cents = 100 + (long)((h >> 8) % 249900);
        unsigned char id[16];
        row_id(id, ms, i, h);
        char amount[32], fitid[32], fp[64];
        snprintf(amount, sizeof amount, "%ld.%02ld", cents / 100, cents % 100);
        snprintf(fitid, sizeof fitid, "GEN%010ld", i);
        int64_t day = 18262 + i / 500;
        snprintf(fp, sizeof fp, "2020-%02lld-%02lld:%016llx", (long long)(day / 30 % 12 + 1), (long long)(day % 28 + 1),
                 (unsigned long long)mix(h));
        const char *payee = PAYEES[(h >> 40) % 10];
        sqlite3_bind_blob(ins, 1, id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(ins, 2, account, 16, SQLITE_STATIC);
        sqlite3_bind_text(ins, 3, amount, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 4, cents * 10000);
        sqlite3_bind_int(ins, 5, kind == 2);
        sqlite3_bind_text(ins, 6, payee, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 7, payee, -1, SQLITE_STATIC);
        if (kind < 2) sqlite3_bind_int(ins, 8, 5411); else sqlite3_bind_null(ins, 8);
        sqlite3_bind_text(ins, 9, payee, -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 10, kind);
        sqlite3_bind_int64(ins, 11, day * 86400000LL);
        sqlite3_bind_int64(ins, 12, day * 86400000LL + 43200000LL);
        sqlite3_bind_text(ins, 13, fitid, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 14, fp, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 15, i + 1);
        check(sqlite3_step(ins), db, "insert");
        sqlite3_reset(ins);
        sqlite3_bind_blob(log, 1, id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(log, 2, account, 16, SQLITE_STATIC);
        sqlite3_bind_int64(log, 3, ms);
        check(sqlite3_step(log), db, "log");
        sqlite3_reset(log);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    printf("mask %s: %.2f us/row of CPU\n", mask, (cpu() - c0) / count * 1e6);
    sqlite3_finalize(ins);
    sqlite3_finalize(log);
    sqlite3_close(db);
    return 0;
}
