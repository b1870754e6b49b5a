import WebAuthn

/// An Android app allowed to use the relying party's passkeys: its package name and the SHA-256 fingerprint of its
/// signing certificate, written `package:SHA256_FINGERPRINT` (`com.example.app:14:6D:E9:…`, colons optional).
public struct AndroidApp: Hashable, Sendable {
    /// The app's package name, e.g. `com.example.app`.
    public let packageName: String
    /// The 32 bytes of the signing certificate's SHA-256 fingerprint.
    public let fingerprint: [UInt8]

    /// Parses `package:SHA256_FINGERPRINT`; a wrong form throws a ``ConfigurationError`` naming `--android-app`.
    public init(_ text: String) throws(ConfigurationError) {
        guard let separator = text.firstIndex(of: ":") else {
            throw ConfigurationError("--android-app", "'\(text)' is not package:SHA256_FINGERPRINT")
        }
        let package = String(text[..<separator])
        let labels = package.split(separator: ".", omittingEmptySubsequences: false)
        let validLabel: (Substring) -> Bool = { label in
            guard let first = label.utf8.first, ASCIIText.isLetter(first) else { return false }
            return ASCIIText.consists(of: label, orAnyOf: "_")
        }
        guard labels.count >= 2, labels.allSatisfy(validLabel) else {
            throw ConfigurationError(
                "--android-app", "'\(package)' is not an Android package name (e.g. com.example.app)")
        }
        let hex = text[text.index(after: separator)...].replacingOccurrences(of: ":", with: "")
        guard hex.count == 64, let bytes = Hex.decode(hex) else {
            throw ConfigurationError(
                "--android-app", "the fingerprint of \(package) must be a SHA-256 in hex (32 bytes, colons optional)")
        }
        self.packageName = package
        self.fingerprint = bytes
    }

    /// The origin Android puts in client data for this app: `android:apk-key-hash:<base64url of the fingerprint>`.
    public var origin: String { "android:apk-key-hash:" + Base64URL.encode(fingerprint) }

    /// The fingerprint as Digital Asset Links writes it: upper-case hex pairs joined by colons.
    public var colonSeparatedFingerprint: String {
        let hex = Array(Hex.encode(fingerprint).uppercased())
        return stride(from: 0, to: hex.count, by: 2).map { String(hex[$0..<$0 + 2]) }.joined(separator: ":")
    }
}

/// An Apple app allowed to use the relying party's passkeys: `TEAMID.bundle.id` (a 10-character team id).
public struct AppleAppID: Hashable, Sendable, CustomStringConvertible {
    /// The app ID as written: `TEAMID.bundle.id`.
    public let value: String

    /// Parses `TEAMID.bundle.id`; a wrong form throws a ``ConfigurationError`` naming `--apple-app-id`.
    public init(_ text: String) throws(ConfigurationError) {
        let parts = text.split(separator: ".", maxSplits: 1)
        let isTeamID = parts.first.map { $0.utf8.count == 10 && ASCIIText.consists(of: $0) } ?? false
        let bundleCharacters = parts.count == 2 && !parts[1].isEmpty && ASCIIText.consists(of: parts[1], orAnyOf: ".-")
        guard isTeamID, bundleCharacters else {
            throw ConfigurationError(
                "--apple-app-id", "'\(text)' is not TEAMID.bundle.id (a 10-character team id, then the bundle id)")
        }
        self.value = text
    }

    /// The app ID as written.
    public var description: String { value }
}
