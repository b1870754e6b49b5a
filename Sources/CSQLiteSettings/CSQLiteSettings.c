#include "CSQLiteSettings.h"

#include <sqlite3.h>

int latchkey_sqlite_turn_off_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
