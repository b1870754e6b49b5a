#ifndef LATCHKEY_CSQLITESETTINGS_H
#define LATCHKEY_CSQLITESETTINGS_H

/// Turns off SQLite's memory statistics for the process (`sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`): SQLite then
/// allocates without taking its process-wide statistics mutex. Swift cannot call the variadic `sqlite3_config`, so
/// this is C. Returns SQLite's result code: `SQLITE_OK`, or `SQLITE_MISUSE` once SQLite has been initialized (any
/// database opened) in the process, when the setting can no longer change.
int latchkey_sqlite_turn_off_memory_statistics(void);

#endif
