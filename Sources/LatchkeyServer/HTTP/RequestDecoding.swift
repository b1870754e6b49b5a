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
        // BodyLimitMiddleware has collected the body within the configured limit; this only hands it over.
        let buffer = if let collected = context.collectedBody { collected } else { try await body.collect(upTo: .max) }
        if buffer.readableBytes > 0, let contentType = headers[.contentType]?.lowercased(),
            Self.formMediaTypes.contains(where: { contentType.hasPrefix($0) })
        {
            throw APIError(.requestUnsupportedMediaType, "send the body as Content-Type: application/json")
        }
        return buffer
    }

    /// Decodes the JSON body. Decoding failures become 400 errors naming the field: `request.malformedJSON`,
    /// `request.missingField`, `request.invalidField`.
    func decodeJSON<Value: Decodable>(_ type: Value.Type, context: ServerRequestContext) async throws -> Value {
        try Self.decode(Value.self, from: try await bodyBytes(context: context))
    }

    /// Decodes the JSON body, or returns nil when there is none.
    func decodeJSONIfPresent<Value: Decodable>(_ type: Value.Type, context: ServerRequestContext) async throws -> Value?
    {
        let buffer = try await bodyBytes(context: context)
        guard buffer.readableBytes > 0 else { return nil }
        return try Self.decode(Value.self, from: buffer)
    }

    /// Reads a native verify body `{ticket, credential}`. The credential is parsed once, by WebAuthn's one-pass
    /// parser (`parse`), so its failures keep WebAuthn's codes (`malformedCredential`, `invalidBase64`,
    /// `credentialIdMismatch`); a body that is not a JSON object is `request.malformedJSON`, a missing or non-string
    /// ticket `request.missingField` / `request.invalidField`.
    func decodeVerifyRequest<Credential: Codable & Hashable & Sendable>(
        context: ServerRequestContext, parse: ([UInt8]) throws(WebAuthnError) -> Credential
    ) async throws -> TicketedCredential<Credential> {
        try await decodeVerifyRequestAndMembers(context: context, parse: parse).request
    }

    /// ``decodeVerifyRequest(context:parse:)``, with the body's other members for a route that takes more.
    func decodeVerifyRequestAndMembers<Credential: Codable & Hashable & Sendable>(
        context: ServerRequestContext, parse: ([UInt8]) throws(WebAuthnError) -> Credential
    ) async throws -> (request: TicketedCredential<Credential>, members: JSONMembers) {
        let buffer = try await bodyBytes(context: context)
        let members: JSONMembers
        do {
            members = try JSONMembers(Array(buffer: buffer))
        } catch {
            throw APIError(.requestMalformedJSON, "the body is not a JSON object: \(error.description)")
        }
        guard members["ticket"] != nil else {
            throw APIError(.requestMissingField, "the body is missing 'ticket'")
        }
        guard let ticket = members.string("ticket") else {
            throw APIError(.requestInvalidField, "'ticket' must be a string")
        }
        guard let credential = members["credential"] else {
            throw WebAuthnError(.malformedCredential, "the body is missing 'credential'")
        }
        return (TicketedCredential(ticket: ticket, credential: try parse(Array(credential))), members)
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from buffer: ByteBuffer) throws -> Value {
        guard buffer.readableBytes > 0 else {
            throw APIError(.requestMalformedJSON, "the request needs a JSON body")
        }
        do {
            return try decoder.decode(Value.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError(decodingError: error)
        }
    }
}

extension APIError {
    init(decodingError error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { key in key.intValue.map(String.init) ?? key.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(.requestMissingField, "the body is missing '\(path(context.codingPath + [key]))'")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(.requestMalformedJSON, "the body is not valid JSON")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self.init(.requestInvalidField, "'\(path(context.codingPath))' has the wrong type or value")
        @unknown default:
            self.init(.requestMalformedJSON, "the body is not valid JSON")
        }
    }
}
