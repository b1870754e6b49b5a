import Foundation
import Testing

/// A real SMTP server for a test: aiosmtpd (Tests/Mail/smtp_server.py, run by the Python of scripts/python-env.sh,
/// `LATCHKEY_TEST_PYTHON`) on a loopback port, with STARTTLS (or TLS, or neither) under a CA it makes, and AUTH for
/// one user. The messages it accepts are read back with ``messages()``.
public final class SMTPTestServer: Sendable {
    public enum Mode: String, Sendable {
        case startTLS = "starttls"
        case implicitTLS = "implicit"
        case plain
    }

    /// One accepted message, as the server received it.
    public struct Message: Sendable, Decodable {
        public let from: String
        public let to: [String]
        public let data: String
        /// Whether it came over TLS.
        public let tls: Bool
        /// The user it was sent as, if AUTH was used.
        public let login: String?

        /// A header's value (the first), RFC 2047 base64 words decoded.
        public func header(_ name: String) -> String? {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? data
            for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix(name.lowercased() + ": ")
            {
                let value = String(line.dropFirst(name.count + 2))
                if value.hasPrefix("=?UTF-8?B?"), value.hasSuffix("?="),
                    let bytes = Data(base64Encoded: String(value.dropFirst(10).dropLast(2)))
                {
                    return String(decoding: bytes, as: UTF8.self)
                }
                return value
            }
            return nil
        }

        /// The plain-text body (base64-decoded).
        public var text: String {
            let parts = data.components(separatedBy: "\r\n\r\n")
            let encoded = parts.dropFirst().joined(separator: "\r\n\r\n").replacingOccurrences(of: "\r\n", with: "")
            return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }

        /// The first run of six digits in the subject (where code messages put the code).
        public var code: String? {
            let words = (header("Subject") ?? "").split(separator: " ").map(String.init)
            return words.first { word in word.count == 6 && word.allSatisfy(\.isNumber) }
        }
    }

    /// The environment variable naming the Python.
    public static let pythonVariable = "LATCHKEY_TEST_PYTHON"

    public static var python: String? {
        ProcessInfo.processInfo.environment[pythonVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The trait that skips a test when there is no Python with aiosmtpd.
    public static var required: ConditionTrait {
        .enabled("set \(pythonVariable) to the python of scripts/python-env.sh (it has aiosmtpd)") { python != nil }
    }

    public let port: Int
    /// The CA the server's certificate chains to.
    public let caFile: String
    private let directory: ScratchDirectory
    private let process: ChildProcess

    public init(mode: Mode = .startTLS, user: String? = "latchkey", password: String? = "s3cret: pass/word")
        async throws
    {
        let python = try #require(Self.python, "LATCHKEY_TEST_PYTHON is not set")
        directory = ScratchDirectory(prefix: "latchkey-smtp")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Mail/smtp_server.py").path
        var arguments = [directory.url.path, "--mode", mode.rawValue]
        if let user, let password { arguments += ["--user", user, "--password", password] }
        (process, port) = try await PythonHelper.start(script, arguments: arguments, python: python)
        caFile = directory.path("ca.pem")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The messages accepted so far, in order.
    public func messages() -> [Message] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            FileManager.default.contents(atPath: directory.path(name)).flatMap {
                try? JSONDecoder().decode(Message.self, from: $0)
            }
        }
    }

    /// Waits (up to `timeout`) until `count` messages have arrived, and returns them all.
    public func waitForMessages(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Message] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let messages = messages()
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(50))
        }
        let messages = messages()
        throw SMTPTestServerError(
            description:
                "\(messages.count) of \(count) messages arrived: \(messages.map { $0.header("Subject") ?? "" })")
    }

    /// The `--smtp-url` for this server as `user` with `password`, trusting its CA.
    public func url(user: String? = "latchkey", password: String? = "s3cret: pass/word", scheme: String = "smtp")
        -> String
    {
        let credentials = user.map { user in
            let allowed = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))
            return (user.addingPercentEncoding(withAllowedCharacters: allowed) ?? user) + ":"
                + (password?.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "@"
        }
        return "\(scheme)://\(credentials ?? "")localhost:\(port)?ca=\(caFile)"
    }
}

public struct SMTPTestServerError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
