import Foundation
import WebAuthn

/// The JSON a hybrid app's web side receives from ``PasskeyBridge``:
/// `{"ok":true,"data":{…}}` or `{"ok":false,"errMsg":"…","code":"…"}`.
enum BridgeEnvelope {
    /// The success envelope around a credential; `transports` is repeated at the top of `data`, where
    /// mini-program and web-view bridges look for it.
    static func success(_ credential: some Encodable, transports: [AuthenticatorTransport]?) -> String {
        encode(Success(data: CredentialData(credential: credential, transports: transports)))
            ?? failure(AuthenticatorError(.failed, "the credential could not be encoded as JSON"))
    }

    /// The failure envelope for `error`.
    static func failure(_ error: AuthenticatorError) -> String {
        encode(Failure(errMsg: error.message, code: error.code.rawValue))
            ?? #"{"code":"failed","errMsg":"the error could not be encoded as JSON","ok":false}"#
    }

    private static func encode(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Success<Payload: Encodable>: Encodable {
        let ok = true
        let data: Payload
    }

    private struct Failure: Encodable {
        let ok = false
        let errMsg: String
        let code: String
    }

    /// The credential's own JSON with `transports` added beside `id`, `rawId`, `type` and `response`.
    private struct CredentialData<Credential: Encodable>: Encodable {
        let credential: Credential
        let transports: [AuthenticatorTransport]?

        enum CodingKeys: String, CodingKey { case transports }

        func encode(to encoder: any Encoder) throws {
            try credential.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(transports, forKey: .transports)
        }
    }
}
