import Foundation
import WebAuthn

/// What a registration ceremony remembers between its options and its verification (the stored ceremony's
/// payload, JSON): the WebAuthn library's ``WebAuthn/PendingRegistration`` and what the server adds to it.
struct RegistrationState: Codable, Sendable {
    enum Purpose: String, Codable, Sendable {
        /// A new account with its first passkey; the user is created when the ceremony finishes.
        case signUp
        /// Another passkey for an existing account.
        case addPasskey
    }

    var purpose: Purpose
    /// The account the passkey is for (made at finish for a sign-up).
    var userID: UUID
    /// The label for the new passkey.
    var label: String?
    /// Whether the ceremony was begun for a passkey sign-up sheet, which names the account only at verify.
    var accountCreation: Bool?
    /// The challenge, the user entity, the UV requirement and the mediation.
    var pending: PendingRegistration
}
