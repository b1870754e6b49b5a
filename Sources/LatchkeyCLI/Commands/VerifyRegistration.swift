import ArgumentParser
import WebAuthn

/// `latchkey verify registration`: runs `RelyingParty.finishRegistration` on a registration response.
struct VerifyRegistration: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Verify a registration response (navigator.credentials.create() JSON)."
    )

    @OptionGroup var ceremony: CeremonyOptions

    @Option(
        help: ArgumentHelp(
            "The moment at which certificates (and SafetyNet timestamps) are judged, ISO 8601; now by default.",
            valueName: "iso8601"))
    var at: String?

    @Option(
        name: .customLong("trust-anchor"),
        help: ArgumentHelp(
            "A PEM file of trusted attestation roots (repeatable). Given any, a chain must lead to one of them, for every format; without, the built-in roots apply.",
            valueName: "pem-file"))
    var trustAnchors: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The algorithms the relying party accepts, comma-separated (ES256,RS256 or -7,-257); all known ones by default.",
            valueName: "list"))
    var algorithms: String?

    @Flag(help: "Fail unless the attestation leads to a trusted root (none and self attestation fail).")
    var requireTrustedAttestation = false

    @Flag(
        help:
            "Accept authenticator data without UP, as for a registration begun with mediation: conditional (an automatic passkey upgrade)."
    )
    var userPresenceOptional = false

    @Flag(
        name: .customLong("safetynet-allow-cts-failure"),
        help: "android-safetynet: accept a JWS whose ctsProfileMatch is false.")
    var safetyNetAllowCTSFailure = false

    @Flag(
        name: .customLong("safetynet-skip-timestamp"),
        help: "android-safetynet: skip the JWS timestamp window, to judge an old capture's certificates at --at.")
    var safetyNetSkipTimestamp = false

    func execute(_ io: CommandIO) async throws(CommandError) {
        var rp = try ceremony.relyingParty()
        rp.algorithms =
            try algorithms.map { text throws(CommandError) in
                try ArgumentValues.algorithms(text, flag: "--algorithms")
            } ?? COSEAlgorithm.known
        let anchors = try TrustAnchorFiles.certificates(in: trustAnchors, io: io)
        rp.attestationTrust = TrustAnchorFiles.trust(
            anchors: anchors, formats: rp.attestationFormats, requireTrustedAttestation: requireTrustedAttestation
        )
        if let type = try ceremony.clientDataType() { rp.registrationType = type }
        rp.attestationOptions.safetyNetEnforceCTSProfileMatch = !safetyNetAllowCTSFailure
        rp.attestationOptions.safetyNetSkipTimestampCheck = safetyNetSkipTimestamp
        let time = try at.map { text throws(CommandError) in try ArgumentValues.date(text, flag: "--at") } ?? .now
        let challenge = try ceremony.expectedChallenge()
        let json = try ceremony.credentialJSON(io)

        do {
            let credential = try RegistrationCredential.parse(json)
            let registration = try await rp.finishRegistration(
                credential, expectedChallenge: challenge,
                requireUserVerification: ceremony.requireUserVerification,
                requireUserPresence: userPresenceOptional ? false : nil, at: time
            )
            io.emit(RegistrationReport(registration))
        } catch {
            throw CommandError(error)
        }
    }
}
