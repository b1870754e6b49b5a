/// The body of `POST /v1/apple/signin`: what an app's `ASAuthorizationAppleIDCredential` carries, as strings, and the
/// raw nonce whose SHA-256 the app put in the request.
///
/// ```json
/// {"identityToken":"eyJ…","authorizationCode":"c1…","rawNonce":"…","fullName":{"givenName":"Alice","familyName":"Doe"},"email":"…"}
/// ```
public struct AppleSignInRequest: Codable, Hashable, Sendable {
    /// The user's name as `PersonNameComponents` has it. Apple sends it on the first sign-in only.
    public struct FullName: Codable, Hashable, Sendable {
        public var givenName: String?
        public var familyName: String?

        public init(givenName: String?, familyName: String?) {
            self.givenName = givenName
            self.familyName = familyName
        }

        /// `{"givenName","familyName"}`; a plain string (an already formatted name) is taken as the given name.
        public init(from decoder: any Decoder) throws {
            if let formatted = try? decoder.singleValueContainer().decode(String.self) {
                givenName = formatted
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            givenName = try container.decodeIfPresent(String.self, forKey: .givenName)
            familyName = try container.decodeIfPresent(String.self, forKey: .familyName)
        }

        private enum CodingKeys: String, CodingKey { case givenName, familyName }
    }

    /// The identity token (a JWT, `identityToken` decoded as UTF-8).
    public var identityToken: String
    /// The single-use authorization code (`authorizationCode` as UTF-8); required on the first sign-in.
    public var authorizationCode: String?
    /// The nonce the app generated; the token's `nonce` claim is its SHA-256 in hex.
    public var rawNonce: String?
    public var fullName: FullName?
    /// The email the app was given; the server trusts only the token's own `email` claim for verification.
    public var email: String?
    /// The audience the token is for, when the server serves several apps or a Services ID.
    public var clientId: String?

    public init(
        identityToken: String, authorizationCode: String?, rawNonce: String?, fullName: FullName? = nil,
        email: String? = nil, clientId: String? = nil
    ) {
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.rawNonce = rawNonce
        self.fullName = fullName
        self.email = email
        self.clientId = clientId
    }
}
