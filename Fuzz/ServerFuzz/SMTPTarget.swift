@testable import LatchkeyServer

/// What an SMTP server sends back (``SMTPReplyParser``, fed in two reads split at the first byte's value) and the
/// `--smtp-url` (``SMTPConfiguration``) when the input starts with `smtp`. A finding is a crash or a reply whose code is
/// not a three-digit reply code.
enum SMTPTarget {
    static func run(_ bytes: [UInt8]) {
        if bytes.starts(with: Array("smtp".utf8)) {
            _ = try? SMTPConfiguration(url: String(decoding: bytes, as: UTF8.self))
            return
        }
        guard let first = bytes.first else { return }
        let rest = bytes.dropFirst()
        let split = rest.startIndex + min(Int(first), rest.count)
        var parser = SMTPReplyParser()
        guard let replies = try? parser.feed(rest[..<split]) + parser.feed(rest[split...]) else { return }
        for reply in replies where !(200..<600).contains(reply.code) {
            fatalError("a reply with code \(reply.code)")
        }
    }
}
