import CBOR

/// The attestation object (WebAuthn §6.5): format, statement and authenticator data.
public struct AttestationObject: Sendable {
    public let format: String
    public let statement: CBORMap
    public let authenticatorData: AuthenticatorData

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard !bytes.isEmpty else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject is empty")
        }
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw WebAuthnError.cbor(error, in: "attestationObject", code: .attestationObjectMalformed)
        }
        guard let map = value.mapValue else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject is not a CBOR map")
        }
        guard let format = map[text: "fmt"]?.stringValue else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject has no text field \"fmt\"")
        }
        guard let statement = map[text: "attStmt"]?.mapValue else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject has no map field \"attStmt\"")
        }
        guard let authData = map[text: "authData"]?.bytesValue else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject has no byte-string field \"authData\"")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
