#ifndef LATCHKEY_CSQLITESETTINGS_H
#define LATCHKEY_CSQLITESETTINGS_H

#include <sqlite3.h>

/// Turns off SQLite's memory statistics for the process (`sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`): SQLite then
/// allocates without taking its process-wide statistics mutex. Swift cannot call the variadic `sqlite3_config`, so
/// this is C. Returns SQLite's result code: `SQLITE_OK`, or `SQLITE_MISUSE` once SQLite has been initialized (any
/// database opened) in the process, when the setting can no longer change.
int latchkey_sqlite_turn_off_memory_statistics(void);

/// Makes a VFS that writes SQLite's write-ahead log with fewer system calls the process's default (over the default
/// VFS, which it passes every other file and call to unchanged). SQLite writes each frame of the log as two `pwrite`s,
/// its 24-byte header and its page; with this VFS a commit's frames are held as they come and written with one
/// `pwritev` when the commit frame's page has come, before SQLite makes the commit visible to other connections.
/// Anything else done to the log (a read, a sync, a truncation, any other write) first writes what is held. The log's
/// bytes, their order and when a commit is visible are unchanged; only the number of system calls is. Connections
/// opened before the call keep the VFS they opened with. Returns SQLite's result code (`SQLITE_OK` when it is
/// installed, or was already).
int latchkey_sqlite_install_log_write_batching(void);

/// What `connection`'s write-ahead log file has written through the batching VFS since it was opened: its `pwritev`
/// calls and the frames they carried. Returns 1, or 0 when the connection has no log file open through that VFS (not
/// in WAL mode, not read yet, or opened before the VFS was installed). For tests; call it on the connection's thread.
int latchkey_sqlite_log_write_counts(sqlite3 *connection, long long *writeCalls, long long *framesWritten);

#endif
