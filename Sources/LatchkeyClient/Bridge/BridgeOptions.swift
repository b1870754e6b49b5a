import Foundation
import WebAuthn

/// Reads the options JSON a hybrid app's web side passes through, as the server sent it.
///
/// Both the bare options object and the `{"publicKey": {…}}` form that `navigator.credentials` takes are
/// accepted. Binary fields (challenge, user ID, credential IDs) may be base64url, padded base64 or
/// standard base64 (``WebAuthn/Base64URLBytes`` decodes all three).
enum BridgeOptions {
    static func decode<Options: Decodable>(_ json: String, as type: Options.Type) throws(AuthenticatorError) -> Options
    {
        let data = Data(json.utf8)
        let decoder = JSONDecoder()
        if let wrapped = try? decoder.decode(Wrapped<Options>.self, from: data) {
            return wrapped.publicKey
        }
        do {
            return try decoder.decode(Options.self, from: data)
        } catch {
            throw AuthenticatorError(.invalidOptions, "the options JSON could not be read: \(describe(error))")
        }
    }

    private struct Wrapped<Options: Decodable>: Decodable {
        let publicKey: Options
    }

    /// A short account of a decoding failure: which field, and what was wrong with it.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = path(context.codingPath)
            return path.isEmpty ? "not a JSON object" : "bad value at \(path)"
        @unknown default:
            return "not valid options"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
