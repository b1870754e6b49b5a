import WebAuthn

/// An authentication response (`AuthenticatorAssertionResponseJSON`) with its client data and authenticator data decoded.
struct AssertionResponseReport: Encodable {
    /// Opaque bytes: base64url, length, and text when they are text (user handles often are).
    struct Bytes: Encodable {
        let base64url: String
        let length: Int
        let text: String?

        init(_ bytes: [UInt8]) {
            base64url = Base64URL.encode(bytes)
            length = bytes.count
            text = ReadableText.of(bytes)
        }
    }

    let clientDataJSON: Parsed<ClientDataReport>
    let authenticatorData: Parsed<AuthenticatorDataReport>
    let signature: Bytes
    let userHandle: Bytes?

    init(_ response: AuthenticatorAssertionResponse) {
        clientDataJSON = Parsed { () throws(WebAuthnError) in try ClientDataReport(bytes: response.clientDataJSON.bytes)
        }
        authenticatorData = Parsed { () throws(WebAuthnError) in
            AuthenticatorDataReport(try AuthenticatorData(bytes: response.authenticatorData.bytes))
        }
        signature = Bytes(response.signature.bytes)
        userHandle = response.userHandle.map { Bytes($0.bytes) }
    }
}
