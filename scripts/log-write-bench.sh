#!/usr/bin/env bash
# The CPU time of a sign-in's SQLite commit with SQLite's own VFS and with CSQLiteLogWrites (the VFS `latchkey` installs),
# in alternating rounds in one process: docs/PERFORMANCE.md, seventeenth round.
#
#   bash scripts/log-write-bench.sh [commits per round, default 5000]
#
# Each commit is the shape of the server's sign-in commit on SQLite: a spent ticket (a WITHOUT ROWID table keyed by
# expiry), a passkey's sign count and last use, and a session with its two indexes, in one immediate transaction, in
# WAL mode with synchronous=NORMAL; a passive checkpoint every 1,000 commits, on the same thread. Needs clang and
# SQLite's headers and library (libsqlite3-dev), which the Swift build needs anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
commits=${1:-5000}
work=$(mktemp -d /tmp/latchkey-log-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/bench.c" <<'EOF'
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "CSQLiteLogWrites.h"

static double cpuSeconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

static void run(sqlite3 *db, const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, message);
        exit(1);
    }
}

static sqlite3 *openDatabase(const char *directory, const char *name, const char *vfs) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.sqlite", directory, name);
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) != SQLITE_OK) exit(2);
    run(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
            "CREATE TABLE spent_tickets (id BLOB NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (expires_at, id)) WITHOUT ROWID;"
            "CREATE TABLE credentials (id BLOB PRIMARY KEY, user_id BLOB, sign_count INTEGER, last_used_at TEXT);"
            "CREATE TABLE sessions (token_hash BLOB PRIMARY KEY, user_id BLOB, created_at TEXT, expires_at TEXT, credential_id BLOB);"
            "CREATE INDEX sessions_user_credential ON sessions (user_id, credential_id);"
            "CREATE INDEX sessions_expires_at ON sessions (expires_at);"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 16)"
            " INSERT INTO credentials SELECT randomblob(16), randomblob(16), 0, '' FROM n;");
    sqlite3_wal_autocheckpoint(db, 0);
    return db;
}

/// CPU microseconds per commit over `count` commits.
static double commit(sqlite3 *db, int count, long *sequence) {
    double start = cpuSeconds();
    for (int index = 0; index < count; index++) {
        long n = ++*sequence;
        char sql[768];
        snprintf(sql, sizeof sql,
                 "BEGIN IMMEDIATE;"
                 "INSERT INTO spent_tickets VALUES (randomblob(16), %ld);"
                 "UPDATE credentials SET sign_count = sign_count + 1, last_used_at = '2026-11-25 16:00:00.000' WHERE rowid = %ld;"
                 "INSERT INTO sessions SELECT randomblob(32), user_id, '2026-11-25 16:00:00.000',"
                 " '2026-12-25 16:00:00.' || printf('%%03d', %ld %% 1000), id FROM credentials WHERE rowid = %ld;"
                 "COMMIT;",
                 n, 1 + n % 16, n, 1 + n % 16);
        run(db, sql);
        if (n % 1000 == 0) sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
    return (cpuSeconds() - start) / count * 1e6;
}

int main(int argc, char **argv) {
    const char *directory = argv[1];
    int count = atoi(argv[2]);
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (latchkey_sqlite_install_log_write_batching() != SQLITE_OK) return 3;
    sqlite3 *plain = openDatabase(directory, "plain", "unix");  // SQLite's own VFS, by name
    sqlite3 *batched = openDatabase(directory, "batched", NULL);  // the default: CSQLiteLogWrites
    long plainSequence = 0, batchedSequence = 0;
    commit(plain, count / 2, &plainSequence);
    commit(batched, count / 2, &batchedSequence);
    printf("round  sqlite_vfs_us_per_commit  log_writes_vfs_us_per_commit  saved_us\n");
    for (int round = 1; round <= 6; round++) {
        double a = commit(plain, count, &plainSequence);
        double b = commit(batched, count, &batchedSequence);
        printf("%5d  %24.2f  %28.2f  %8.2f\n", round, a, b, a - b);
    }
    return 0;
}
EOF

clang -O2 -o "$work/bench" "$work/bench.c" Sources/CSQLiteLogWrites/CSQLiteLogWrites.c \
    -I Sources/CSQLiteLogWrites/include -lsqlite3
"$work/bench" "$work" "$commits"
