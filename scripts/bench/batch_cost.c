/* What inserting several rows per statement would save SQLite, on a store's real rows and Coffer's own schema.
 *
 * Usage: batch_cost SRC DB ROWS_PER_STATEMENT [nofk]
 * Reads SRC's transaction rows and their change-log rows into memory, makes DB with SRC's own tables and indexes
 * (foreign keys on, WAL, synchronous=NORMAL, SQLite's default page cache, as Coffer's writer), then inserts them in
 * one transaction through prepared statements of ROWS_PER_STATEMENT rows each (1 is what Coffer's writer does: two
 * statements a row, the row and its change-log row), and prints the CPU microseconds per row, the commit and the
 * closing checkpoint included. Reading SRC is not timed. `nofk` turns foreign keys off (each row's check of its
 * account).
 * Build: cc -O2 -o batch_cost scripts/bench/batch_cost.c -lsqlite3
 * Measured 2026-11-24: see docs/benchmarks.md, "what a narrower row or one index fewer would buy".
 */
#include <string.h>

#include "bench_rows.h"

static const char **unused_payees = PAYEES;

typedef struct { sqlite3_value **values; int columns; long rows; } Rows;

static Rows read_rows(sqlite3 *src, const char *sql) {
    sqlite3_stmt *st;
    check(sqlite3_prepare_v2(src, sql, -1, &st, 0), src, sql);
    Rows r = {0, sqlite3_column_count(st), 0};
    long capacity = 1024;
    r.values = malloc(sizeof(sqlite3_value *) * capacity * r.columns);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (r.rows == capacity) {
            capacity *= 2;
            r.values = realloc(r.values, sizeof(sqlite3_value *) * capacity * r.columns);
        }
        for (int c = 0; c < r.columns; c++) r.values[r.rows * r.columns + c] = sqlite3_value_dup(sqlite3_column_value(st, c));
        r.rows++;
    }
    sqlite3_finalize(st);
    return r;
}

/* "INSERT INTO table(columns) VALUES (?,…),(?,…)…" for `batch` rows. */
static char *insert_sql(const char *table, const char *columns, int count, int batch) {
    size_t size = strlen(table) + strlen(columns) + 64 + (size_t)batch * (size_t)(count * 2 + 3);
    char *sql = malloc(size), *p = sql;
    p += sprintf(p, "INSERT INTO %s(%s) VALUES ", table, columns);
    for (int b = 0; b < batch; b++) {
        *p++ = b ? ',' : ' ';
        *p++ = '(';
        for (int c = 0; c < count; c++) { if (c) *p++ = ','; *p++ = '?'; }
        *p++ = ')';
    }
    *p = 0;
    return sql;
}

static void insert_all(sqlite3 *db, sqlite3_stmt *many, sqlite3_stmt *one, Rows *r, long first, int batch) {
    sqlite3_stmt *st = batch > 1 ? many : one;
    for (int b = 0; b < batch; b++)
        for (int c = 0; c < r->columns; c++)
            sqlite3_bind_value(st, b * r->columns + c + 1, r->values[(first + b) * r->columns + c]);
    check(sqlite3_step(st), db, "insert");
    sqlite3_reset(st);
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s SRC DB ROWS_PER_STATEMENT\n", argv[0]); return 2; }
    const char *source = argv[1], *path = argv[2];
    int batch = atoi(argv[3]);
    if (batch < 1) batch = 1;
    sqlite3 *src, *db;
    check(sqlite3_open_v2(source, &src, SQLITE_OPEN_READONLY, 0), src, "open source");
    char txn_columns[4096] = "", log_columns[1024] = "";
    sqlite3_stmt *st;
    check(sqlite3_prepare_v2(src, "SELECT group_concat(name, ', ') FROM pragma_table_info('txn')", -1, &st, 0), src, "columns");
    sqlite3_step(st); snprintf(txn_columns, sizeof txn_columns, "%s", sqlite3_column_text(st, 0)); sqlite3_finalize(st);
    check(sqlite3_prepare_v2(src, "SELECT group_concat(name, ', ') FROM pragma_table_info('change_log') WHERE name != 'seq'",
                             -1, &st, 0), src, "columns");
    sqlite3_step(st); snprintf(log_columns, sizeof log_columns, "%s", sqlite3_column_text(st, 0)); sqlite3_finalize(st);
    char sql[8192];
    snprintf(sql, sizeof sql, "SELECT %s FROM txn ORDER BY rowid", txn_columns);
    Rows txn = read_rows(src, sql);
    snprintf(sql, sizeof sql, "SELECT %s FROM change_log WHERE entity = 2 ORDER BY seq LIMIT %ld", log_columns, txn.rows);
    Rows log = read_rows(src, sql);
    if (log.rows != txn.rows) { fprintf(stderr, "the source has %ld rows and %ld change-log rows\n", txn.rows, log.rows); return 1; }

    remove_store(path);
    check(sqlite3_open(path, &db), db, "open");
    int foreign_keys = !(argc > 4 && strcmp(argv[4], "nofk") == 0);
    check(sqlite3_exec(db, foreign_keys ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON"
                                        : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", 0, 0, 0), db, "pragmas");
    snprintf(sql, sizeof sql, "ATTACH DATABASE '%s' AS src", source);
    check(sqlite3_exec(db, sql, 0, 0, 0), db, "attach");
    /* The source's own account, txn and change_log tables, then their indexes, and its accounts. */
    check(sqlite3_prepare_v2(db, "SELECT sql FROM src.sqlite_master WHERE tbl_name IN ('account', 'txn', 'change_log')"
                             " AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type = 'index', rowid", -1, &st, 0), db, "schema");
    while (sqlite3_step(st) == SQLITE_ROW) check(sqlite3_exec(db, (const char *)sqlite3_column_text(st, 0), 0, 0, 0), db, "ddl");
    sqlite3_finalize(st);
    check(sqlite3_exec(db, "INSERT INTO main.account SELECT * FROM src.account; DETACH DATABASE src", 0, 0, 0), db, "accounts");
    sqlite3_close(src);

    sqlite3_stmt *txn_one, *txn_many, *log_one, *log_many;
    char *s;
    s = insert_sql("txn", txn_columns, txn.columns, 1); check(sqlite3_prepare_v2(db, s, -1, &txn_one, 0), db, s); free(s);
    s = insert_sql("txn", txn_columns, txn.columns, batch); check(sqlite3_prepare_v2(db, s, -1, &txn_many, 0), db, s); free(s);
    s = insert_sql("change_log", log_columns, log.columns, 1); check(sqlite3_prepare_v2(db, s, -1, &log_one, 0), db, s); free(s);
    s = insert_sql("change_log", log_columns, log.columns, batch); check(sqlite3_prepare_v2(db, s, -1, &log_many, 0), db, s); free(s);

    double c0 = cpu();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    long i = 0;
    for (; i + batch <= txn.rows; i += batch) {
        insert_all(db, txn_many, txn_one, &txn, i, batch);
        insert_all(db, log_many, log_one, &log, i, batch);
    }
    for (; i < txn.rows; i++) {
        insert_all(db, txn_many, txn_one, &txn, i, 1);
        insert_all(db, log_many, log_one, &log, i, 1);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    sqlite3_finalize(txn_one); sqlite3_finalize(txn_many); sqlite3_finalize(log_one); sqlite3_finalize(log_many);
    check(sqlite3_close(db), db, "close");
    double used = cpu() - c0;
    (void)unused_payees;
    printf("rows_per_statement %d\nforeign_keys %d\nrows %ld\ninsert_cpu_us_per_row %.3f\n", batch, foreign_keys,
           txn.rows, used * 1e6 / txn.rows);
    return 0;
}
