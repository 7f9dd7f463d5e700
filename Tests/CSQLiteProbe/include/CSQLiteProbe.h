#ifndef COFFER_SQLITE_PROBE_H
#define COFFER_SQLITE_PROBE_H

/// Makes a counting wrapper of SQLite's default VFS the default. Call it after the process's first store is open
/// (sqlite3_config must run before SQLite initializes). Every later connection then opens its files through it.
int coffer_probe_install(void);

/// The statement journals (SQLITE_OPEN_SUBJOURNAL) this thread has opened as files since the install.
long coffer_probe_statement_journal_files(void);

#endif
