import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyAPI

extension Response {
    private static let encoder = APIJSON.makeEncoder()

    /// A JSON response of `value`, encoded with the API's coders (`Content-Type: application/json`).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        jsonResponse(try encoder.encode(value), status: status, headers: headers)
    }

    /// A JSON response of a value that writes its own JSON (the same bytes, without `JSONEncoder`).
    static func json(_ value: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        jsonResponse(try value.jsonBytes(), status: status, headers: headers)
    }

    private static func jsonResponse(_ bytes: some Collection<UInt8>, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// 204 No Content.
    static var noContent: Response { Response(status: .noContent) }
}
