import Foundation
import Hummingbird
import LatchkeyAPI
import NIOCore
import WebAuthn

extension Request {
    private static let decoder = APIJSON.makeDecoder()

    /// The media types an HTML form can send across sites without a CORS preflight.
    private static let formMediaTypes = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]

    /// The body, already collected by ``BodyLimitMiddleware``.
    ///
    /// A body sent as a form type (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`) is
    /// refused with 415 `request.unsupportedMediaType`: only a cross-site form would send JSON that way, and
    /// refusing it keeps such forms from finishing a ceremony in a victim's browser (login CSRF).
    func bodyBytes(context: ServerRequestContext) async throws -> ByteBuffer {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        if buffer.readableBytes > 0, let contentType = headers[.contentType]?.lowercased(),
           Self.formMediaTypes.contains(where: { contentType.hasPrefix($0) }) {
            throw APIError(.unsupportedMediaType, code: "request.unsupportedMediaType", message: "send the body as Content-Type: application/json")
        }
        return buffer
    }

    /// Decodes the JSON body. Decoding failures become 400 errors naming the field: `request.malformedJSON`,
    /// `request.missingField`, `request.invalidField`; inside `credential` they become WebAuthn's
    /// `malformedCredential` / `invalidBase64`, as a bare credential body would.
    func decodeJSON<Value: Decodable>(_ type: Value.Type, context: ServerRequestContext) async throws -> Value {
        let buffer = try await bodyBytes(context: context)
        guard buffer.readableBytes > 0 else {
            throw APIError.badRequest("request.malformedJSON", "the request needs a JSON body")
        }
        do {
            return try Self.decoder.decode(Value.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError(decodingError: error)
        }
    }

    /// Decodes the JSON body, or returns nil when there is none.
    func decodeJSONIfPresent<Value: Decodable>(_ type: Value.Type, context: ServerRequestContext) async throws -> Value? {
        let buffer = try await bodyBytes(context: context)
        guard buffer.readableBytes > 0 else { return nil }
        return try await decodeJSON(type, context: context)
    }
}

extension APIError {
    init(decodingError error: DecodingError) {
        let (kind, context): (String, DecodingError.Context?) = switch error {
        case .keyNotFound(let key, let context):
            ("missing", DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: context.debugDescription))
        case .typeMismatch(_, let context), .valueNotFound(_, let context): ("invalid", context)
        case .dataCorrupted(let context): (context.codingPath.isEmpty ? "syntax" : "corrupt", context)
        @unknown default: ("syntax", nil)
        }
        var components: [String] = []
        for key in context?.codingPath ?? [] {
            if let index = key.intValue { components.append(String(index)) } else { components.append(key.stringValue) }
        }
        let path = components.joined(separator: ".")
        let inCredential = path == "credential" || path.hasPrefix("credential.")
        switch kind {
        case "syntax":
            self = .badRequest("request.malformedJSON", "the body is not valid JSON")
        case "missing":
            self = inCredential
                ? .badRequest(WebAuthnError.Code.malformedCredential.rawValue, "credential JSON is missing \(path)")
                : .badRequest("request.missingField", "the body is missing '\(path)'")
        case "corrupt" where inCredential:
            let detail = context?.debugDescription ?? "invalid"
            let code: WebAuthnError.Code = detail.contains("base64") ? .invalidBase64 : .malformedCredential
            self = .badRequest(code.rawValue, "\(path): \(detail)")
        default:
            self = inCredential
                ? .badRequest(WebAuthnError.Code.malformedCredential.rawValue, "credential field \(path) has the wrong type")
                : .badRequest("request.invalidField", "'\(path)' has the wrong type or value")
        }
    }
}
