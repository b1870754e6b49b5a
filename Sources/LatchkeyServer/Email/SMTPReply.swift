/// One SMTP reply (RFC 5321 §4.2): a three-digit code and its text lines (`250-…` continued, `250 …` last).
struct SMTPReply: Sendable, Hashable {
    let code: Int
    let lines: [String]

    /// The EHLO keywords (the first word of each line after the greeting line), upper-cased.
    var extensions: Set<String> {
        Set(lines.dropFirst().compactMap { $0.split(separator: " ").first.map { $0.uppercased() } })
    }

    /// The mechanisms after `AUTH` in an EHLO reply, upper-cased.
    var authMechanisms: Set<String> {
        guard let line = lines.dropFirst().first(where: { $0.uppercased().hasPrefix("AUTH ") }) else { return [] }
        return Set(line.split(separator: " ").dropFirst().map { $0.uppercased() })
    }

    /// The error this reply is when it was not wanted: temporary for 4xx, permanent for 5xx and for anything else.
    func failure(during step: String) -> MailDeliveryError {
        let text = "the SMTP server answered \(code) \(lines.joined(separator: " / ")) to \(step)"
        return (400..<500).contains(code) ? .temporary(text) : .permanent(text)
    }
}

/// Splits what an SMTP server sends into ``SMTPReply``s, without sockets: feed it bytes as they come, take the replies
/// it completes. It refuses (as a temporary failure: another server or attempt may do better) a line longer than
/// ``maximumLineLength``, a reply of more than ``maximumLines`` lines, a line that does not start with a code, and a
/// continuation whose code changes.
struct SMTPReplyParser: Sendable {
    static let maximumLineLength = 4096
    static let maximumLines = 64

    private var line: [UInt8] = []
    private var code: Int?
    private var lines: [String] = []

    init() {}

    mutating func feed(_ bytes: some Sequence<UInt8>) throws(MailDeliveryError) -> [SMTPReply] {
        var replies: [SMTPReply] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                guard line.count < Self.maximumLineLength else {
                    throw .temporary("the SMTP server sent a line longer than \(Self.maximumLineLength) bytes")
                }
                line.append(byte)
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let reply = try take(line) { replies.append(reply) }
            line.removeAll(keepingCapacity: true)
        }
        return replies
    }

    private mutating func take(_ bytes: [UInt8]) throws(MailDeliveryError) -> SMTPReply? {
        let digits = bytes.prefix(3)
        let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let lineCode = Int(String(decoding: digits, as: UTF8.self)), (200..<600).contains(lineCode),
            separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-")
        else {
            throw .temporary("the SMTP server sent a line that is not a reply")
        }
        guard code == nil || code == lineCode else {
            throw .temporary("the SMTP server changed the code within one reply")
        }
        guard lines.count < Self.maximumLines else {
            throw .temporary("the SMTP server sent a reply longer than \(Self.maximumLines) lines")
        }
        code = lineCode
        lines.append(String(decoding: bytes.dropFirst(4), as: UTF8.self))
        guard separator == UInt8(ascii: " ") else { return nil }
        defer {
            code = nil
            lines = []
        }
        return SMTPReply(code: lineCode, lines: lines)
    }
}
