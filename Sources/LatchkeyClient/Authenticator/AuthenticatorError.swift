/// Why an ``Authenticator`` did not produce a credential, with a code that stays the same whichever
/// authenticator ran (the hybrid-app bridge and the command line report these codes).
public struct AuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable, machine-readable reason.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// A code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as text.
        public var description: String { rawValue }

        /// The user dismissed the sheet or picked no account.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The authenticator refused: user verification or a discoverable credential it cannot provide,
        /// or the platform denied the request (a `NotAllowedError`).
        public static let notAllowed = Code(rawValue: "notAllowed")
        /// The relying party's options could not be read or do not fit this origin.
        public static let invalidOptions = Code(rawValue: "invalidOptions")
        /// No credential on the authenticator matches the request.
        public static let noCredentials = Code(rawValue: "noCredentials")
        /// A credential listed in `excludeCredentials` already lives on the authenticator.
        public static let excludedCredential = Code(rawValue: "excludedCredential")
        /// The system or authenticator cannot do this (an older OS, no requested algorithm).
        public static let unsupported = Code(rawValue: "unsupported")
        /// The ceremony's timeout passed before the user or the authenticator answered (the request was
        /// cancelled); browsers report this as a `NotAllowedError`.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The user chose to continue with the Sign in with Apple account they already have for this app
        /// (`ASAuthorizationError.preferSignInWithApple`, iOS 26): offer Sign in with Apple instead.
        public static let preferSignInWithApple = Code(rawValue: "preferSignInWithApple")
        /// The device is not set up to make passkeys (no passcode, or iCloud Keychain off):
        /// `ASAuthorizationError.deviceNotConfiguredForPasskeyCreation` (iOS 26). Ask the user to set it up.
        public static let deviceNotConfigured = Code(rawValue: "deviceNotConfigured")
        /// A credential import or export between password managers failed
        /// (`ASAuthorizationError.credentialImport` / `.credentialExport`).
        public static let credentialExchangeFailed = Code(rawValue: "credentialExchangeFailed")
        /// Anything else: the authenticator itself failed (its key store, key generation, signing).
        public static let failed = Code(rawValue: "failed")

        /// Every code, in the order the documentation lists them.
        public static let all: [Code] = [
            .cancelled, .notAllowed, .invalidOptions, .noCredentials, .excludedCredential, .unsupported, .timedOut,
            .preferSignInWithApple, .deviceNotConfigured, .credentialExchangeFailed, .failed,
        ]
    }

    /// The stable reason.
    public var code: Code
    /// A human sentence for logs and developers.
    public var message: String

    /// An error with `code` and a human `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `<code>: <message>`.
    public var description: String { "\(code): \(message)" }
}
