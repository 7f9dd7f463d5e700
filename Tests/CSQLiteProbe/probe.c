// Tests only: counts the statement journals SQLite spills to files, per thread.
//
// A statement journal stays in memory up to the size CSQLiteTuning sets, then becomes a temporary file, opened
// through the VFS with SQLITE_OPEN_SUBJOURNAL. Wrapping the default VFS's xOpen is the one place that sees it; the
// counter is per thread because a write runs its statements on the thread that calls them, while other tests of
// the same process open their own files on theirs.
#include <pthread.h>
#include <sqlite3.h>
#include "CSQLiteProbe.h"

static sqlite3_vfs *underlying;
static sqlite3_vfs probe;
static _Thread_local long statement_journal_files;
static int install_result = SQLITE_ERROR;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int probe_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    if (flags & SQLITE_OPEN_SUBJOURNAL) statement_journal_files++;
    return underlying->xOpen(underlying, name, file, flags, out_flags);
}

static void install(void) {
    underlying = sqlite3_vfs_find(0);
    if (!underlying) return;
    probe = *underlying;  // every other method, and its app data, as the underlying VFS has them
    probe.zName = "coffer-probe";
    probe.xOpen = probe_open;
    install_result = sqlite3_vfs_register(&probe, 1);
}

int coffer_probe_install(void) {
    pthread_once(&once, install);
    return install_result;
}

long coffer_probe_statement_journal_files(void) {
    return statement_journal_files;
}
