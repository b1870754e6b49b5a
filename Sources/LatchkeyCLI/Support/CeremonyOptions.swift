import ArgumentParser
import WebAuthn

/// The options both `verify` commands share: what to verify and the relying party's identity and
/// client-data policy.
struct CeremonyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The credential JSON the client sent; - reads standard input.", valueName: "file"))
    var credential: String

    // Base64url values may start with "-": take the next word as the value whatever it looks like.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The challenge sent in the options, base64url.", valueName: "b64url"))
    var challenge: String

    @Option(name: .customLong("origin"), help: ArgumentHelp("An accepted origin (repeatable).", valueName: "origin"))
    var origins: [String] = []

    @Option(name: .customLong("rp-id"), help: ArgumentHelp("The relying party ID.", valueName: "id"))
    var rpID: String

    @Option(
        name: .customLong("top-origin"),
        help: ArgumentHelp(
            "An accepted top-level origin for cross-origin ceremonies (repeatable).", valueName: "origin"))
    var topOrigins: [String] = []

    @Flag(help: "Accept cross-origin ceremonies from any top-level origin (restricted by --top-origin when given).")
    var allowCrossOrigin = false

    @Flag(help: "Fail unless the authenticator verified the user (UV).")
    var requireUserVerification = false

    @Flag(
        name: .customLong("accept-base64url-text-challenge"),
        help: "Also accept a challenge encoded as base64url of its base64url text.")
    var acceptBase64URLTextChallenge = false

    @Option(
        name: .customLong("expected-type"),
        help: ArgumentHelp(
            "The type client data must carry instead of webauthn.create / webauthn.get (e.g. payment.get for Secure Payment Confirmation).",
            valueName: "type"))
    var expectedType: String?

    /// The `--expected-type` value, when given; an empty one is a usage error.
    func clientDataType() throws(CommandError) -> String? {
        if let expectedType, expectedType.isEmpty {
            throw .usage("invalidExpectedType", "--expected-type is empty")
        }
        return expectedType
    }

    /// The challenge bytes.
    func expectedChallenge() throws(CommandError) -> [UInt8] {
        try ArgumentValues.base64URL(challenge, flag: "--challenge", check: "invalidChallenge")
    }

    /// Reads the credential file (or standard input).
    func credentialJSON(_ io: CommandIO) throws(CommandError) -> [UInt8] {
        try InputFile.read(credential, io: io, what: "credential")
    }

    /// A relying party with this identity and client-data policy; the caller adds ceremony-specific settings.
    func relyingParty() throws(CommandError) -> RelyingParty {
        guard !origins.isEmpty else {
            throw .usage("missingOrigin", "give at least one --origin")
        }
        guard !rpID.isEmpty else {
            throw .usage("invalidRPID", "--rp-id is empty")
        }
        var rp = RelyingParty(id: rpID, name: rpID, origins: origins)
        if !topOrigins.isEmpty {
            rp.crossOrigin = .allow(topOrigins: topOrigins)
        } else if allowCrossOrigin {
            rp.crossOrigin = .allowAnyTopOrigin
        }
        rp.acceptsBase64URLTextChallenge = acceptBase64URLTextChallenge
        return rp
    }
}
