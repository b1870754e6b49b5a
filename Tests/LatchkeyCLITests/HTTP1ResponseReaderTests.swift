import LatchkeyClient
import Testing

@testable import LatchkeyCLI

/// The load generator's HTTP/1.1 response reader, fed bytes as a connection would deliver them.
@Suite("HTTP1ResponseReader")
struct HTTP1ResponseReaderTests {
    private static let limit = 64

    /// The responses `text` reads to when fed in pieces of `piece` bytes (all at once when nil).
    private static func read(_ text: String, piece: Int? = nil) throws(HTTP1ResponseReader.Failure) -> [HTTPResponse] {
        var reader = HTTP1ResponseReader(maximumBodySize: limit)
        let bytes = Array(text.utf8)
        var responses: [HTTPResponse] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + (piece ?? bytes.count))
            reader.append(bytes[offset..<end])
            offset = end
            while let response = try reader.next() { responses.append(response) }
        } while offset < bytes.count
        return responses
    }

    private static let full =
        "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Repeated: one\r\nx-repeated:two\r\n"
        + "Set-Cookie: a=1; Path=/\r\nSet-Cookie:  b=2 \r\nContent-Length: 7\r\n\r\n{\"a\":1}"

    @Test("status, fields (names lowercased, repeats joined, Set-Cookie kept apart, values trimmed) and the body")
    func readsAResponse() throws {
        let responses = try Self.read(Self.full)
        #expect(
            responses == [
                HTTPResponse(
                    status: 201,
                    headers: ["content-type": "application/json", "x-repeated": "one, two", "content-length": "7"],
                    setCookies: ["a=1; Path=/", "b=2"],
                    body: Array(#"{"a":1}"#.utf8)
                )
            ])
    }

    @Test("the same response fed a byte at a time, and in pieces of three")
    func readsAResponseInPieces() throws {
        let whole = try Self.read(Self.full)
        #expect(try Self.read(Self.full, piece: 1) == whole)
        #expect(try Self.read(Self.full, piece: 3) == whole)
    }

    @Test("nothing until the body is whole")
    func waitsForTheBody() throws {
        var reader = HTTP1ResponseReader(maximumBodySize: Self.limit)
        reader.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try reader.next() == nil)
        reader.append(Array("cd".utf8))
        #expect(try reader.next()?.body == Array("abcd".utf8))
        #expect(try reader.next() == nil)
    }

    @Test("two responses in one read are both read, in order")
    func readsBackToBackResponses() throws {
        let text =
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA" + "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        let responses = try Self.read(text)
        #expect(responses.map(\.status) == [200, 404])
        #expect(responses.map(\.body) == [Array("A".utf8), []])
    }

    @Test("a chunked body, with a chunk extension and trailers, whole and a byte at a time")
    func readsChunkedBodies() throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "4;name=value\r\nWiki\r\nA\r\npedia in c\r\n0\r\nX-Trailer: t\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
        for piece in [nil, 1] {
            let responses = try Self.read(text, piece: piece)
            #expect(responses.map(\.status) == [200, 204])
            #expect(responses.first.map { String(decoding: $0.body, as: UTF8.self) } == "Wikipedia in c")
        }
    }

    @Test("no body for 204 and 304; an interim 1xx response is skipped")
    func readsBodilessResponses() throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        #expect(try Self.read(text).map(\.status) == [304, 204])
    }

    @Test("a repeated Content-Length with one value is that value")
    func acceptsARepeatedLength() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"
        #expect(try Self.read(text).first?.body == Array("ok".utf8))
    }

    @Test(
        "what is not an HTTP/1.1 response is refused with the reason",
        arguments: [
            ("HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n", "the status line"),
            ("HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n", "the status line"),
            ("HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", "three digits"),
            ("HTTP/1.1 200OK\r\nContent-Length: 0\r\n\r\n", "the status line"),
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "a header line"),
            ("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "a header line"),
            ("HTTP/1.1 200 OK\r\n: empty name\r\n\r\n", "a header line"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "other than chunked"),
            ("HTTP/1.1 200 OK\r\nX: y\r\n\r\nbody until close", "neither Content-Length nor chunked"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n", "not one number"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "not one number"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "not one number"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "hexadecimal"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "does not end with CRLF"),
        ])
    func refusesMalformedResponses(text: String, reason: String) {
        #expect {
            _ = try Self.read(text)
        } throws: { error in
            guard case HTTP1ResponseReader.Failure.malformed(let message) = error else { return false }
            return message.contains(reason)
        }
    }

    @Test("a body over the limit is refused as soon as its length is known, by Content-Length or by chunks")
    func refusesLargeBodies() {
        #expect(throws: HTTP1ResponseReader.Failure.tooLarge(Self.limit)) {
            _ = try Self.read("HTTP/1.1 200 OK\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
        }
        let chunks = String(repeating: "20\r\n" + String(repeating: "a", count: 32) + "\r\n", count: 3)
        #expect(throws: HTTP1ResponseReader.Failure.tooLarge(Self.limit)) {
            _ = try Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
        }
    }

    @Test("a head, a chunk-size line or trailers that never end are refused once over their limits")
    func refusesEndlessLines() {
        let longHead = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: HTTP1ResponseReader.maximumHeadSize)
        #expect(throws: HTTP1ResponseReader.Failure.malformed("a header section over 64 KiB")) {
            _ = try Self.read(longHead)
        }
        let longSize = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 2000)
        #expect(throws: HTTP1ResponseReader.Failure.malformed("a chunk-size line over 1 KiB")) {
            _ = try Self.read(longSize)
        }
        let longTrailers =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
            + String(repeating: "X: y\r\n", count: HTTP1ResponseReader.maximumHeadSize / 6 + 10)
        #expect(throws: HTTP1ResponseReader.Failure.malformed("trailers over 64 KiB")) {
            _ = try Self.read(longTrailers)
        }
    }
}
