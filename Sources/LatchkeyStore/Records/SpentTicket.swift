import Foundation

/// Which WebAuthn ceremony a ticket belongs to.
public enum CeremonyKind: String, Sendable, Hashable, Codable, CaseIterable {
    case registration
    case authentication
}

/// A ceremony ticket that has been used: recorded so the ticket cannot be used again while it could still be opened.
///
/// A server keeps a pending ceremony in the ticket it gives the client (sealed, so only the server can read or make
/// one); the store keeps no pending state, only which tickets were spent. The finish that commits spends its ticket in
/// the same transaction as the outcome (``LatchkeyStore/commitAuthentication(spending:credentialID:newSignCount:backedUp:usedAt:session:previousSignCount:)``),
/// and a finish that fails spends it on its own (``LatchkeyStore/spendTicket(_:)``), so each challenge is tried once.
/// After ``expiresAt`` the ticket is refused as expired before the store is asked, and the record can go
/// (``LatchkeyStore/purgeSpentTickets(now:)``).
public struct SpentTicket: Sendable, Hashable {
    /// What names the ticket: URL-safe (`A–Z a–z 0–9 - _`), 1 to ``maximumIDLength`` characters (a server uses the
    /// sealed ticket's expiry in hex and then its random nonce, so that IDs sort as they expire; the store relies on
    /// neither).
    ///
    /// A ticket is the pair of its ID and ``expiresAt``: a store may key its records by both (SQLite keys them by expiry
    /// first, so that purges read its primary key), so the same ticket must always come with the same expiry. A server's
    /// does, since the expiry is sealed in the ticket with its nonce.
    public var id: String
    /// When the ticket expires: until then it must stay spent.
    public var expiresAt: Date

    public init(id: String, expiresAt: Date) {
        self.id = id
        self.expiresAt = expiresAt
    }

    /// The longest ID the store accepts.
    public static let maximumIDLength = 128

    /// Throws ``StoreError/Code/invalidRecord`` unless the ticket can be recorded.
    func validate() throws(StoreError) {
        try URLSafeID.validate(id, maximumLength: Self.maximumIDLength, what: "a spent ticket id")
    }
}

/// The rule for IDs a client echoes back (spent tickets, Apple web states, Apple nonces): 1 to `maximumLength`
/// URL-safe characters (`A–Z a–z 0–9 - _`).
enum URLSafeID {
    /// Throws ``StoreError/Code/invalidRecord`` unless `id` follows the rule.
    static func validate(_ id: String, maximumLength: Int = 128, what: String) throws(StoreError) {
        // By UTF-8 byte: any byte of a non-ASCII character is at least 0x80, so it fails every range here.
        let urlSafe = id.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
        guard (1...maximumLength).contains(id.utf8.count), urlSafe else {
            throw StoreError(
                .invalidRecord, "\(what) must be 1 to \(maximumLength) URL-safe characters (A-Z a-z 0-9 - _)")
        }
    }
}
