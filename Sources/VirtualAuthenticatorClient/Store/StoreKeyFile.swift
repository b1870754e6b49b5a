import Crypto
import Foundation

/// The random 32-byte key file used when no passphrase is set: created once with mode 0600, refused when
/// others can read it (as SSH refuses a private key file that is too open).
enum StoreKeyFile {
    static let byteCount = 32

    /// The key in `path`, created with fresh random bytes when the file does not exist.
    static func loadOrCreate(at path: String) throws(CredentialFileError) -> SymmetricKey {
        if !FileManager.default.fileExists(atPath: path) {
            let key = SymmetricKey(size: .bits256)
            do {
                try AtomicFile.createExclusively(path, key.withUnsafeBytes { Array($0) })
                return key
            } catch {
                // Another process created it first: use theirs.
                guard FileManager.default.fileExists(atPath: path) else {
                    throw .keyFile(path: path, reason: "cannot be created: \(error)")
                }
            }
        }
        return try load(at: path)
    }

    /// The key in the existing file `path`.
    static func load(at path: String) throws(CredentialFileError) -> SymmetricKey {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = attributes[.posixPermissions] as? NSNumber
        else {
            throw .keyFile(
                path: path, reason: "is missing; the store was encrypted with it and cannot be read without it")
        }
        guard permissions.intValue & 0o077 == 0 else {
            throw .keyFile(
                path: path,
                reason: "is readable by other users (mode \(String(permissions.intValue, radix: 8))); run chmod 600")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .keyFile(path: path, reason: "cannot be read")
        }
        guard data.count == byteCount else {
            throw .keyFile(path: path, reason: "holds \(data.count) bytes, not \(byteCount)")
        }
        return SymmetricKey(data: data)
    }
}
