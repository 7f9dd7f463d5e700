/* What one change-log row costs per inserted transaction, in SQLite alone, by the log's shape.
 *
 * Usage: changelog_cost DB COUNT VARIANT
 *   VARIANT: current   AUTOINCREMENT key, (entity, account_id, seq) stream index, one INSERT per row (Coffer today)
 *            noauto    the same without AUTOINCREMENT (no sqlite_sequence update per statement)
 *            batch     AUTOINCREMENT and the index, explicit seq values, one INSERT of 64 rows at a time
 *            noindex   AUTOINCREMENT, one INSERT per row, no stream index
 * Inserts COUNT change-log rows (10 accounts, entity 2, op 0) in one transaction, WAL; prints CPU µs per row.
 * Build: cc -O2 -o changelog_cost scripts/bench/changelog_cost.c -lsqlite3
 */
#include <string.h>

#include "bench_rows.h"

#define BATCH 64

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s DB COUNT VARIANT\n", argv[0]); return 2; }
    const char *path = argv[1], *variant = argv[3];
    long count = atol(argv[2]);
    int noauto = !strcmp(variant, "noauto"), batch = !strcmp(variant, "batch"), noindex = !strcmp(variant, "noindex");
    remove_store(path);
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    char schema[1024];
    snprintf(schema, sizeof schema, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE change_log (seq INTEGER PRIMARY KEY%s, entity INTEGER NOT NULL, op INTEGER NOT NULL,"
        " entity_id BLOB NOT NULL, account_id BLOB NOT NULL, committed_at INTEGER NOT NULL, import_id INTEGER);%s",
        noauto ? "" : " AUTOINCREMENT",
        noindex ? "" : "CREATE INDEX change_log_stream ON change_log(entity, account_id, seq);");
    check(sqlite3_exec(db, schema, 0, 0, 0), db, "schema");
    char sql[BATCH * 40 + 200];
    int n = batch ? BATCH : 1;
    int len = snprintf(sql, sizeof sql, "INSERT INTO change_log(seq, entity, op, entity_id, account_id, committed_at, import_id) VALUES ");
    for (int k = 0; k < n; k++) len += snprintf(sql + len, sizeof sql - len, "%s(?,2,0,?,?,?,1)", k ? "," : "");
    sqlite3_stmt *ins;
    check(sqlite3_prepare_v2(db, sql, -1, &ins, 0), db, "prepare");
    unsigned char accounts[10][16];
    for (int a = 0; a < 10; a++) { account_id(accounts[a]); accounts[a][0] = (unsigned char)a; }
    double c0 = cpu();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    int64_t ms = 1700000000000;
    for (long i = 0; i < count; i += n) {
        for (int k = 0; k < n; k++) {
            bench_row r;
            make_row(&r, i + k, ms + i + k);
            if (batch || noauto) sqlite3_bind_int64(ins, 4 * k + 1, i + k + 1);
            else sqlite3_bind_null(ins, 4 * k + 1);
            sqlite3_bind_blob(ins, 4 * k + 2, r.id, 16, SQLITE_STATIC);
            sqlite3_bind_blob(ins, 4 * k + 3, accounts[(i + k) % 10], 16, SQLITE_STATIC);
            sqlite3_bind_int64(ins, 4 * k + 4, ms);
        }
        check(sqlite3_step(ins), db, "insert");
        sqlite3_reset(ins);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    printf("%s %.3f us/row\n", variant, (cpu() - c0) * 1e6 / count);
    sqlite3_finalize(ins);
    sqlite3_close(db);
    return 0;
}
