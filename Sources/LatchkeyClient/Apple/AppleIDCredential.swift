import Foundation
import LatchkeyAPI

/// A Sign in with Apple result, copied out of `ASAuthorizationAppleIDCredential` on the main actor into a Sendable
/// value, with the token and code as the strings the server takes.
public struct AppleIDCredential: Sendable, Hashable {
    /// `ASUserDetectionStatus`: Apple's guess whether a real person is signing in (first sign-in only).
    public enum RealUserStatus: Int, Sendable, Hashable {
        /// The platform cannot tell.
        case unsupported = 0
        /// The system has not decided.
        case unknown = 1
        /// The user is likely a real person.
        case likelyReal = 2
    }

    /// The stable Apple user identifier for this team (the token's `sub`).
    public var user: String
    /// The request's `state`, echoed back.
    public var state: String?
    /// `identityToken` as UTF-8: the JWT the server verifies.
    public var identityToken: String?
    /// `authorizationCode` as UTF-8: single use, for the server's code exchange (first sign-in, and linking).
    public var authorizationCode: String?
    /// The email, first sign-in only (often a private relay address).
    public var email: String?
    /// `fullName.givenName` / `familyName`, first sign-in only.
    public var givenName: String?
    /// The family name, on the first sign-in only.
    public var familyName: String?
    /// The scopes the user granted.
    public var authorizedScopes: [SignInWithAppleRequest.Scope]
    /// Apple's guess at whether the user is a real person.
    public var realUserStatus: RealUserStatus

    /// A credential as given (the adapter fills it from `ASAuthorizationAppleIDCredential`).
    public init(
        user: String, state: String? = nil, identityToken: String?, authorizationCode: String?, email: String? = nil,
        givenName: String? = nil, familyName: String? = nil, authorizedScopes: [SignInWithAppleRequest.Scope] = [],
        realUserStatus: RealUserStatus = .unknown
    ) {
        self.user = user
        self.state = state
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.authorizedScopes = authorizedScopes
        self.realUserStatus = realUserStatus
    }

    /// The body of `POST /v1/apple/signin` for this credential and the raw nonce of the request that produced it
    /// (``SignInWithAppleNonce/raw``): pass it to ``NativeClient/signInWithApple(_:)``.
    /// - Throws: ``AuthenticatorError/Code/failed`` when Apple returned no identity token.
    public func signInRequest(rawNonce: String) throws(AuthenticatorError) -> AppleSignInRequest {
        guard let identityToken, !identityToken.isEmpty else {
            throw AuthenticatorError(.failed, "Sign in with Apple returned no identity token")
        }
        let fullName =
            givenName == nil && familyName == nil
            ? nil : AppleSignInRequest.FullName(givenName: givenName, familyName: familyName)
        return AppleSignInRequest(
            identityToken: identityToken, authorizationCode: authorizationCode, rawNonce: rawNonce, fullName: fullName,
            email: email
        )
    }

    /// A token or code from the SDK (`Data?`) as the UTF-8 string it is; nil when absent or not UTF-8.
    static func text(_ data: Data?) -> String? {
        data.flatMap { String(data: $0, encoding: .utf8) }
    }
}
