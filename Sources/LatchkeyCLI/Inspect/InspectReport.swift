/// What `inspect` prints: what the value is, how it was given, and its contents under a key named for its kind.
///
/// ```json
/// { "kind": "authenticatorData", "input": { "source": "argument", "encoding": "base64url", "length": 37 },
///   "authenticatorData": { … } }
/// ```
struct InspectReport: Encodable {
    enum Kind: String {
        case registrationCredential, authenticationCredential, clientDataJSON, attestationObject
        case authenticatorData, coseKey, certificate, certificates, cbor, json
    }

    struct Input: Encodable {
        let source: InspectInput.Source
        let encoding: String
        let length: Int
    }

    let kind: Kind
    let input: Input
    let body: any Encodable

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind.rawValue, forKey: Key("kind"))
        try container.encode(input, forKey: Key("input"))
        try container.encode(body, forKey: Key(kind.rawValue))
    }
}
