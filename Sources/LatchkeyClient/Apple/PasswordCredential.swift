/// A saved password the user picked in the sign-in sheet (`ASPasswordCredential`), for the server's password
/// sign-in. Its descriptions never show the password, so it can't leak into logs.
public struct PasswordCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The account name.
    public var user: String
    /// The password; never printed.
    public var password: String

    /// A saved password as given.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The account name, with the password redacted.
    public var description: String { "PasswordCredential(user: \(user), password: <redacted>)" }
    /// The account name, with the password redacted.
    public var debugDescription: String { description }
    /// A mirror with the password redacted.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<redacted>"]) }
}
