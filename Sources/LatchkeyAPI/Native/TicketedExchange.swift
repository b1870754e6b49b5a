import WebAuthn

/// An options response of the native API: the L3 JSON options for the authenticator, and the `ticket` that names
/// the pending ceremony on the server. Send the ticket back with the credential in a ``TicketedCredential``.
public struct TicketedOptions<Options: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var ticket: String
    public var options: Options

    public init(ticket: String, options: Options) {
        self.ticket = ticket
        self.options = options
    }
}

/// A verify request of the native API: the ticket from ``TicketedOptions`` and the credential JSON
/// (`RegistrationResponseJSON` or `AuthenticationResponseJSON`) the authenticator returned.
public struct TicketedCredential<Credential: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var ticket: String
    public var credential: Credential

    public init(ticket: String, credential: Credential) {
        self.ticket = ticket
        self.credential = credential
    }
}

/// `{ticket, options}` for a registration.
public typealias RegistrationOptionsResponse = TicketedOptions<PublicKeyCredentialCreationOptions>
/// `{ticket, options}` for an authentication.
public typealias AuthenticationOptionsResponse = TicketedOptions<PublicKeyCredentialRequestOptions>
/// `{ticket, credential}` finishing a registration.
public typealias RegistrationVerifyRequest = TicketedCredential<RegistrationCredential>
/// `{ticket, credential}` finishing an authentication.
public typealias AuthenticationVerifyRequest = TicketedCredential<AuthenticationCredential>
