import Foundation

/// An account: what WebAuthn calls the user entity, plus the server's own id.
///
/// ``name`` is unique case-insensitively (and regardless of Unicode normalisation): `Alice` and `alice` cannot
/// both exist, and ``LatchkeyStore/user(named:)`` finds either spelling.
public struct StoredUser: Sendable, Hashable, Codable {
    /// The server's id for the user.
    public var id: UUID
    /// The WebAuthn user handle (`user.id` in creation options): random, opaque, 1–64 bytes, unique.
    /// Give every user 32–64 random bytes; never derive it from the name or email.
    public var userHandle: Data
    /// The sign-in name (`user.name`), e.g. an email address or a nickname.
    public var name: String
    /// The human-friendly name (`user.displayName`).
    public var displayName: String
    public var createdAt: Date

    public init(id: UUID = UUID(), userHandle: Data, name: String, displayName: String, createdAt: Date = Date()) {
        self.id = id
        self.userHandle = userHandle
        self.name = name
        self.displayName = displayName
        self.createdAt = createdAt
    }

    /// The largest user handle WebAuthn allows.
    public static let maximumHandleLength = 64

    /// The form of a name that uniqueness and look-ups use: canonically composed (NFC), then lower-cased.
    ///
    /// An ASCII name is its own NFC form, so it skips Foundation's normalization (about 1 % of a sign-in's CPU).
    static func nameKey(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        return name.precomposedStringWithCanonicalMapping.lowercased()
    }

    var nameKey: String { Self.nameKey(name) }

    /// Throws ``StoreError/Code/invalidRecord`` unless the user can be stored.
    func validate() throws(StoreError) {
        guard (1...Self.maximumHandleLength).contains(userHandle.count) else {
            throw StoreError(
                .invalidRecord, "a user handle must be 1 to \(Self.maximumHandleLength) bytes, not \(userHandle.count)")
        }
        guard !nameKey.isEmpty else { throw StoreError(.invalidRecord, "a user name must not be empty") }
    }
}
