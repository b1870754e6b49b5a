/// The error body of the native API: `{"error":{"code":"…","message":"…"}}`.
///
/// `code` is stable and machine-readable (a `WebAuthnError` code such as `challengeMismatch`, or a server code
/// such as `session.required`); `message` is a human sentence that never contains secrets.
public struct APIErrorBody: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        public var code: String
        public var message: String
        /// `credential.notFound`: the credential ID (base64url) the server does not know, for
        /// `PublicKeyCredential.signalUnknownCredential({rpId, credentialId})`.
        public var credentialId: String?
        /// `credential.notFound`: the relying party ID that goes with ``credentialId``.
        public var rpId: String?
        /// `reauth.required`: how the user can prove who they are again.
        public var reauthentication: ReauthenticationOptions?

        public init(
            code: String, message: String, credentialId: String? = nil, rpId: String? = nil,
            reauthentication: ReauthenticationOptions? = nil
        ) {
            self.code = code
            self.message = message
            self.credentialId = credentialId
            self.rpId = rpId
            self.reauthentication = reauthentication
        }
    }

    public var error: Detail

    public init(
        code: String, message: String, credentialId: String? = nil, rpId: String? = nil,
        reauthentication: ReauthenticationOptions? = nil
    ) {
        self.error = Detail(
            code: code, message: message, credentialId: credentialId, rpId: rpId, reauthentication: reauthentication)
    }
}
