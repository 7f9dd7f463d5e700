/* What the two C benchmark programs share: the generated rows' ingredients and small helpers.
 * Included by sqlite_floor.c and index_cost.c (header-only: each program is one `cc` command). */
#ifndef COFFER_BENCH_ROWS_H
#define COFFER_BENCH_ROWS_H
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* The payees scripts/gen-ofx.py writes. */
static const char *PAYEES[] = {"Corner Cafe", "Greenleaf Market", "Northwind Payroll", "City Transit",
    "Blue Door Bistro", "Harbor Fuel", "Pinecone Books", "Lakeside Parking", "Maple Pharmacy", "Summit Gym"};

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

/* splitmix64: the deterministic per-row randomness. */
static uint64_t mix(uint64_t z) {
    z *= 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Removes the store file and its WAL and shared-memory files. */
static void remove_store(const char *path) {
    char name[4096];
    unlink(path);
    snprintf(name, sizeof name, "%s-wal", path); unlink(name);
    snprintf(name, sizeof name, "%s-shm", path); unlink(name);
}

/* The 16-byte account id every row belongs to. */
static inline void account_id(unsigned char account[16]) {
    for (int i = 0; i < 16; i++) account[i] = (unsigned char)(mix(1000 + i) & 0xff);
}

/* Row i's time-ordered key: 48-bit milliseconds, then a counter, then random bits (UUIDv7-like). */
static void row_id(unsigned char id[16], int64_t ms, long i, uint64_t h) {
    for (int b = 0; b < 6; b++) id[b] = (unsigned char)(ms >> (40 - 8 * b));
    id[6] = (unsigned char)(0x70 | ((i >> 24) & 0x0f)); id[7] = (unsigned char)(i >> 16);
    id[8] = (unsigned char)(0x80 | ((i >> 8) & 0x3f)); id[9] = (unsigned char)i;
    for (int b = 10; b < 16; b++) id[b] = (unsigned char)(h >> (8 * (b - 10)));
}
/* Row i's ingredients, as scripts/gen-ofx.py writes them: its hash, kind (payee and MCC index), amount in cents,
 * direction, time-ordered key and FITID. */
typedef struct {
    uint64_t h;
    int kind;
    long cents;
    int credit;
    unsigned char id[16];
    char fitid[32];
} bench_row;

static inline void make_row(bench_row *r, long i, int64_t ms) {
    r->h = mix((uint64_t)i);
    r->kind = (int)(r->h % 8);
    r->cents = 100 + (long)((r->h >> 8) % 249900);
    r->credit = r->kind == 2 || r->kind == 7;
    row_id(r->id, ms, i, r->h);
    snprintf(r->fitid, sizeof r->fitid, "GEN%010ld", i);
}
#endif
