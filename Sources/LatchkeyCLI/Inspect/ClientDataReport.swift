import Crypto
import Foundation
import WebAuthn

/// Client data spelled out: every field as sent, the challenge decoded, and the hash the authenticator signed.
struct ClientDataReport: Encodable {
    let type: JSONValue?
    /// The challenge as written (base64url).
    let challenge: JSONValue?
    let challengeLength: Int?
    /// The challenge bytes as text, when they are text (some SDKs put a base64url string there).
    let challengeText: String?
    let origin: JSONValue?
    let crossOrigin: JSONValue?
    let topOrigin: JSONValue?
    /// Fields beyond the standard ones (`tokenBinding`, `other_keys_can_be_added_here`, …).
    let otherFields: [String: JSONValue]?
    /// SHA-256 of the JSON bytes, hex: the `clientDataHash` signatures cover.
    let sha256: String

    private static let standardFields: Set<String> = ["type", "challenge", "origin", "crossOrigin", "topOrigin"]

    init(bytes: [UInt8]) throws(WebAuthnError) {
        guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes)) else {
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON is not a JSON object")
        }
        type = fields["type"]
        challenge = fields["challenge"]
        let challengeBytes = fields["challenge"]?.stringValue.flatMap { Base64URL.decode($0) }
        challengeLength = challengeBytes?.count
        challengeText = challengeBytes.flatMap(ReadableText.of)
        origin = fields["origin"]
        crossOrigin = fields["crossOrigin"]
        topOrigin = fields["topOrigin"]
        let others = fields.filter { !Self.standardFields.contains($0.key) }
        otherFields = others.isEmpty ? nil : others
        sha256 = Hex.encode(SHA256.hash(data: bytes))
    }

    /// Whether a JSON object looks like client data rather than a credential.
    static func matches(_ object: [String: JSONValue]) -> Bool {
        object["type"]?.stringValue != nil && object["challenge"] != nil
    }
}
