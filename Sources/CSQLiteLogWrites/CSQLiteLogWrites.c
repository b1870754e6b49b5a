// A VFS that writes each frame of SQLite's write-ahead log with one system call instead of two, and a commit's frames
// with one `pwritev` in all. See CSQLiteLogWrites.h for what it guarantees and why.
//
// SQLite writes a log frame as two `xWrite` calls: its 24-byte header (page number; for the last frame of a commit,
// the database's size in pages, which makes it the commit frame; salts and checksums), then the page right after it.
// Here a header is held, with the page that follows it at the next offset, until the commit frame's page has come or
// anything else happens to the file; then all that is held is written with one `pwritev` at the offset of the first
// header. Every other write, and every other call (read, sync, truncate, size, lock, file control, close), first
// writes what is held, then goes to the file as before.
//
// SQLite publishes a commit to other connections (the log index's header in shared memory) only after the commit
// frame's `xWrite` has returned, and that `xWrite` returns after the `pwritev`. So no connection, in this process or
// another, can see a frame that is not in the file; frames of a transaction that is not committed yet (SQLite spills
// pages to the log when its cache is full) are read back only through this connection's file, whose `xRead` writes
// them first. A process that dies with frames held has not committed them, which is what SQLite's recovery assumes of
// any frame after the last commit frame.

#include "CSQLiteLogWrites.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>


#define FRAME_HEADER_SIZE 24
#define LOG_HEADER_SIZE 32
// Frames a commit may hold before they are written anyway (a large transaction: a spilled cache, a migration). Two
// vectors each: 128, within IOV_MAX on Linux and macOS (1,024).
#define MAX_HELD_FRAMES 64

typedef struct HeldFrame {
    unsigned char header[FRAME_HEADER_SIZE];
    /// Where the frame's page is in the file's page buffer, and its size (0 while it has not come).
    size_t pageOffset;
    int pageSize;
} HeldFrame;

typedef struct LogFile {
    sqlite3_file base;
    /// The default VFS's file, allocated right after this struct.
    sqlite3_file *real;
    /// A descriptor of our own on the log, for `pwritev` (the default VFS does not give its own out); -1 for files
    /// that are not a log.
    int descriptor;
    /// Offset of the first held header.
    sqlite3_int64 heldStart;
    /// Offset where the next held write must begin.
    sqlite3_int64 heldEnd;
    int heldCount;
    /// What this file has written with `pwritev`, for tests (one connection's log file is used by one thread at a time).
    long long writeCalls;
    long long framesWritten;
    /// The held frames' pages, one after another; kept from commit to commit, grown when a commit needs more.
    unsigned char *pages;
    size_t pagesUsed;
    size_t pagesCapacity;
    HeldFrame held[MAX_HELD_FRAMES];
} LogFile;

static sqlite3_vfs *realVFS(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

// MARK: Writing what is held

static int writeHeld(LogFile *file) {
    if (file->heldCount == 0) return SQLITE_OK;
    struct iovec vectors[MAX_HELD_FRAMES * 2];
    int count = 0;
    for (int index = 0; index < file->heldCount; index++) {
        HeldFrame *frame = &file->held[index];
        vectors[count++] = (struct iovec){ frame->header, FRAME_HEADER_SIZE };
        if (frame->pageSize > 0) vectors[count++] = (struct iovec){ file->pages + frame->pageOffset, (size_t)frame->pageSize };
    }
    sqlite3_int64 offset = file->heldStart;
    struct iovec *next = vectors;
    int remaining = count;
    int result = SQLITE_OK;
    while (remaining > 0) {
        ssize_t written = pwritev(file->descriptor, next, remaining, (off_t)offset);
        if (written < 0) {
            if (errno == EINTR) continue;
            result = errno == ENOSPC ? SQLITE_FULL : SQLITE_IOERR_WRITE;
            break;
        }
        if (written == 0) {
            result = SQLITE_IOERR_WRITE;
            break;
        }
        file->writeCalls++;
        offset += written;
        // Step over what was written, which may end inside a vector.
        size_t left = (size_t)written;
        while (remaining > 0 && left >= next->iov_len) {
            left -= next->iov_len;
            next++;
            remaining--;
        }
        if (remaining > 0) {
            next->iov_base = (char *)next->iov_base + left;
            next->iov_len -= left;
        }
    }
    if (result == SQLITE_OK) file->framesWritten += file->heldCount;
    file->heldCount = 0;
    file->pagesUsed = 0;
    return result;
}

// MARK: Every other file: the default VFS's, unchanged

#define REAL(base) (((LogFile *)(base))->real)

static int passClose(sqlite3_file *base) { return REAL(base)->pMethods->xClose(REAL(base)); }
static int passRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(base)->pMethods->xRead(REAL(base), buffer, amount, offset);
}
static int passWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(base)->pMethods->xWrite(REAL(base), buffer, amount, offset);
}
static int passTruncate(sqlite3_file *base, sqlite3_int64 size) { return REAL(base)->pMethods->xTruncate(REAL(base), size); }
static int passSync(sqlite3_file *base, int flags) { return REAL(base)->pMethods->xSync(REAL(base), flags); }
static int passFileSize(sqlite3_file *base, sqlite3_int64 *size) { return REAL(base)->pMethods->xFileSize(REAL(base), size); }
static int passLock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xLock(REAL(base), level); }
static int passUnlock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xUnlock(REAL(base), level); }
static int passCheckReservedLock(sqlite3_file *base, int *reserved) {
    return REAL(base)->pMethods->xCheckReservedLock(REAL(base), reserved);
}
static int passFileControl(sqlite3_file *base, int operation, void *argument) {
    return REAL(base)->pMethods->xFileControl(REAL(base), operation, argument);
}
static int passSectorSize(sqlite3_file *base) { return REAL(base)->pMethods->xSectorSize(REAL(base)); }
static int passDeviceCharacteristics(sqlite3_file *base) { return REAL(base)->pMethods->xDeviceCharacteristics(REAL(base)); }
static int passShmMap(sqlite3_file *base, int region, int size, int extend, void volatile **memory) {
    return REAL(base)->pMethods->xShmMap(REAL(base), region, size, extend, memory);
}
static int passShmLock(sqlite3_file *base, int offset, int count, int flags) {
    return REAL(base)->pMethods->xShmLock(REAL(base), offset, count, flags);
}
static void passShmBarrier(sqlite3_file *base) { REAL(base)->pMethods->xShmBarrier(REAL(base)); }
static int passShmUnmap(sqlite3_file *base, int deleteFlag) { return REAL(base)->pMethods->xShmUnmap(REAL(base), deleteFlag); }
static int passFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pointer) {
    return REAL(base)->pMethods->xFetch(REAL(base), offset, amount, pointer);
}
static int passUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    return REAL(base)->pMethods->xUnfetch(REAL(base), offset, pointer);
}

// One table for each version of the default VFS's methods, so that SQLite calls no method the file lacks.
#define PASS_METHODS(version, ...) {                                                                     \
    version, passClose, passRead, passWrite, passTruncate, passSync, passFileSize, passLock, passUnlock, \
    passCheckReservedLock, passFileControl, passSectorSize, passDeviceCharacteristics, __VA_ARGS__ }
static const sqlite3_io_methods passMethods1 = PASS_METHODS(1, NULL, NULL, NULL, NULL, NULL, NULL);
static const sqlite3_io_methods passMethods2 = PASS_METHODS(2, passShmMap, passShmLock, passShmBarrier, passShmUnmap, NULL, NULL);
static const sqlite3_io_methods passMethods3 =
    PASS_METHODS(3, passShmMap, passShmLock, passShmBarrier, passShmUnmap, passFetch, passUnfetch);

// MARK: The log's methods: what is held is written first, then the call goes on as for any other file

/// Writes what `base` holds; returns its error from the calling method if that fails.
#define WRITE_HELD_OR_RETURN(base)                               \
    do {                                                         \
        int held = writeHeld((LogFile *)(base));                 \
        if (held != SQLITE_OK) return held;                      \
    } while (0)

static int logClose(sqlite3_file *base) {
    LogFile *file = (LogFile *)base;
    int held = writeHeld(file);
    close(file->descriptor);
    sqlite3_free(file->pages);
    int closed = passClose(base);
    return held != SQLITE_OK ? held : closed;
}

static int logRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    WRITE_HELD_OR_RETURN(base);
    return passRead(base, buffer, amount, offset);
}

/// A frame header when it is 24 bytes past the log's own header: the only 24-byte writes SQLite makes to a log.
static int isFrameHeader(int amount, sqlite3_int64 offset) {
    return amount == FRAME_HEADER_SIZE && offset >= LOG_HEADER_SIZE;
}

/// Whether a frame header is a commit frame's: bytes 4–7, the database's size in pages after the commit, are not 0.
static int isCommitHeader(const unsigned char *header) {
    return header[4] | header[5] | header[6] | header[7];
}

/// Room for `amount` more bytes in the page buffer; 0 when it cannot grow.
static int reservePage(LogFile *file, size_t amount) {
    if (file->pagesCapacity - file->pagesUsed >= amount) return 1;
    size_t capacity = file->pagesCapacity ? file->pagesCapacity : 16 * amount;
    while (capacity - file->pagesUsed < amount) capacity *= 2;
    unsigned char *pages = sqlite3_realloc64(file->pages, capacity);
    if (!pages) return 0;
    file->pages = pages;
    file->pagesCapacity = capacity;
    return 1;
}

/// Whether the last held frame has its header but not yet its page.
static int awaitingPage(const LogFile *file) {
    return file->heldCount > 0 && file->held[file->heldCount - 1].pageSize == 0;
}

static int logWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    LogFile *file = (LogFile *)base;
    if (awaitingPage(file) && amount > 0 && offset == file->heldEnd) {
        HeldFrame *frame = &file->held[file->heldCount - 1];
        if (!reservePage(file, (size_t)amount)) {
            // Write the header alone, then this page, as SQLite would have.
            int held = writeHeld(file);
            if (held != SQLITE_OK) return held;
            return passWrite(base, buffer, amount, offset);
        }
        frame->pageOffset = file->pagesUsed;
        memcpy(file->pages + file->pagesUsed, buffer, (size_t)amount);
        file->pagesUsed += (size_t)amount;
        frame->pageSize = amount;
        file->heldEnd = offset + amount;
        if (isCommitHeader(frame->header) || file->heldCount == MAX_HELD_FRAMES) return writeHeld(file);
        return SQLITE_OK;
    }
    if (isFrameHeader(amount, offset) && !awaitingPage(file)) {
        if (file->heldCount > 0 && offset != file->heldEnd) {
            int held = writeHeld(file);
            if (held != SQLITE_OK) return held;
        }
        if (file->heldCount == 0) file->heldStart = offset;
        HeldFrame *frame = &file->held[file->heldCount++];
        memcpy(frame->header, buffer, FRAME_HEADER_SIZE);
        frame->pageOffset = 0;
        frame->pageSize = 0;
        file->heldEnd = offset + FRAME_HEADER_SIZE;
        return SQLITE_OK;
    }
    int held = writeHeld(file);
    if (held != SQLITE_OK) return held;
    return passWrite(base, buffer, amount, offset);
}

static int logTruncate(sqlite3_file *base, sqlite3_int64 size) { WRITE_HELD_OR_RETURN(base); return passTruncate(base, size); }
static int logSync(sqlite3_file *base, int flags) { WRITE_HELD_OR_RETURN(base); return passSync(base, flags); }
static int logFileSize(sqlite3_file *base, sqlite3_int64 *size) { WRITE_HELD_OR_RETURN(base); return passFileSize(base, size); }
static int logLock(sqlite3_file *base, int level) { WRITE_HELD_OR_RETURN(base); return passLock(base, level); }
static int logUnlock(sqlite3_file *base, int level) { WRITE_HELD_OR_RETURN(base); return passUnlock(base, level); }
static int logCheckReservedLock(sqlite3_file *base, int *reserved) {
    WRITE_HELD_OR_RETURN(base);
    return passCheckReservedLock(base, reserved);
}
static int logFileControl(sqlite3_file *base, int operation, void *argument) {
    WRITE_HELD_OR_RETURN(base);
    return passFileControl(base, operation, argument);
}

// A log has no shared memory and no memory map of its own (those are the database file's); version 1 says so.
static const sqlite3_io_methods logMethods = {
    1, logClose, logRead, logWrite, logTruncate, logSync, logFileSize, logLock, logUnlock, logCheckReservedLock,
    logFileControl, passSectorSize, passDeviceCharacteristics, NULL, NULL, NULL, NULL, NULL, NULL,
};

// MARK: The VFS

static int vfsOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    LogFile *file = (LogFile *)base;
    sqlite3_file *real = (sqlite3_file *)&file[1];
    file->real = real;
    file->descriptor = -1;
    file->heldStart = 0;
    file->heldEnd = 0;
    file->heldCount = 0;
    file->writeCalls = 0;
    file->framesWritten = 0;
    file->pages = NULL;
    file->pagesUsed = 0;
    file->pagesCapacity = 0;
    int result = realVFS(vfs)->xOpen(realVFS(vfs), name, real, flags, outFlags);
    if (!real->pMethods) {
        // Nothing to close: SQLite calls no method of a file whose methods are NULL.
        base->pMethods = NULL;
        return result;
    }
    if (result == SQLITE_OK && (flags & SQLITE_OPEN_WAL) && name) {
        // No descriptor of our own (open fails): the log is written as SQLite writes it.
        file->descriptor = open(name, O_RDWR | O_CLOEXEC);
    }
    if (file->descriptor >= 0) {
        base->pMethods = &logMethods;
    } else {
        int version = real->pMethods->iVersion;
        base->pMethods = version >= 3 ? &passMethods3 : version == 2 ? &passMethods2 : &passMethods1;
    }
    return result;
}

static int vfsDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    return realVFS(vfs)->xDelete(realVFS(vfs), name, syncDirectory);
}

static int vfsAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    return realVFS(vfs)->xAccess(realVFS(vfs), name, flags, result);
}

static int vfsFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return realVFS(vfs)->xFullPathname(realVFS(vfs), name, size, out);
}

static void *vfsDlOpen(sqlite3_vfs *vfs, const char *name) { return realVFS(vfs)->xDlOpen(realVFS(vfs), name); }

static void vfsDlError(sqlite3_vfs *vfs, int size, char *message) { realVFS(vfs)->xDlError(realVFS(vfs), size, message); }

static void (*vfsDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    return realVFS(vfs)->xDlSym(realVFS(vfs), library, symbol);
}

static void vfsDlClose(sqlite3_vfs *vfs, void *library) { realVFS(vfs)->xDlClose(realVFS(vfs), library); }

static int vfsRandomness(sqlite3_vfs *vfs, int size, char *out) { return realVFS(vfs)->xRandomness(realVFS(vfs), size, out); }

static int vfsSleep(sqlite3_vfs *vfs, int microseconds) { return realVFS(vfs)->xSleep(realVFS(vfs), microseconds); }

static int vfsCurrentTime(sqlite3_vfs *vfs, double *now) { return realVFS(vfs)->xCurrentTime(realVFS(vfs), now); }

static int vfsGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    return realVFS(vfs)->xGetLastError ? realVFS(vfs)->xGetLastError(realVFS(vfs), size, out) : 0;
}

static int vfsCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    return realVFS(vfs)->xCurrentTimeInt64(realVFS(vfs), now);
}

static sqlite3_vfs logVFS;
static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static int installResult = SQLITE_ERROR;

static void install(void) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    // Version 2 (xCurrentTimeInt64) is what the default VFS has on every platform SQLite supports today.
    if (!real || real->iVersion < 2) return;
    logVFS = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(LogFile) + real->szOsFile,
        .mxPathname = real->mxPathname,
        .zName = "latchkey-log-batching",
        .pAppData = real,
        .xOpen = vfsOpen,
        .xDelete = vfsDelete,
        .xAccess = vfsAccess,
        .xFullPathname = vfsFullPathname,
        .xDlOpen = vfsDlOpen,
        .xDlError = vfsDlError,
        .xDlSym = vfsDlSym,
        .xDlClose = vfsDlClose,
        .xRandomness = vfsRandomness,
        .xSleep = vfsSleep,
        .xCurrentTime = vfsCurrentTime,
        .xGetLastError = vfsGetLastError,
        .xCurrentTimeInt64 = vfsCurrentTimeInt64,
    };
    installResult = sqlite3_vfs_register(&logVFS, 1);
}

// Once per process: a second install would wrap whatever is the default by then, which may be a VFS over this one.
int latchkey_sqlite_install_log_write_batching(void) {
    pthread_once(&installOnce, install);
    return installResult;
}

int latchkey_sqlite_log_write_counts(sqlite3 *connection, long long *writeCalls, long long *framesWritten) {
    sqlite3_file *log = NULL;
    // SQLite answers this one itself: the connection's log file in WAL mode (its rollback journal otherwise).
    if (sqlite3_file_control(connection, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK) return 0;
    if (!log || log->pMethods != &logMethods) return 0;
    *writeCalls = ((LogFile *)log)->writeCalls;
    *framesWritten = ((LogFile *)log)->framesWritten;
    return 1;
}
