/// The paths of every Latchkey endpoint, shared by the server and its clients so they cannot drift apart.
public enum APIPaths {
    /// The FIDO Alliance conformance profile ("Server Requirements and Transport Binding Profile").
    public enum Conformance {
        public static let attestationOptions = "/attestation/options"
        public static let attestationResult = "/attestation/result"
        public static let assertionOptions = "/assertion/options"
        public static let assertionResult = "/assertion/result"
    }

    /// The native API for apps and the web, under `/v1`.
    public enum Native {
        /// Sign-up: options for a new account's first passkey.
        public static let registrationOptions = "/v1/passkeys/registration/options"
        /// Sign-up: verify the new passkey; answers with a ``SessionResponse``.
        public static let registrationVerify = "/v1/passkeys/registration/verify"
        /// Sign-up through a passkey sign-up sheet that asks for the name itself (iOS 26's account creation): options
        /// without a name, `POST {}`.
        public static let accountCreationOptions = "/v1/passkeys/account-creation/options"
        /// Sign-up through a passkey sign-up sheet: verify the new passkey with the name the sheet collected
        /// (``AccountCreationVerifyRequest``); answers with a ``SessionResponse``.
        public static let accountCreationVerify = "/v1/passkeys/account-creation/verify"
        /// Sign-in: options for a username or a username-less (discoverable) sign-in.
        public static let authenticationOptions = "/v1/passkeys/authentication/options"
        /// Sign-in: verify the assertion; answers with a ``SessionResponse``.
        public static let authenticationVerify = "/v1/passkeys/authentication/verify"
        /// The signed-in user.
        public static let me = "/v1/me"
        /// The signed-in user's passkeys: `GET` lists them.
        public static let passkeys = "/v1/me/passkeys"
        /// One of the signed-in user's passkeys (`{id}` is the base64url credential id): `PATCH` renames, `DELETE` removes.
        public static func passkey(id: String) -> String { "/v1/me/passkeys/\(id)" }
        /// Adding a passkey to the signed-in account: options.
        public static let addPasskeyOptions = "/v1/me/passkeys/registration/options"
        /// Adding a passkey to the signed-in account: verify; answers with the new ``PasskeySummary``.
        public static let addPasskeyVerify = "/v1/me/passkeys/registration/verify"
        /// Ends the current session.
        public static let logout = "/v1/session/logout"
        /// `GET` lists the signed-in account's live sessions (``SessionList``); `DELETE` ends every one, the current one
        /// included (sign out everywhere).
        public static let sessions = "/v1/sessions"
        /// One session of the signed-in account (`{id}` from ``SessionSummary/id``): `DELETE` ends it.
        public static func session(id: String) -> String { "/v1/sessions/\(id)" }
        /// Re-authentication with a passkey: `POST` ``AuthenticationVerifyRequest`` over the options of a
        /// `reauth.required` answer; answers a ``SessionResponse`` (a new session, the old one ended).
        public static let reauthenticate = "/v1/session/reauthenticate"
        /// The signed-in account's recovery codes: `GET` how many are left (``RecoveryCodeStatus``), `POST` a new set
        /// (``RecoveryCodes``, re-authenticated; the old set stops working).
        public static let recoveryCodes = "/v1/me/recovery-codes"
        /// Recovery with a code: `POST` ``RecoveryOptionsRequest``; answers `{ticket, options}` for the account's new
        /// passkey (the code is spent).
        public static let recoveryOptions = "/v1/recovery/options"
        /// Access tokens: `POST` ``RefreshTokenRequest``; answers the next ``AccessTokenResponse`` (the refresh token is
        /// spent). 404 `token.disabled` when the server issues none.
        public static let token = "/v1/token"
        /// Recovery by email: `POST` ``RecoveryEmailRequest``; answers 202 whether or not an account has the address
        /// verified, and sends a code to it when one has (then `POST` ``recoveryOptions`` with the address and code).
        public static let recoveryEmail = "/v1/recovery/email"
        /// The signed-in account's email addresses: `GET` lists them (``EmailList``); `POST` ``EmailRequest`` adds one
        /// (re-authenticated) and sends it a code; answers 202 with the unverified ``EmailAddress``.
        public static let emails = "/v1/me/emails"
        /// `POST` ``EmailVerifyRequest``: the code sent to an added address verifies it; answers the ``EmailAddress``.
        public static let emailVerify = "/v1/me/emails/verify"
        /// `POST` ``EmailRequest``: notices go to this verified address from now on (re-authenticated); answers the
        /// ``EmailList``.
        public static let emailPrimary = "/v1/me/emails/primary"
        /// `POST` ``EmailRequest``: removes an address (re-authenticated); answers 204.
        public static let emailRemove = "/v1/me/emails/remove"
        /// Recovery: verify the new passkey (`{ticket, credential}`); answers 201 with a ``SessionResponse``.
        public static let recoveryVerify = "/v1/recovery/verify"
        /// Re-authentication with the password: `POST` ``ReauthenticatePasswordRequest``; answers a ``SessionResponse``.
        public static let reauthenticatePassword = "/v1/session/reauthenticate/password"
        /// `DELETE` deletes the signed-in account with its passkeys and sessions.
        public static let account = "/v1/account"
        /// Password sign-up: `POST` ``PasswordRegisterRequest``; answers 201 with a ``SessionResponse``.
        public static let passwordRegister = "/v1/password/register"
        /// Password sign-in: `POST` ``PasswordSignInRequest``; answers a ``SessionResponse`` (with `passkeyUpgrade`
        /// when the account has no passkey).
        public static let passwordSignIn = "/v1/password/signin"
        /// The signed-in account's password: `PUT` ``SetPasswordRequest`` sets or changes it, `DELETE` removes it.
        public static let password = "/v1/password"
    }

    /// Files other parties fetch from the relying party's domain.
    public enum WellKnown {
        public static let appleAppSiteAssociation = "/.well-known/apple-app-site-association"
        public static let assetLinks = "/.well-known/assetlinks.json"
        public static let webAuthnRelatedOrigins = "/.well-known/webauthn"
        /// The keys that sign access tokens (a JWK set), when the server issues them.
        public static let jwks = "/.well-known/jwks.json"
        /// OpenID provider metadata for what applies (issuer, `jwks_uri`), so JWT libraries find the keys.
        public static let openIDConfiguration = "/.well-known/openid-configuration"
    }

    /// Operations endpoints.
    public enum Operations {
        /// Liveness: the process answers.
        public static let health = "/healthz"
        /// Readiness: the process answers and its database does.
        public static let ready = "/readyz"
        public static let metrics = "/metrics"
    }

    /// The web page served at `/`.
    public enum Web {
        /// `GET`: `{"appleSignIn": Bool, "rpName": String}`, what the page shows.
        public static let config = "/v1/web/config"
    }

    /// Sign in with Apple (404 `apple.disabled` on a server without it).
    public enum Apple {
        /// `POST`: a single-use nonce for one app sign-in, ``AppleNonceResponse``; its SHA-256 goes in the Apple request.
        public static let nonce = "/v1/apple/nonce"
        /// `POST`: signs in (or links, with a session) with an app's `ASAuthorizationAppleIDCredential`.
        public static let signIn = "/v1/apple/signin"
        /// `POST`: Apple's server-to-server notifications, `{"payload": "<JWS>"}`.
        public static let notifications = "/v1/apple/notifications"
        /// `GET`: starts the web flow with a redirect to Apple's authorize page.
        public static let authorize = "/v1/apple/authorize"
        /// `POST`: the form Apple posts back at the end of the web flow.
        public static let callback = "/v1/apple/callback"
    }
}
