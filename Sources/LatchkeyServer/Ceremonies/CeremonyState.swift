import Foundation
import WebAuthn

/// What a registration ceremony remembers between its options and its verification (the stored ceremony's
/// payload, JSON).
struct RegistrationState: Codable, Sendable {
    enum Purpose: String, Codable, Sendable {
        /// A new account with its first passkey; the user is created when the ceremony finishes.
        case signUp
        /// Another passkey for an existing account.
        case addPasskey
    }

    var purpose: Purpose
    var userID: UUID
    var userHandle: Data
    var name: String
    var displayName: String
    /// Whether the result must have UV set.
    var requireUserVerification: Bool
    /// The label for the new passkey.
    var label: String?
    /// Whether the ceremony was begun for conditional mediation (an automatic passkey upgrade), whose result may
    /// lack UP. Absent (false) in ceremonies stored before it existed.
    var conditional: Bool?
    /// Whether the ceremony was begun for a passkey sign-up sheet, which names the account only at verify.
    var accountCreation: Bool?
}

/// What an authentication ceremony remembers between its options and its verification.
struct AuthenticationState: Codable, Sendable {
    /// The `allowCredentials` sent; empty for a username-less sign-in.
    var allowedCredentialIDs: [Data]
    var requireUserVerification: Bool
    /// Whether the options named an account that does not exist (``DecoyCredentials``): any passkey then fails
    /// as another account's does. Absent (false) in ceremonies stored before it existed.
    var decoy: Bool? = nil
}

/// The user-verification requirement a ceremony enforces: `required` when the server's policy or the request
/// says so — a request can make the policy stricter, never looser.
func effectiveUserVerification(
    requested: UserVerificationRequirement?, policy: UserVerificationRequirement
) -> UserVerificationRequirement {
    if policy == .required { return .required }
    return requested ?? policy
}
