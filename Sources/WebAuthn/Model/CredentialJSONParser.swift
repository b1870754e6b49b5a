/// Parses the credential JSON a client sends (`RegistrationResponseJSON`, `AuthenticationResponseJSON`) in one pass with
/// ``JSONReader``. This is the hot path of every ceremony: the server's verify routes and the CLI parse with it
/// (`parse(_:)`); the types' `Codable` conformances are for clients that build and send credentials.
enum CredentialJSONParser {
    struct Envelope<Response: Codable & Hashable & Sendable> {
        var id: String
        var rawId: [UInt8]
        var type: PublicKeyCredentialType
        var response: Response
        var authenticatorAttachment: AuthenticatorAttachment?
        var clientExtensionResults: [String: JSONValue]
    }

    /// Reads the envelope common to both credential kinds; `response` reads the kind-specific `response` object.
    static func parse<Response: Codable & Hashable & Sendable>(
        _ bytes: [UInt8],
        response readResponse: (inout JSONReader) throws(JSONReader.Failure) -> Response
    ) throws(WebAuthnError) -> Envelope<Response> {
        var id: String?
        var rawId: [UInt8]?
        var type: String?
        var response: Response?
        var attachment: String?
        var extensions: [String: JSONValue]?
        var reader = JSONReader(bytes)
        do {
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                switch key {
                case "id": id = try reader.readString()
                case "rawId":
                    guard let bytes = try reader.readBase64() else {
                        throw .init(description: "rawId is not base64url", isBase64Failure: true)
                    }
                    rawId = bytes
                case "type": type = try reader.readString()
                case "response": response = try readResponse(&reader)
                case "authenticatorAttachment": attachment = try reader.readValue().stringValue
                case "clientExtensionResults", "getClientExtensionResults":
                    if case .object(let object) = try reader.readValue(),
                        extensions == nil || key == "clientExtensionResults"
                    {
                        extensions = object
                    }
                default: try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            if error.isBase64Failure { throw WebAuthnError(.invalidBase64, "credential \(error.description)") }
            throw WebAuthnError(.malformedCredential, "credential JSON is not valid: \(error.description)")
        }
        guard let type else { throw missing("type") }
        guard let response else { throw missing("response") }
        let (finalID, finalRawID) = try reconcile(id: id, rawId: rawId)
        return Envelope(
            id: finalID, rawId: finalRawID, type: PublicKeyCredentialType(rawValue: type), response: response,
            authenticatorAttachment: attachment.map(AuthenticatorAttachment.init(rawValue:)),
            clientExtensionResults: extensions ?? [:]
        )
    }

    /// `id` and `rawId` must agree; either alone is enough.
    static func reconcile(id: String?, rawId: [UInt8]?) throws(WebAuthnError) -> (String, [UInt8]) {
        switch (id, rawId) {
        case (let id?, let rawId?):
            guard Base64URL.text(id, encodes: rawId) else {
                throw WebAuthnError(.credentialIdMismatch, "credential id and rawId differ")
            }
            return (id, rawId)
        case (let id?, nil):
            guard let bytes = Base64URL.decode(id) else { throw notBase64("id") }
            return (id, bytes)
        case (nil, let rawId?):
            return (Base64URL.encode(rawId), rawId)
        case (nil, nil):
            throw WebAuthnError(.malformedCredential, "credential JSON has neither id nor rawId")
        }
    }

    /// Reads a required base64url member of `response`.
    static func bytes(_ reader: inout JSONReader, _ name: String) throws(JSONReader.Failure) -> [UInt8] {
        guard let bytes = try reader.readBase64() else {
            throw .init(description: "response.\(name) is not base64url", isBase64Failure: true)
        }
        return bytes
    }

    /// Reads an informational member leniently: a value of the wrong shape is ignored, not an error.
    static func lenientBytes(_ reader: inout JSONReader) throws(JSONReader.Failure) -> [UInt8]? {
        try reader.readValue().stringValue.flatMap { Base64URL.decode($0) }
    }

    static func missing(_ field: String) -> WebAuthnError {
        WebAuthnError(.malformedCredential, "credential JSON is missing \(field)")
    }

    static func notBase64(_ field: String) -> WebAuthnError {
        WebAuthnError(.invalidBase64, "credential \(field) is not base64url")
    }
}

extension PublicKeyCredential {
    init(_ envelope: CredentialJSONParser.Envelope<Response>) {
        self.init(
            id: envelope.id, rawId: envelope.rawId, type: envelope.type, response: envelope.response,
            authenticatorAttachment: envelope.authenticatorAttachment,
            clientExtensionResults: envelope.clientExtensionResults
        )
    }
}

extension PublicKeyCredential where Response == AuthenticatorAssertionResponse {
    init(json bytes: [UInt8]) throws(WebAuthnError) {
        let envelope = try CredentialJSONParser.parse(bytes) { reader throws(JSONReader.Failure) in
            var clientData: [UInt8]?
            var authData: [UInt8]?
            var signature: [UInt8]?
            var userHandle: [UInt8]?
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                switch key {
                case "clientDataJSON": clientData = try CredentialJSONParser.bytes(&reader, key)
                case "authenticatorData": authData = try CredentialJSONParser.bytes(&reader, key)
                case "signature": signature = try CredentialJSONParser.bytes(&reader, key)
                case "userHandle":
                    userHandle = reader.readNullIfPresent() ? nil : try CredentialJSONParser.bytes(&reader, key)
                default: try reader.skipValue()
                }
            }
            guard let clientData, let authData, let signature else {
                let absent = [
                    ("clientDataJSON", clientData), ("authenticatorData", authData), ("signature", signature),
                ]
                .filter { $0.1 == nil }.map { "response.\($0.0)" }
                throw .init(description: "missing \(absent.joined(separator: ", "))")
            }
            return AuthenticatorAssertionResponse(
                clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                userHandle: userHandle?.isEmpty == true ? nil : userHandle
            )
        }
        self.init(envelope)
    }
}

extension PublicKeyCredential where Response == AuthenticatorAttestationResponse {
    init(json bytes: [UInt8]) throws(WebAuthnError) {
        let envelope = try CredentialJSONParser.parse(bytes) { reader throws(JSONReader.Failure) in
            var clientData: [UInt8]?
            var attestationObject: [UInt8]?
            var authData: [UInt8]?
            var publicKey: [UInt8]?
            var algorithm: Int?
            var transports: [AuthenticatorTransport]?
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                switch key {
                case "clientDataJSON": clientData = try CredentialJSONParser.bytes(&reader, key)
                case "attestationObject": attestationObject = try CredentialJSONParser.bytes(&reader, key)
                // The convenience members are informational: a client that mangles them must not fail the
                // ceremony, which reads everything from the attestation object.
                case "authenticatorData": authData = try CredentialJSONParser.lenientBytes(&reader)
                case "publicKey": publicKey = try CredentialJSONParser.lenientBytes(&reader)
                case "publicKeyAlgorithm":
                    if case .number(let number) = try reader.readValue(), let exact = Int(exactly: number) {
                        algorithm = exact
                    }
                case "transports":
                    if case .array(let items) = try reader.readValue() {
                        transports = items.compactMap(\.stringValue).map(AuthenticatorTransport.init(rawValue:))
                    }
                default: try reader.skipValue()
                }
            }
            guard let clientData, let attestationObject else {
                let absent = [("clientDataJSON", clientData), ("attestationObject", attestationObject)]
                    .filter { $0.1 == nil }.map { "response.\($0.0)" }
                throw .init(description: "missing \(absent.joined(separator: ", "))")
            }
            return AuthenticatorAttestationResponse(
                clientDataJSON: clientData, attestationObject: attestationObject, authenticatorData: authData,
                transports: transports, publicKey: publicKey, publicKeyAlgorithm: algorithm
            )
        }
        self.init(envelope)
    }
}
