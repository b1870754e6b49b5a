/// Why the encrypted credential file could not be read or written. Nothing is overwritten when reading fails.
public enum CredentialFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The passphrase or key file is not the one the file was written with.
    case wrongKey(path: String)
    /// The file is not a credential file, or its contents were altered or cut short.
    case corrupted(path: String, reason: String)
    /// The file was written by a newer format version.
    case unsupportedVersion(path: String, version: Int)
    /// The key file is missing, unreadable, not private, or not 32 bytes.
    case keyFile(path: String, reason: String)
    /// The file's scrypt parameters are out of range.
    case invalidKeyDerivation(path: String, reason: String)
    /// Reading or writing failed in the file system.
    case io(path: String, reason: String)

    /// What went wrong with the file.
    public var description: String {
        switch self {
        case .wrongKey(let path):
            "\(path): wrong passphrase or key file (LATCHKEY_STORE_PASSPHRASE must be the one the store was created with)"
        case .corrupted(let path, let reason):
            "\(path) is corrupted: \(reason); it was left as it is"
        case .unsupportedVersion(let path, let version):
            "\(path) has format version \(version), which this version of Latchkey cannot read"
        case .keyFile(let path, let reason):
            "key file \(path): \(reason)"
        case .invalidKeyDerivation(let path, let reason):
            "\(path): invalid scrypt parameters: \(reason)"
        case .io(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
