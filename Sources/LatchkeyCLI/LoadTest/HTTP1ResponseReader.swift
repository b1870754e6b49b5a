import LatchkeyClient

/// Reads HTTP/1.1 responses (RFC 9112) from one connection's bytes, for the load generator's transport
/// (``KeepAliveHTTPTransport``): a status line, header fields, and a body framed by `Content-Length` or chunked
/// transfer coding, or none (1xx, 204, 304). A response framed only by the connection's close is refused: the servers a
/// load test talks to frame every answer.
///
/// Bytes go in as they arrive (``append(_:)``); ``next()`` returns each response once it is whole, as the client
/// library's `HTTPResponse` (field names lowercased, repeated fields joined with `, ` except `Set-Cookie`, whose fields
/// are kept apart). Written by hand because the load generator shares the cores with the server it measures, and
/// SwiftNIO's general decoder (llhttp, then a head, header list and message per part through the pipeline) was a tenth
/// of its CPU (docs/PERFORMANCE.md).
struct HTTP1ResponseReader {
    /// A response that cannot be read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case tooLarge(Int)

        var description: String {
            switch self {
            case .malformed(let reason): "the response is not HTTP/1.1: \(reason)"
            case .tooLarge(let limit): "the response is larger than \(limit) bytes"
            }
        }
    }

    /// The longest status line and header section read (bytes).
    static let maximumHeadSize = 64 * 1024

    /// The longest chunk-size line read, extensions included (bytes).
    static let maximumLineSize = 1024

    /// The largest body read (bytes).
    let maximumBodySize: Int

    /// Bytes received and not yet read, from ``start``.
    private var bytes: [UInt8] = []
    private var start = 0
    /// Where the search for the end of the head resumes, so that a head arriving a byte at a time is scanned once.
    private var scanned = 0

    init(maximumBodySize: Int) {
        self.maximumBodySize = maximumBodySize
    }

    /// Adds bytes as they arrived.
    mutating func append(_ received: some Collection<UInt8>) {
        // Read bytes are dropped once all are read (the usual case: one response at a time) or once they are many.
        if start > 0 && (start == bytes.count || start >= 4096) {
            bytes.removeFirst(start)
            scanned = max(0, scanned - start)
            start = 0
        }
        bytes.append(contentsOf: received)
    }

    /// The next whole response, or nil until more bytes arrive. After a failure the connection's bytes cannot be
    /// read further.
    mutating func next() throws(Failure) -> HTTPResponse? {
        while true {
            guard let headEnd = findHeadEnd() else {
                guard bytes.count - start <= Self.maximumHeadSize else {
                    throw .malformed("a header section over 64 KiB")
                }
                return nil
            }
            guard headEnd - start <= Self.maximumHeadSize else { throw .malformed("a header section over 64 KiB") }
            var response = try Self.head(bytes[start..<headEnd])
            let bodyStart = headEnd + 4
            let framing = try Self.framing(of: response)
            let body: (bytes: [UInt8], end: Int)?
            switch framing {
            case .interim:
                consume(to: bodyStart)
                continue
            case .none:
                body = ([], bodyStart)
            case .length(let length):
                guard length <= maximumBodySize else { throw .tooLarge(maximumBodySize) }
                body =
                    bytes.count - bodyStart >= length
                    ? (Array(bytes[bodyStart..<(bodyStart + length)]), bodyStart + length) : nil
            case .chunked:
                body = try chunkedBody(from: bodyStart)
            }
            guard let body else { return nil }
            response.body = body.bytes
            consume(to: body.end)
            return response
        }
    }

    private mutating func consume(to end: Int) {
        start = end
        scanned = end
    }

    /// The index of the `\r\n\r\n` that ends the head, if it has arrived.
    private mutating func findHeadEnd() -> Int? {
        var index = max(scanned, start)
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        scanned = index
        return nil
    }

    /// The status line and fields: the head up to (not including) the CRLF that ends its last line.
    private static func head(_ head: ArraySlice<UInt8>) throws(Failure) -> HTTPResponse {
        var lines = LineIterator(head)
        // Filled in place: the names are lowercased here, so `HTTPResponse`'s initializer need not build its fields again.
        var response = HTTPResponse(status: try status(of: lines.next() ?? []))
        response.headers.reserveCapacity(8)
        while let line = lines.next() {
            let (name, value) = try field(line)
            if name == "set-cookie" {
                response.setCookies.append(value)
            } else if let earlier = response.headers[name] {
                response.headers[name] = earlier + ", " + value
            } else {
                response.headers[name] = value
            }
        }
        return response
    }

    /// The lines of a head, each without its CRLF (or bare LF).
    private struct LineIterator {
        let bytes: ArraySlice<UInt8>
        var start: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            start = bytes.startIndex
        }

        mutating func next() -> ArraySlice<UInt8>? {
            guard start <= bytes.endIndex else { return nil }
            var end = start
            while end < bytes.endIndex && bytes[end] != 10 { end += 1 }
            let line = bytes[start..<(end > start && bytes[end - 1] == 13 ? end - 1 : end)]
            start = end + 1
            return line
        }
    }

    /// The code of a status line: `HTTP/1.x SP 3DIGIT [SP reason-phrase]`.
    private static func status(of line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let base = line.startIndex
        guard line.count >= 12, line[base..<(base + 7)].elementsEqual("HTTP/1.".utf8),
            (48...57).contains(line[base + 7]),
            line[base + 8] == 32, line.count == 12 || line[base + 12] == 32
        else { throw .malformed("the status line is not HTTP/1.x and a status code") }
        var status = 0
        for digit in line[(base + 9)..<(base + 12)] {
            guard (48...57).contains(digit) else { throw .malformed("the status code is not three digits") }
            status = status * 10 + Int(digit - 48)
        }
        return status
    }

    /// A field line's name, lowercased, and its value without surrounding spaces and tabs.
    private static func field(_ line: ArraySlice<UInt8>) throws(Failure) -> (name: String, value: String) {
        var colon = line.startIndex
        while colon < line.endIndex && line[colon] != 58 {
            guard line[colon] != 32 && line[colon] != 9 else { break }
            colon += 1
        }
        guard colon < line.endIndex, line[colon] == 58, colon > line.startIndex else {
            throw .malformed("a header line is not a name, a colon and a value")
        }
        let nameBytes = line[line.startIndex..<colon]
        let name = String(unsafeUninitializedCapacity: nameBytes.count) { buffer in
            for (offset, byte) in nameBytes.enumerated() {
                buffer[offset] = (65...90).contains(byte) ? byte + 32 : byte
            }
            return nameBytes.count
        }
        return (name, String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self))
    }

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }

    private enum Framing {
        case interim, none
        case length(Int)
        case chunked
    }

    /// How the body after this head ends (RFC 9112 §6.3).
    private static func framing(of response: HTTPResponse) throws(Failure) -> Framing {
        switch response.status {
        case 100...199: return .interim
        case 204, 304: return .none
        default: break
        }
        if let coding = response.headers["transfer-encoding"] {
            guard coding.lowercased() == "chunked" else {
                throw .malformed("a transfer coding other than chunked: \(coding)")
            }
            return .chunked
        }
        guard let field = response.headers["content-length"] else {
            throw .malformed("a body with neither Content-Length nor chunked coding")
        }
        // Repeated fields were joined: every value must be the same number.
        var length: Int?
        for value in Array(field.utf8).split(separator: 44, omittingEmptySubsequences: false) {
            let digits = trimmed(value)
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (48...57).contains($0) }) else {
                throw .malformed("Content-Length is not one number: \(field)")
            }
            let number = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            guard length == nil || length == number else {
                throw .malformed("Content-Length is not one number: \(field)")
            }
            length = number
        }
        guard let length else { throw .malformed("Content-Length is not one number: \(field)") }
        return .length(length)
    }

    /// The chunked body from `index` and where it ends, or nil until it has all arrived.
    private func chunkedBody(from index: Int) throws(Failure) -> (bytes: [UInt8], end: Int)? {
        var body: [UInt8] = []
        var position = index
        while true {
            guard let lineEnd = lineEnd(from: position) else {
                guard bytes.count - position <= Self.maximumLineSize else {
                    throw .malformed("a chunk-size line over 1 KiB")
                }
                return nil
            }
            // chunk-size [ chunk-ext ] CRLF
            let sizeEnd = bytes[position..<lineEnd].firstIndex(of: 59) ?? lineEnd
            let digits = Self.trimmed(bytes[position..<sizeEnd])
            guard !digits.isEmpty, digits.count <= 15 else {
                throw .malformed("a chunk size is not a hexadecimal number")
            }
            var size = 0
            for digit in digits {
                guard let value = Self.hexValue(digit) else {
                    throw .malformed("a chunk size is not a hexadecimal number")
                }
                size = size << 4 | value
            }
            position = lineEnd + 2
            if size == 0 {
                // trailer-section CRLF: fields (ignored) up to an empty line.
                let trailerStart = position
                while true {
                    guard position - trailerStart <= Self.maximumHeadSize else {
                        throw .malformed("trailers over 64 KiB")
                    }
                    guard let end = self.lineEnd(from: position) else {
                        guard bytes.count - trailerStart <= Self.maximumHeadSize else {
                            throw .malformed("trailers over 64 KiB")
                        }
                        return nil
                    }
                    let empty = end == position
                    position = end + 2
                    if empty { return (body, position) }
                }
            }
            guard body.count + size <= maximumBodySize else { throw .tooLarge(maximumBodySize) }
            guard bytes.count - position >= size + 2 else { return nil }
            body.append(contentsOf: bytes[position..<(position + size)])
            guard bytes[position + size] == 13, bytes[position + size + 1] == 10 else {
                throw .malformed("a chunk does not end with CRLF")
            }
            position += size + 2
        }
    }

    /// The index of the next CRLF from `index`, if it has arrived.
    private func lineEnd(from index: Int) -> Int? {
        var position = index
        while position + 1 < bytes.count {
            if bytes[position] == 13 && bytes[position + 1] == 10 { return position }
            position += 1
        }
        return nil
    }

    private static func hexValue(_ digit: UInt8) -> Int? {
        switch digit {
        case 48...57: Int(digit - 48)
        case 65...70: Int(digit - 55)
        case 97...102: Int(digit - 87)
        default: nil
        }
    }
}
