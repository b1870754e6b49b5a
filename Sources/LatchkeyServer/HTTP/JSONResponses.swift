import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyAPI

extension Response {
    private static let encoder = APIJSON.makeEncoder()

    /// A JSON response of `value`, encoded with the API's coders (`Content-Type: application/json`).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 204 No Content.
    static var noContent: Response { Response(status: .noContent) }
}
