#include "CSQLiteTuning.h"
#include <sqlite3.h>

int coffer_sqlite_configure(void) {
    // Memory statistics off: with them on, SQLite takes a process-wide mutex around every malloc and free to
    // count bytes (5.6% of an OFX import's CPU in perf, issue 16). Coffer reads no memory statistics and sets no
    // soft heap limit, which are what the counting serves.
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
