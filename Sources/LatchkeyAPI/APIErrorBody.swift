/// The error body of the native API: `{"error":{"code":"…","message":"…"}}`.
///
/// `code` is stable and machine-readable (a `WebAuthnError` code such as `challengeMismatch`, or a server code
/// such as `session.required`); `message` is a human sentence that never contains secrets.
public struct APIErrorBody: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}
