/// A saved password the user picked in the sign-in sheet (`ASPasswordCredential`), for the server's password
/// sign-in. Its descriptions never show the password, so it can't leak into logs.
public struct PasswordCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "PasswordCredential(user: \(user), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<redacted>"]) }
}
