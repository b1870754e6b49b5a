import Foundation
import WebAuthn

/// Parses the flag values ArgumentParser hands over as text, so that a bad one is reported in the
/// commands' JSON error shape (`usage.*`, exit 2) rather than as a bare usage message.
enum ArgumentValues {
    /// An ISO 8601 moment: `2024-01-02T00:00:00Z`, with or without fractional seconds, or a bare date.
    static func date(_ text: String, flag: String) throws(CommandError) -> Date {
        let styles: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime],
            [.withInternetDateTime, .withFractionalSeconds],
            [.withFullDate],
        ]
        for options in styles {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        throw .usage("invalidDate", "\(flag) \"\(text)\" is not an ISO 8601 date-time such as 2024-01-02T00:00:00Z")
    }

    /// A comma-separated list of COSE algorithm names or numbers (`ES256,RS256` or `-7,-257`).
    static func algorithms(_ text: String, flag: String) throws(CommandError) -> [COSEAlgorithm] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else {
            throw .usage("invalidAlgorithm", "\(flag) names no algorithm")
        }
        var algorithms: [COSEAlgorithm] = []
        for name in names {
            guard let algorithm = COSEAlgorithm(name: name) else {
                let known = COSEAlgorithm.known.map(\.name).joined(separator: ", ")
                throw .usage("invalidAlgorithm", "\(flag): unknown algorithm \"\(name)\" (known: \(known))")
            }
            algorithms.append(algorithm)
        }
        return algorithms
    }

    /// A signature counter: a decimal number from 0 to 4294967295.
    static func signCount(_ text: String, flag: String) throws(CommandError) -> UInt32 {
        guard let count = UInt32(text) else {
            throw .usage("invalidSignCount", "\(flag) \"\(text)\" is not a number from 0 to \(UInt32.max)")
        }
        return count
    }

    /// Bytes given as base64url (or base64).
    static func base64URL(_ text: String, flag: String, check: String) throws(CommandError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw .usage(check, "\(flag) is not a non-empty base64url value")
        }
        return bytes
    }
}
