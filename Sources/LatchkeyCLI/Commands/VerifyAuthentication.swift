import ArgumentParser
import WebAuthn

/// `latchkey verify authentication`: runs `RelyingParty.finishAuthentication` on an assertion against a stored key.
struct VerifyAuthentication: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "authentication",
        abstract: "Verify an authentication response (navigator.credentials.get() JSON) against a stored public key."
    )

    @OptionGroup var ceremony: CeremonyOptions

    @Option(
        name: .customLong("public-key"), parsing: .unconditional,
        help: ArgumentHelp("The stored credential public key: COSE_Key bytes, base64url.", valueName: "b64url-cose"))
    var publicKey: String

    @Option(
        name: .customLong("sign-count"), parsing: .unconditional,
        help: ArgumentHelp("The stored signature counter.", valueName: "n"))
    var signCount: String

    @Flag(
        help: "Report a counter that did not increase (signCountRegressed) instead of failing with signCountRegression."
    )
    var reportSignCountRegression = false

    @Option(
        name: .customLong("appid"),
        help: ArgumentHelp(
            "The FIDO AppID of a credential registered with the U2F API: when the client extension output says appid: true, the rpIdHash may be SHA-256 of this AppID.",
            valueName: "url"))
    var appID: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        var rp = try ceremony.relyingParty()
        rp.signCountPolicy = reportSignCountRegression ? .report : .reject
        if let type = try ceremony.clientDataType() { rp.authenticationType = type }
        if let appID, appID.isEmpty {
            throw .usage("invalidAppID", "--appid is empty")
        }
        rp.appID = appID
        let key = try ArgumentValues.base64URL(publicKey, flag: "--public-key", check: "invalidPublicKey")
        let storedCount = try ArgumentValues.signCount(signCount, flag: "--sign-count")
        let challenge = try ceremony.expectedChallenge()
        let json = try ceremony.credentialJSON(io)

        do {
            let credential = try AuthenticationCredential.parse(json)
            // The command stands in for a server that looked the credential up by the ID the client named.
            let record = CredentialRecord(id: credential.rawId.bytes, publicKey: key, signCount: storedCount)
            let authentication = try rp.finishAuthentication(
                credential, expectedChallenge: challenge, credential: record,
                requireUserVerification: ceremony.requireUserVerification
            )
            io.emit(AuthenticationReport(authentication))
        } catch {
            throw CommandError(error)
        }
    }
}
