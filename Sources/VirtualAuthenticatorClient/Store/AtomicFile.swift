import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and crash-safe writes: a write goes to a temporary file beside the target, is flushed
/// with `fsync`, and replaces the target by `rename`, so a reader sees the old file or the new one, never a
/// partial one. Files are created with mode 0600.
enum AtomicFile {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(CredentialFileError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, reason: "cannot be read")
        }
        return Array(data)
    }

    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: [UInt8], to path: String) throws(CredentialFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).tmp-\(UInt64.random(in: 0...UInt64.max))"
        try createExclusively(temporary, bytes)
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw .io(path: path, reason: "cannot replace the file: \(reason)")
        }
        syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Creates `path` (which must not exist) with mode 0600, writes `bytes` and flushes them to disk.
    static func createExclusively(_ path: String, _ bytes: [UInt8]) throws(CredentialFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot create: \(errorText())") }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count, let base = buffer.baseAddress {
                let result = Foundation.write(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write: \(errorText())"
                    return
                }
                written += result
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot flush to disk: \(errorText())" }
        close(descriptor)
        if let failure {
            unlink(path)
            throw .io(path: path, reason: failure)
        }
    }

    /// Flushes a directory entry change (the rename) to disk; best effort, as some file systems refuse.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
