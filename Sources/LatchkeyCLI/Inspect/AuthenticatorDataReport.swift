import WebAuthn

/// Authenticator data spelled out: RP ID hash, each flag, counter, attested credential and extensions.
struct AuthenticatorDataReport: Encodable {
    struct Flags: Encodable {
        let value: UInt8
        let set: [String]
        let userPresent: Bool
        let userVerified: Bool
        let backupEligible: Bool
        let backedUp: Bool
        let attestedCredentialData: Bool
        let extensionData: Bool

        enum CodingKeys: String, CodingKey {
            case value, set
            case userPresent = "UP"
            case userVerified = "UV"
            case backupEligible = "BE"
            case backedUp = "BS"
            case attestedCredentialData = "AT"
            case extensionData = "ED"
        }

        init(_ flags: AuthenticatorFlags) {
            value = flags.rawValue
            set = flags.names
            userPresent = flags.userPresent
            userVerified = flags.userVerified
            backupEligible = flags.backupEligible
            backedUp = flags.backedUp
            attestedCredentialData = flags.contains(.attestedCredentialData)
            extensionData = flags.contains(.extensionData)
        }
    }

    struct AttestedCredential: Encodable {
        let aaguid: String
        let credentialId: String
        let credentialIdLength: Int
        let publicKey: COSEKeyReport
    }

    let length: Int
    let rpIdHash: String
    let flags: Flags
    let signCount: UInt32
    let attestedCredentialData: AttestedCredential?
    let extensions: [String: JSONValue]?

    init(_ data: AuthenticatorData) {
        length = data.rawValue.count
        rpIdHash = Hex.encode(data.rpIDHash)
        flags = Flags(data.flags)
        signCount = data.signCount
        attestedCredentialData = data.attestedCredentialData.map { attested in
            AttestedCredential(
                aaguid: attested.aaguid.description,
                credentialId: Base64URL.encode(attested.credentialID),
                credentialIdLength: attested.credentialID.count,
                publicKey: COSEKeyReport(attested.publicKey)
            )
        }
        extensions = data.extensions.map(CBORRendering.object)
    }
}
