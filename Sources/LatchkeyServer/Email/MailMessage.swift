import Foundation

/// One email: a plain-text message from the server to one address. ``rendered(date:messageID:)`` gives the RFC 5322
/// text an SMTP server takes after `DATA`.
struct MailMessage: Sendable, Hashable {
    let from: String
    let to: String
    let subject: String
    let text: String

    /// A message; throws ``MailAddressError`` when an address is not one a mail server takes (a header could otherwise
    /// be smuggled in with a line break).
    init(from: String, to: String, subject: String, text: String) throws(MailAddressError) {
        try MailAddress.check(from)
        try MailAddress.check(to)
        self.from = from
        self.to = to
        self.subject = subject.filter { !$0.isNewline }
        self.text = text
    }

    /// The message as sent: headers (a non-ASCII subject RFC 2047-encoded), then the body in base64, so that the text
    /// passes any server whatever its characters and lines (no dot-stuffing or line-length rules to meet).
    func rendered(date: Date = Date(), messageID: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let subjectHeader =
            subject.allSatisfy { $0.isASCII }
            ? subject : "=?UTF-8?B?" + Data(subject.utf8).base64EncodedString() + "?="
        let body = Data(
            text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8
        )
        .base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return [
            "From: \(from)",
            "To: \(to)",
            "Subject: \(subjectHeader)",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "Auto-Submitted: auto-generated",
            "",
            body,
        ].joined(separator: "\r\n") + "\r\n"
    }
}

/// Why a text is not an address a message can go to.
struct MailAddressError: Error, Hashable, CustomStringConvertible {
    let description: String
}

/// The addresses Latchkey sends to: `local@domain`, printable ASCII or UTF-8 without spaces, controls or the characters
/// that would break an SMTP command or a header (`<>`, `,`, `;`, quotes, backslash), at most
/// ``LatchkeyStore/StoredEmail/maximumLength`` bytes. Deliberately narrower than RFC 5321 (no quoted local parts, no
/// address literals): an address people type to get codes is of this form.
enum MailAddress {
    static let maximumLength = 254

    static func check(_ address: String) throws(MailAddressError) {
        guard address.utf8.count <= maximumLength else {
            throw MailAddressError(description: "an email address is at most \(maximumLength) bytes")
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64
        else {
            throw MailAddressError(description: "'\(address)' is not an email address (local@domain)")
        }
        let forbidden: Set<Character> = ["<", ">", ",", ";", "\"", "\\", "(", ")", "[", "]", ":"]
        guard
            address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F ~= $0.value) }),
            !address.contains(where: { forbidden.contains($0) })
        else {
            throw MailAddressError(description: "an email address may not hold spaces, controls or <>,;:\"\\()[]")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 && !$0.hasPrefix("-") })
        else {
            throw MailAddressError(description: "'\(domain)' is not a mail domain")
        }
    }
}
