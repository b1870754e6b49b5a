import CBOR

/// The attestation object (WebAuthn §6.5): format, statement and authenticator data.
public struct AttestationObject: Sendable {
    /// The attestation statement format identifier.
    public let format: String
    /// The statement of a map format; empty for `compound`, whose statement is an array (see ``rawStatement``).
    public let statement: CBORMap
    /// `attStmt` as sent: a map, or for `compound` an array of statements.
    public let rawStatement: CBORValue
    /// The authenticator data, parsed.
    public let authenticatorData: AuthenticatorData

    /// Decodes a CBOR attestation object and its authenticator data.
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
        guard let rawStatement = map[text: "attStmt"] else {
            throw WebAuthnError(
                .attestationObjectMalformed,
                "attestationObject has no map field \"attStmt\" (an array only for compound)")
        }
        let statement: CBORMap
        switch rawStatement {
        case .map(let value):
            statement = value
        case .array where format == CompoundAttestation.formatIdentifier:
            statement = CBORMap()
        default:
            throw WebAuthnError(
                .attestationObjectMalformed,
                "attestationObject has no map field \"attStmt\" (an array only for compound)")
        }
        guard let authData = map[text: "authData"]?.bytesValue else {
            throw WebAuthnError(.attestationObjectMalformed, "attestationObject has no byte-string field \"authData\"")
        }
        self.format = format
        self.statement = statement
        self.rawStatement = rawStatement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
