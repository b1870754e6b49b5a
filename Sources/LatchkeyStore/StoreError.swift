/// The one error type of the LatchkeyStore module: a stable machine-readable ``code`` and a human ``message``.
///
/// Codes are part of the public API: the server maps them to HTTP statuses (``Code/notFound`` → 404,
/// ``Code/conflict`` → 409, ``Code/unavailable`` → 503, …) and tests assert them, so a code never changes
/// meaning once shipped. The ``message`` is for logs and people; it never contains secrets such as tokens.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }
    }
}

extension StoreError.Code {
    /// The record asked for does not exist (or, for a scoped call, does not belong to the given user),
    /// or a record refers to a user that does not exist.
    public static let notFound: Self = "store.notFound"
    /// A unique value is taken: a credential id, a user name or handle, a user id, a ceremony id or a session token hash.
    public static let conflict: Self = "store.conflict"
    /// The ceremony existed but its `expiresAt` had passed; it has been removed.
    public static let expired: Self = "store.expired"
    /// A record breaks a rule of the model (an empty name, an oversized user handle, …); nothing was written.
    public static let invalidRecord: Self = "store.invalidRecord"
    /// A stored row could not be read back as a record (a column of the wrong type or out of range).
    public static let corruptRecord: Self = "store.corruptRecord"
    /// The database cannot be reached or opened, or the connection was lost.
    public static let unavailable: Self = "store.unavailable"
    /// The database stayed locked (by another process, or by a write holding it) past the store's bounded wait;
    /// nothing was changed, and the same call may succeed when tried again.
    public static let busy: Self = "store.busy"
    /// A store URL or configuration is malformed or asks for something unsupported (an unknown scheme, …).
    public static let invalidConfiguration: Self = "store.invalidConfiguration"
    /// The database reported an error that none of the codes above describes.
    public static let databaseError: Self = "store.databaseError"
}

extension StoreError {
    /// The database has migrations this version of Latchkey does not know: a newer one migrated it, and this one's
    /// statements may not fit its tables. Refused at start-up rather than failing sign-ins one by one.
    static func newerSchema(_ migrations: [String]) -> StoreError {
        StoreError(
            .unavailable,
            "the database was migrated by a newer version of Latchkey (\(migrations.joined(separator: ", "))): run that "
                + "version or a later one, or restore a backup made before the upgrade"
        )
    }
}
