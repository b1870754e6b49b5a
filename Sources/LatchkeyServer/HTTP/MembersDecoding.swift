import LatchkeyAPI
import WebAuthn

/// A request body whose usual form is read from its top-level members (``JSONMembers``, one pass of WebAuthn's
/// `JSONReader`) instead of by Foundation's `JSONDecoder`, whose fixed cost was about 1 % of a login's server CPU for
/// the sign-in options' one-member body (docs/PERFORMANCE.md, eighteenth round).
///
/// `init(members:)` returns nil for anything but that usual form, and the body then goes to `JSONDecoder`
/// (``Request/decodeJSONIfPresent(_:context:)``), so a body the fast form does not take, and every error, is decoded
/// and answered as before; where both read a body, they read the same value.
protocol MembersDecodable: Decodable {
    /// The value, when `members` is in the form this reads; nil sends the body to `JSONDecoder`.
    init?(members: JSONMembers)
}

extension AuthenticationOptionsRequest: MembersDecodable {
    /// `username` a string, `null` or absent; other members are ignored, as `JSONDecoder` ignores them.
    init?(members: JSONMembers) {
        guard let username = members.optionalString("username") else { return nil }
        self.init(username: username)
    }
}
