import Foundation
import WebAuthn

/// The iOS 26 / macOS 26 passkey sign-up sheet (`ASAuthorizationAccountCreationProvider`): the system asks for the
/// user's email address or phone number (and name), then makes the passkey, in one step.
public struct AccountCreationRequest: Sendable, Hashable {
    /// `ASContactIdentifierRequest`: what the sheet may ask for.
    public enum ContactKind: Sendable, Hashable, CaseIterable {
        /// An email address.
        case email
        /// A phone number.
        case phoneNumber
    }

    /// The relying party ID from the server's options.
    public var relyingPartyIdentifier: String
    /// The challenge from the server's options.
    public var challenge: Data
    /// The user handle from the server's options.
    public var userID: Data
    /// The kinds of contact the sheet may collect as the account's name.
    public var acceptedContacts: [ContactKind]
    /// Whether the sheet also asks for the user's name.
    public var requestsName: Bool
    /// `timeout`, when the server gave one.
    public var timeout: Duration?

    /// The request for the server's creation options (their challenge and user ID).
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` as ``PlatformRegistrationRequest`` does, or when no contact
    ///   kind is accepted; ``AuthenticatorError/Code/unsupported`` when the options do not allow ES256.
    public init(
        options: PublicKeyCredentialCreationOptions, defaultRelyingPartyIdentifier: String? = nil,
        acceptedContacts: [ContactKind] = [.email], requestsName: Bool = true
    ) throws(AuthenticatorError) {
        let registration = try PlatformRegistrationRequest(
            options: options, defaultRelyingPartyIdentifier: defaultRelyingPartyIdentifier, allowsSecurityKeys: false
        )
        guard registration.providers == [.platform] else {
            throw AuthenticatorError(
                .unsupported, "the account creation sheet makes ES256 passkeys, which the options do not allow")
        }
        guard !acceptedContacts.isEmpty else {
            throw AuthenticatorError(
                .invalidOptions, "the account creation sheet needs an email address or a phone number to ask for")
        }
        relyingPartyIdentifier = registration.relyingPartyIdentifier
        challenge = registration.challenge
        userID = registration.userID
        self.acceptedContacts = acceptedContacts
        self.requestsName = requestsName
        timeout = registration.timeout
    }
}

/// What the passkey sign-up sheet returned: the contact the user chose (the account's name on the server), their
/// name when asked for, and the passkey.
public struct AccountCreationResult: Sendable, Hashable {
    /// `ASContactIdentifier`.
    public enum Contact: Sendable, Hashable {
        /// The email address the user entered.
        case email(String)
        /// The phone number the user entered.
        case phoneNumber(String)

        /// The email address or phone number.
        public var value: String {
            switch self {
            case .email(let value), .phoneNumber(let value): value
            }
        }
    }

    /// The contact the user entered: the account's name.
    public var contact: Contact
    /// The given name, when the sheet asked for it and the user gave it.
    public var givenName: String?
    /// The family name, when the sheet asked for it and the user gave it.
    public var familyName: String?
    /// The new passkey.
    public var registration: PlatformRegistrationResult

    /// A result as given.
    public init(
        contact: Contact, givenName: String? = nil, familyName: String? = nil, registration: PlatformRegistrationResult
    ) {
        self.contact = contact
        self.givenName = givenName
        self.familyName = familyName
        self.registration = registration
    }

    /// The user's name as one display name ("Given Family"), or nil when the sheet did not ask or the user gave none.
    public var displayName: String? {
        let parts = [givenName, familyName].compactMap { $0?.isEmpty == false ? $0 : nil }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The passkey as `RegistrationResponseJSON`.
    public func credential() throws(AuthenticatorError) -> RegistrationCredential {
        try PlatformCredentialMapping.registration(registration)
    }
}
