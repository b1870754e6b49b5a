import LatchkeyStore

/// Why the server's own ceremony rules refused a request. The WebAuthn checks throw ``WebAuthn/WebAuthnError`` and the
/// store ``LatchkeyStore/StoreError``; none of them knows HTTP. ``APIError/init(_:)`` is the one table that gives each
/// its status and stable code.
enum CeremonyError: Error, Sendable, Equatable {
    /// No pending ceremony for the ticket: spent, never issued here, changed, or for another kind or purpose (`detail`).
    case notFound(CeremonyKind, detail: String? = nil)
    /// The ceremony expired (or its ticket holds state of a shape this version cannot read).
    case expired(CeremonyKind)
    /// A sign-up or a rename to a name another account has.
    case nameTaken(String, addPasskeyHint: Bool = false)
    /// A sign-up with a name that looks like another account's (the same UTS #39 confusables skeleton).
    case nameConfusable(String)
    /// The assertion names a credential that is not registered (deleted, or another RP's).
    case credentialNotFound(id: [UInt8], rpID: String)
    /// The passkey's sign count moved while this sign-in verified: another sign-in with it committed first.
    case concurrentSignIn
    /// Adding a passkey without a session.
    case sessionRequired
    /// Adding a passkey with the session of another account than the ceremony's.
    case wrongUser

    /// One example of every case, for the table's tests and docs.
    static let examples: [CeremonyError] = [
        .notFound(.registration), .notFound(.authentication, detail: "x"), .expired(.authentication),
        .nameTaken("x"), .nameTaken("x", addPasskeyHint: true), .nameConfusable("x"),
        .credentialNotFound(id: [1], rpID: "example.com"),
        .concurrentSignIn, .sessionRequired, .wrongUser,
    ]
}
