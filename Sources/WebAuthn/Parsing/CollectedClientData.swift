/// The client data (WebAuthn §5.8.1) that the browser or platform collected and the authenticator signed over.
public struct CollectedClientData: Sendable, Hashable {
    /// `webauthn.create`, `webauthn.get` (or `payment.get`).
    public let type: String
    /// The challenge bytes (decoded from the base64url string the client wrote).
    public let challenge: [UInt8]
    /// The origin of the page or app.
    public let origin: String
    /// Whether the ceremony ran in a cross-origin frame.
    public let crossOrigin: Bool
    /// The top-level origin of a cross-origin ceremony.
    public let topOrigin: String?
    /// The token-binding status, when present.
    public let tokenBindingStatus: String?
    /// The JSON bytes exactly as sent: the signature covers their SHA-256.
    public let rawValue: [UInt8]

    /// The type of a registration.
    public static let createType = "webauthn.create"
    /// The type of an authentication.
    public static let getType = "webauthn.get"

    /// Parses client data JSON. Unknown members are ignored (the spec lets clients add them); a known member that
    /// appears twice is rejected, so no two parsers can read different values from the same bytes.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        var type: String?
        var challenge: [UInt8]?
        var origin: String?
        var crossOrigin: Bool?
        var topOrigin: String?
        var tokenBindingStatus: String?
        var seen = KnownMembers()
        var reader = JSONReader(bytes)
        do {
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                guard seen.insert(key) else { throw .init(description: "member \"\(key)\" appears twice") }
                switch key {
                case "type": type = try reader.readString()
                case "challenge":
                    guard let bytes = try reader.readBase64() else {
                        throw .init(description: "challenge is not base64url")
                    }
                    challenge = bytes
                case "origin": origin = try reader.readString()
                case "crossOrigin": crossOrigin = reader.readNullIfPresent() ? nil : try reader.readBool()
                case "topOrigin": topOrigin = reader.readNullIfPresent() ? nil : try reader.readString()
                case "tokenBinding":
                    // Token binding is gone from Level 3; early Firefox sent a bare string here. Only the
                    // Level 2 object form carries a status to check.
                    tokenBindingStatus = try reader.readValue()["status"]?.stringValue
                default: try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON is not valid: \(error.description)")
        }
        guard let type, let challenge, let origin else {
            let missing = [("type", type == nil), ("challenge", challenge == nil), ("origin", origin == nil)].filter(
                \.1
            ).map(\.0)
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON is missing \(missing.joined(separator: ", "))")
        }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin ?? false
        self.topOrigin = topOrigin
        self.tokenBindingStatus = tokenBindingStatus
        self.rawValue = bytes
    }

    /// The members read above, as bits: a known member seen twice is an error; unknown ones are skipped.
    private struct KnownMembers {
        private static let names = ["type", "challenge", "origin", "crossOrigin", "topOrigin", "tokenBinding"]
        private var bits: UInt8 = 0

        /// Records `key`; false when it is a known member already seen.
        mutating func insert(_ key: String) -> Bool {
            guard let index = Self.names.firstIndex(of: key) else { return true }
            let bit: UInt8 = 1 << index
            defer { bits |= bit }
            return bits & bit == 0
        }
    }
}
