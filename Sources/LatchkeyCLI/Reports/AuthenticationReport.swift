import WebAuthn

/// What `verify authentication` prints: the new counter and what the authenticator reported.
struct AuthenticationReport: Encodable {
    let credentialId: String
    let newSignCount: UInt32
    let signCountRegressed: Bool
    let userVerified: Bool
    let backupEligible: Bool
    let backedUp: Bool
    let userHandle: String?
    let authenticatorAttachment: String?
    let clientExtensionResults: [String: JSONValue]
    let challengeEncoding: String

    init(_ authentication: VerifiedAuthentication) {
        credentialId = Base64URL.encode(authentication.credentialID)
        newSignCount = authentication.newSignCount
        signCountRegressed = authentication.signCountRegressed
        userVerified = authentication.userVerified
        backupEligible = authentication.backupEligible
        backedUp = authentication.backedUp
        userHandle = authentication.userHandle.map { Base64URL.encode($0) }
        authenticatorAttachment = authentication.authenticatorAttachment?.rawValue
        clientExtensionResults = authentication.clientExtensionResults
        challengeEncoding = authentication.challengeEncoding.rawValue
    }
}
