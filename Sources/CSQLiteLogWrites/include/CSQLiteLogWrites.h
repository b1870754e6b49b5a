#ifndef LATCHKEY_CSQLITELOGWRITES_H
#define LATCHKEY_CSQLITELOGWRITES_H

#include <sqlite3.h>

/// Installs, as the process's default, a VFS that writes SQLite's write-ahead log with fewer system calls; it passes
/// every other file, and every other call, to the VFS that was the default. SQLite writes each frame of the log as two
/// `pwrite`s, its 24-byte header and its page. Here a commit's frames are held as they come and written with one
/// `pwritev` once the commit frame's page has come, before SQLite makes the commit visible to other connections;
/// anything else done to the log (a read, a sync, a truncation, any other write) first writes what is held. The bytes
/// in the log, and when a commit becomes visible, are as without it. Connections opened before the call keep the VFS
/// they opened with. Only the first call installs it; every call returns that call's result, SQLite's result code
/// (`SQLITE_OK` once installed).
int latchkey_sqlite_install_log_write_batching(void);

/// What `connection`'s write-ahead log file has written through the batching VFS since it was opened: its `pwritev`
/// calls and the frames they carried. Returns 1, or 0 when the connection has no log file open through that VFS (not
/// in WAL mode, not read yet, or opened before the VFS was installed). For tests; call it on the connection's thread.
int latchkey_sqlite_log_write_counts(sqlite3 *connection, long long *writeCalls, long long *framesWritten);

#endif
