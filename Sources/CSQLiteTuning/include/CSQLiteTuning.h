#ifndef COFFER_CSQLITETUNING_H
#define COFFER_CSQLITETUNING_H

/// Process-wide SQLite settings that must be made before SQLite initializes, through `sqlite3_config`, which is
/// variadic and so cannot be called from Swift. Returns SQLite's result code (SQLITE_MISUSE, 21, when SQLite was
/// already initialized: the settings then stay as they were, which is harmless).
int coffer_sqlite_configure(void);

#endif
