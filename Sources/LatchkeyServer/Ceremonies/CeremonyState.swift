import Foundation
import WebAuthn

/// A ceremony's pending state as the JSON sealed in its ticket (``CeremonyTickets``): by `Codable` unless the state has
/// a faster way to the same JSON (a sign-in's, ``WebAuthn/PendingAuthentication``, written by ``JSONWriter`` and read by
/// `JSONMembers`).
protocol CeremonyState: Codable {
    /// The JSON to seal.
    func payload() throws -> Data
    /// The state from an opened ticket's JSON; throws when it is not one (sealed by a version that kept another shape).
    init(payload: Data) throws
}

/// The coders of the `Codable` path.
private enum CeremonyPayloadCoders {
    static let encoder = JSONEncoder()
    static let decoder = JSONDecoder()
}

extension CeremonyState {
    func payload() throws -> Data {
        try CeremonyPayloadCoders.encoder.encode(self)
    }

    init(payload: Data) throws {
        self = try CeremonyPayloadCoders.decoder.decode(Self.self, from: payload)
    }
}

extension PendingAuthentication: CeremonyState {
    func payload() throws -> Data {
        Data(try jsonBytes())
    }

    /// Read by WebAuthn's one-pass reader in the form ``JSONWriter`` writes (``init(storedJSON:)``), by `JSONDecoder`
    /// otherwise (another version's form, during a rolling upgrade).
    init(payload: Data) throws {
        if let state = PendingAuthentication(storedJSON: Array(payload)) {
            self = state
        } else {
            self = try CeremonyPayloadCoders.decoder.decode(Self.self, from: payload)
        }
    }
}

/// What a registration ceremony remembers between its options and its verification (sealed in its ticket): the WebAuthn library's ``WebAuthn/PendingRegistration`` and what the server adds to it.
struct RegistrationState: CeremonyState, Sendable {
    enum Purpose: String, Codable, Sendable {
        /// A new account with its first passkey; the user is created when the ceremony finishes.
        case signUp
        /// Another passkey for an existing account.
        case addPasskey
        /// A new passkey for an account being recovered (a recovery code was used): finishing it signs in.
        case recover
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
