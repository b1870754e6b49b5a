import LatchkeyAPI

/// Why a call to a Latchkey server failed.
///
/// ``server(status:code:message:)`` carries the server's own stable code (`challengeMismatch`,
/// `session.required`, …) and sentence, so apps can branch on the code and show or log the sentence.
public enum LatchkeyClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with an error: its HTTP status, stable code and human message.
    case server(status: Int, code: String, message: String)
    /// No answer: the server could not be reached, the connection broke, or the request timed out.
    case transport(String)
    /// The server answered with something that is not the API's JSON.
    case unexpectedResponse(status: Int, String)
    /// The authenticator made no credential.
    case authenticator(AuthenticatorError)
    /// A request could not be built (a bad server URL, a body that does not encode).
    case invalidRequest(String)
    /// The server's 401 `reauth.required`: the change needs the user to prove who they are again, in one of the ways
    /// the options name. ``NativeClient`` handles the passkey way itself when it has a re-authenticator; otherwise
    /// re-authenticate (``NativeClient/reauthenticate(_:with:)``, ``NativeClient/reauthenticate(password:)``) and retry.
    case reauthenticationRequired(ReauthenticationOptions)

    /// A stable code for every case: the server's code, or `client.transport`, `client.unexpectedResponse`,
    /// `client.invalidRequest`, or `authenticator.<code>`.
    public var code: String {
        switch self {
        case .server(_, let code, _): code
        case .transport: "client.transport"
        case .unexpectedResponse: "client.unexpectedResponse"
        case .authenticator(let error): "authenticator.\(error.code.rawValue)"
        case .invalidRequest: "client.invalidRequest"
        case .reauthenticationRequired: "reauth.required"
        }
    }

    /// The human sentence.
    public var message: String {
        switch self {
        case .server(_, _, let message): message
        case .transport(let message), .unexpectedResponse(_, let message), .invalidRequest(let message): message
        case .authenticator(let error): error.message
        case .reauthenticationRequired: "this change needs you to confirm it is you"
        }
    }

    /// A description with the code and message; never a secret.
    public var description: String {
        switch self {
        case .server(let status, let code, let message): "server error \(status) \(code): \(message)"
        case .transport(let message): "cannot reach the server: \(message)"
        case .unexpectedResponse(let status, let message): "unexpected response (HTTP \(status)): \(message)"
        case .authenticator(let error): "authenticator: \(error)"
        case .invalidRequest(let message): "invalid request: \(message)"
        case .reauthenticationRequired: "server error 401 reauth.required: re-authenticate, then try again"
        }
    }
}
