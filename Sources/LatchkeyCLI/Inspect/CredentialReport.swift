import WebAuthn

/// A credential JSON spelled out: the fields both kinds share, and the kind's response with each binary part decoded.
struct CredentialReport<Response: Encodable>: Encodable {
    let id: String
    let type: String
    let authenticatorAttachment: String?
    let clientExtensionResults: [String: JSONValue]
    let response: Response
}

extension CredentialReport<RegistrationResponseReport> {
    init(_ credential: RegistrationCredential) {
        self.init(
            id: credential.id, type: credential.type.rawValue,
            authenticatorAttachment: credential.authenticatorAttachment?.rawValue,
            clientExtensionResults: credential.clientExtensionResults,
            response: RegistrationResponseReport(credential.response)
        )
    }
}

extension CredentialReport<AssertionResponseReport> {
    init(_ credential: AuthenticationCredential) {
        self.init(
            id: credential.id, type: credential.type.rawValue,
            authenticatorAttachment: credential.authenticatorAttachment?.rawValue,
            clientExtensionResults: credential.clientExtensionResults,
            response: AssertionResponseReport(credential.response)
        )
    }
}
