import Crypto
import Foundation

/// The admin API's listener and keys (`--admin-host`, `--admin-port`, `--admin-keys-file`, `LATCHKEY_ADMIN_KEYS`): off
/// unless a port is given. Each key is a `name:secret` line (or comma-separated entry); the server keeps the secrets'
/// SHA-256 only, and the name says who acted in the log.
public struct AdminConfiguration: Sendable {
    public let host: String
    public let port: Int
    /// Each key's name and the SHA-256 of its secret.
    let keys: [(name: String, digest: [UInt8])]

    /// The fewest characters a secret may have.
    public static let minimumSecretLength = 32

    /// Nil when `settings` has no `adminPort`.
    init?(_ settings: ServerSettings) throws(ConfigurationError) {
        guard let port = settings.adminPort else {
            if settings.adminKeysFile != nil || settings.adminKeys != nil || settings.adminHost != nil {
                throw ConfigurationError("--admin-port", "the admin API's keys and host need --admin-port")
            }
            return nil
        }
        guard (0...65535).contains(port) else {
            throw ConfigurationError("--admin-port", "\(port) is not a TCP port (0-65535)")
        }
        self.port = port
        host = settings.adminHost ?? "127.0.0.1"
        var entries = settings.adminKeys ?? []
        if let path = settings.adminKeysFile {
            let text = try ServerConfiguration.readText(path, for: "--admin-keys-file")
            entries += text.split(whereSeparator: \.isNewline).map(String.init)
        }
        var keys: [(String, [UInt8])] = []
        for entry in entries.map({ $0.trimmingCharacters(in: .whitespaces) })
        where !entry.isEmpty && !entry.hasPrefix("#") {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty,
                parts[1].count >= Self.minimumSecretLength,
                parts[1].unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
            else {
                throw ConfigurationError(
                    "--admin-keys-file",
                    "each key is name:secret, the secret at least \(Self.minimumSecretLength) printable ASCII characters (openssl rand -hex 32)"
                )
            }
            keys.append((String(parts[0]), Array(SHA256.hash(data: Data(parts[1].utf8)))))
        }
        guard !keys.isEmpty else {
            throw ConfigurationError("--admin-keys-file", "the admin API needs at least one key (name:secret)")
        }
        self.keys = keys
    }
}
