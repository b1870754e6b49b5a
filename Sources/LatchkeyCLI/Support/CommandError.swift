import WebAuthn

/// Why a command failed: a stable dotted ``code``, a human ``message`` and the process exit status.
///
/// Verification failures carry the library's ``WebAuthnError`` code and exit 1; bad flag values
/// (`usage.*`) and unreadable inputs (`io.*`) exit 2, so scripts can tell "the credential is bad" from
/// "the command was called wrong".
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String
    public let exitStatus: Int32

    /// An error with its own code; prefer ``usage(_:_:)``, ``io(_:_:)`` or ``init(_:)``.
    public init(code: String, message: String, exitStatus: Int32) {
        self.code = code
        self.message = message
        self.exitStatus = exitStatus
    }

    /// A failed verification (exit 1).
    public init(_ error: WebAuthnError) {
        self.init(code: error.code.rawValue, message: error.message, exitStatus: 1)
    }

    /// A flag value that cannot be used (exit 2), coded `usage.<check>`.
    public static func usage(_ check: String, _ message: String) -> CommandError {
        CommandError(code: "usage.\(check)", message: message, exitStatus: 2)
    }

    /// An input that cannot be read (exit 2), coded `io.<check>`.
    public static func io(_ check: String, _ message: String) -> CommandError {
        CommandError(code: "io.\(check)", message: message, exitStatus: 2)
    }

    /// The same error with another exit status (`inspect` reports every failure with 1).
    func exiting(with status: Int32) -> CommandError {
        CommandError(code: code, message: message, exitStatus: status)
    }

    public var description: String { "\(code): \(message)" }

    /// `{"error": {"code": …, "message": …}}`, as every command prints a failure.
    struct Report: Encodable {
        struct Body: Encodable {
            let code: String
            let message: String
        }
        let error: Body
    }

    var report: Report { Report(error: Report.Body(code: code, message: message)) }
}
