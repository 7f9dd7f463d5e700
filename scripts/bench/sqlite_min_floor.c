/* The minimal floor: the least any store with a change log can cost, whatever its schema choices (issue 16).
 *
 * Usage: sqlite_min_floor DB COUNT
 * One prepared insert per table in one transaction; WAL, synchronous=NORMAL, a 64 MiB cache; 10 accounts; rows of
 * (16-byte time-ordered id, account id, day as an integer, amount as integer minor units, indicator, description,
 * MCC, status, FITID), an (account, day) index, a unique (account, FITID) index, and one change-log row (integer
 * primary key, entity id, op, time) per insert. Row contents follow scripts/gen-ofx.py's (500 a day, FITID
 * GEN<i>, the same payees and amounts), so its cost compares with `coffer import` of the same count.
 * Prints "insert_seconds S", "insert_rows_per_s R", "insert_cpu_seconds C".
 * Beside it, sqlite_floor.c carries Coffer's own schema choices (two amount columns, two descriptions, a stream
 * index on the change log, the default cache): the difference between the two is what those choices cost.
 */
#include "bench_rows.h"

static const int MCCS[] = {5814, 5411, 0, 0, 0, 0, 0, 5812};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s DB COUNT\n", argv[0]); return 2; }
    const char *path = argv[1];
    long count = atol(argv[2]);
    remove_store(path);

    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    check(sqlite3_exec(db,
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;"
        "CREATE TABLE txn (id BLOB PRIMARY KEY NOT NULL, account_id BLOB NOT NULL, day INTEGER NOT NULL,"
        " amount_minor INTEGER NOT NULL, indicator INTEGER NOT NULL, description TEXT NOT NULL, mcc INTEGER,"
        " status INTEGER NOT NULL, fitid TEXT NOT NULL) WITHOUT ROWID;"
        "CREATE INDEX txn_account_day ON txn(account_id, day);"
        "CREATE UNIQUE INDEX txn_fitid ON txn(account_id, fitid);"
        "CREATE TABLE change_log (seq INTEGER PRIMARY KEY, entity_id BLOB NOT NULL, op INTEGER NOT NULL,"
        " time INTEGER NOT NULL);", 0, 0, 0), db, "schema");

    unsigned char accounts[10][16];
    for (int a = 0; a < 10; a++)
        for (int b = 0; b < 16; b++) accounts[a][b] = (unsigned char)(mix(1000 + a * 16 + b) & 0xff);
    sqlite3_stmt *ins, *log;
    check(sqlite3_prepare_v2(db, "INSERT INTO txn VALUES (?,?,?,?,?,?,?,1,?)", -1, &ins, 0), db, "prepare");
    check(sqlite3_prepare_v2(db, "INSERT INTO change_log(entity_id, op, time) VALUES (?,0,?)", -1, &log, 0),
          db, "prepare log");

    double t0 = now(), c0 = cpu();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    int64_t ms = (int64_t)time(NULL) * 1000;
    for (long i = 0; i < count; i++) {
        bench_row r;
        make_row(&r, i, ms);
        sqlite3_bind_blob(ins, 1, r.id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(ins, 2, accounts[i % 10], 16, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 3, 18262 + i / 500);
        sqlite3_bind_int64(ins, 4, r.cents);
        sqlite3_bind_int(ins, 5, r.credit ? 0 : 1);
        sqlite3_bind_text(ins, 6, PAYEES[(r.h >> 40) % 10], -1, SQLITE_STATIC);
        if (MCCS[r.kind]) sqlite3_bind_int(ins, 7, MCCS[r.kind]); else sqlite3_bind_null(ins, 7);
        sqlite3_bind_text(ins, 8, r.fitid, -1, SQLITE_STATIC);
        check(sqlite3_step(ins), db, "insert");
        sqlite3_reset(ins);
        sqlite3_bind_blob(log, 1, r.id, 16, SQLITE_STATIC);
        sqlite3_bind_int64(log, 2, ms);
        check(sqlite3_step(log), db, "log");
        sqlite3_reset(log);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    double seconds = now() - t0, cpuSeconds = cpu() - c0;
    printf("insert_seconds %.6f\ninsert_rows_per_s %.0f\ninsert_cpu_seconds %.6f\n", seconds, count / seconds, cpuSeconds);
    sqlite3_finalize(ins);
    sqlite3_finalize(log);
    sqlite3_close(db);
    return 0;
}
