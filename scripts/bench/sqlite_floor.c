/* The SQLite floor: the least a store of these rows can cost, to measure Coffer's import and query against.
 *
 * Usage: sqlite_floor DB COUNT [QUERY_ITERATIONS]
 * Inserts COUNT invented transactions shaped like scripts/gen-ofx.py's (500 a day, FITID GEN<i>, payee, memo,
 * amount, MCC) with prepared statements in one transaction, WAL, a time-ordered 16-byte key, an (account, date)
 * index, a unique (account, external_id) index and one change-log row per insert. Then runs the account +
 * date-range query (2 days = 1,000 rows) by hand, reading every column, QUERY_ITERATIONS times.
 * Prints "insert_seconds S", "insert_rows_per_s R", "insert_cpu_seconds C", "query_rows N", "query_median_us U".
 */
#include <string.h>

#include "bench_rows.h"

static const int MCCS[] = {5814, 5411, 0, 0, 0, 0, 0, 5812};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}




static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s DB COUNT [QUERY_ITERATIONS]\n", argv[0]); return 2; }
    const char *path = argv[1];
    long count = atol(argv[2]);
    int iterations = argc > 3 ? atoi(argv[3]) : 1000;
    remove_store(path);

    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    check(sqlite3_exec(db,
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE txn (id BLOB PRIMARY KEY NOT NULL, account_id BLOB NOT NULL, amount TEXT NOT NULL,"
        " amount_scaled INTEGER NOT NULL, currency_code TEXT NOT NULL, indicator INTEGER NOT NULL,"
        " description TEXT NOT NULL, original_description TEXT NOT NULL, mcc INTEGER, type INTEGER NOT NULL,"
        " status INTEGER NOT NULL, transaction_date INTEGER NOT NULL, posted_date INTEGER, external_id TEXT,"
        " created_seq INTEGER NOT NULL);"
        "CREATE INDEX txn_account_date ON txn(account_id, transaction_date);"
        "CREATE UNIQUE INDEX txn_external_id ON txn(account_id, external_id) WHERE external_id IS NOT NULL;"
        "CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, entity INTEGER NOT NULL,"
        " op INTEGER NOT NULL, entity_id BLOB NOT NULL, account_id BLOB NOT NULL, committed_at INTEGER NOT NULL);"
        "CREATE INDEX change_log_stream ON change_log(entity, account_id, seq);", 0, 0, 0), db, "schema");

    unsigned char account[16];
    account_id(account);
    sqlite3_stmt *ins, *log;
    check(sqlite3_prepare_v2(db, "INSERT INTO txn VALUES (?,?,?,?,'USD',?,?,?,?,?,1,?,?,?,?)", -1, &ins, 0), db, "prepare");
    check(sqlite3_prepare_v2(db, "INSERT INTO change_log(entity, op, entity_id, account_id, committed_at) VALUES (2,0,?,?,?)",
                             -1, &log, 0), db, "prepare log");

    double t0 = now(), c0 = cpu();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    int64_t ms = (int64_t)time(NULL) * 1000;
    for (long i = 0; i < count; i++) {
        bench_row r;
        make_row(&r, i, ms);
        char amount[32], memo[64];
        snprintf(amount, sizeof amount, "%ld.%02ld", r.cents / 100, r.cents % 100);
        snprintf(memo, sizeof memo, "%s Generated transaction %ld", PAYEES[(r.h >> 40) % 10], i);
        int64_t day = 18262 + i / 500; /* days since 1970 from 2020-01-01 */
        sqlite3_bind_blob(ins, 1, r.id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(ins, 2, account, 16, SQLITE_STATIC);
        sqlite3_bind_text(ins, 3, amount, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 4, r.cents);
        sqlite3_bind_int(ins, 5, r.credit ? 0 : 1);
        sqlite3_bind_text(ins, 6, PAYEES[(r.h >> 40) % 10], -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 7, memo, -1, SQLITE_STATIC);
        if (MCCS[r.kind]) sqlite3_bind_int(ins, 8, MCCS[r.kind]); else sqlite3_bind_null(ins, 8);
        sqlite3_bind_int(ins, 9, r.kind);
        sqlite3_bind_int64(ins, 10, day * 86400000LL);
        sqlite3_bind_int64(ins, 11, day * 86400000LL + 43200000LL);
        sqlite3_bind_text(ins, 12, r.fitid, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 13, i + 1);
        check(sqlite3_step(ins), db, "insert");
        sqlite3_reset(ins);
        sqlite3_bind_blob(log, 1, r.id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(log, 2, account, 16, SQLITE_STATIC);
        sqlite3_bind_int64(log, 3, ms);
        check(sqlite3_step(log), db, "log");
        sqlite3_reset(log);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    double seconds = now() - t0, cpuSeconds = cpu() - c0;
    printf("insert_seconds %.6f\ninsert_rows_per_s %.0f\ninsert_cpu_seconds %.6f\n", seconds, count / seconds, cpuSeconds);
    sqlite3_finalize(ins);
    sqlite3_finalize(log);

    /* The account + date-range query: two days in the middle = 1,000 rows, every column read. */
    sqlite3_stmt *q;
    check(sqlite3_prepare_v2(db, "SELECT id, account_id, amount, amount_scaled, currency_code, indicator, description,"
                             " original_description, mcc, type, status, transaction_date, posted_date, external_id"
                             " FROM txn WHERE account_id = ? AND transaction_date >= ? AND transaction_date < ?"
                             " ORDER BY transaction_date", -1, &q, 0), db, "prepare query");
    int64_t first = 18262 + (count / 500) / 2;
    double *samples = malloc(sizeof(double) * (size_t)(iterations > 0 ? iterations : 1));
    long rows = 0;
    for (int it = 0; it < iterations; it++) {
        double s = now();
        sqlite3_bind_blob(q, 1, account, 16, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, first * 86400000LL);
        sqlite3_bind_int64(q, 3, (first + 2) * 86400000LL);
        rows = 0;
        long sink = 0;
        while (sqlite3_step(q) == SQLITE_ROW) {
            for (int c = 0; c < 14; c++) sink += sqlite3_column_bytes(q, c);
            rows++;
        }
        sqlite3_reset(q);
        samples[it] = (now() - s) * 1e6;
        if (sink < 0) puts("");
    }
    qsort(samples, (size_t)iterations, sizeof(double), cmp);
    printf("query_rows %ld\nquery_median_us %.1f\n", rows, iterations > 0 ? samples[iterations / 2] : 0.0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    free(samples);
    return 0;
}
