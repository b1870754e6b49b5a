import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyAPI

extension Response {
    fileprivate static let encoder = APIJSON.makeEncoder()

    /// A JSON response of `value`, encoded with the API's coders (`Content-Type: application/json`).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
        -> Response
    {
        jsonResponse(ByteBuffer(bytes: try encoder.encode(value)), status: status, headers: headers)
    }

    /// A JSON response of a value that writes its own JSON (the same bytes, without `JSONEncoder`).
    static func json(_ value: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
        -> Response
    {
        jsonResponse(ByteBuffer(bytes: try value.jsonBytes()), status: status, headers: headers)
    }

    /// A 200 JSON response of a body encoded once (``EncodedJSON``); throws what encoding it threw.
    static func json(_ encoded: EncodedJSON, headers: HTTPFields = [:]) throws -> Response {
        jsonResponse(try encoded.body.get(), status: .ok, headers: headers)
    }

    private static func jsonResponse(_ body: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    /// 204 No Content.
    static var noContent: Response { Response(status: .noContent) }
}

/// A JSON body encoded once with the API's coders, for answers that do not change while the server runs (the well-known
/// files): each request shares the bytes instead of encoding the value again. A value that cannot be encoded fails each
/// request that answers with it, as encoding it there would.
struct EncodedJSON: Sendable {
    fileprivate let body: Result<ByteBuffer, any Error>

    init(_ value: some Encodable) {
        body = Result { ByteBuffer(bytes: try Response.encoder.encode(value)) }
    }
}
