#include "CSQLiteTuning.h"
#include <sqlite3.h>

int coffer_sqlite_configure(void) {
    // Memory statistics off: with them on, SQLite takes a process-wide mutex around every malloc and free to
    // count bytes (5.6% of an OFX import's CPU in perf, issue 16). Coffer reads no memory statistics and sets no
    // soft heap limit, which are what the counting serves.
    int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (rc != SQLITE_OK) return rc;
    // Statement journals stay in memory up to 120 KiB instead of 64 KiB. A statement that changes a stored row
    // fires the undo journal's trigger, so SQLite keeps a journal of the pages it touches. A row update or delete
    // can pass 64 KiB (`strace -k` caught one when the 2 MB page cache wrote pages out mid-statement), and from
    // then on the journal is a file for the rest of the transaction, written through the kernel by every later
    // statement: undoing a 100k import made 1.3 million `pwrite`s to it, and an import updating 100k rows 1.46
    // million. SQLite allocates the journal in one chunk of this size, so it stays under glibc's 128 KiB mmap
    // threshold: at 1 MiB and 4 MiB, a 1M import's peak memory grew by 5 and 9 MiB (freeing a large mmapped chunk
    // raises the threshold, and the heap then keeps more).
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 120 * 1024);
}
