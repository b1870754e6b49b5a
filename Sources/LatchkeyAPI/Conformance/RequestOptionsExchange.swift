import WebAuthn

/// `ServerPublicKeyCredentialGetOptionsRequest`: the body of `POST /assertion/options`.
///
/// Latchkey also accepts an empty or missing `username` for a username-less (discoverable) sign-in.
public struct ServerRequestOptionsRequest: Codable, Hashable, Sendable {
    /// The account signing in; nil or empty for a username-less sign-in.
    public var username: String?
    /// Echoed in the options and enforced on the result when `required`.
    public var userVerification: UserVerificationRequirement?
    /// Client extension inputs, echoed in the options.
    public var extensions: [String: JSONValue]?

    public init(
        username: String?, userVerification: UserVerificationRequirement? = nil, extensions: [String: JSONValue]? = nil
    ) {
        self.username = username
        self.userVerification = userVerification
        self.extensions = extensions
    }
}

/// `ServerPublicKeyCredentialGetOptionsResponse`: ``ServerResponse`` plus the request options members.
/// `allowCredentials` is always present (empty for a username-less sign-in).
public struct ServerRequestOptionsResponse: Codable, Hashable, Sendable {
    public var status: ServerStatus
    public var errorMessage: String
    public var challenge: Base64URLBytes
    public var timeout: Int?
    public var rpId: String?
    public var allowCredentials: [PublicKeyCredentialDescriptor]
    public var userVerification: UserVerificationRequirement
    public var extensions: [String: JSONValue]?

    /// The response for `options`, with `status: ok`.
    public init(options: PublicKeyCredentialRequestOptions) {
        self.status = .ok
        self.errorMessage = ""
        self.challenge = options.challenge
        self.timeout = options.timeout
        self.rpId = options.rpId
        self.allowCredentials = options.allowCredentials ?? []
        self.userVerification = options.userVerification ?? .preferred
        self.extensions = options.extensions
    }

    /// The L3 request options this response carries.
    public var options: PublicKeyCredentialRequestOptions {
        PublicKeyCredentialRequestOptions(
            challenge: challenge.bytes, timeout: timeout, rpId: rpId,
            allowCredentials: allowCredentials.isEmpty ? nil : allowCredentials,
            userVerification: userVerification, extensions: extensions
        )
    }
}
