import WebAuthn

/// What `verify registration` prints: everything a server would store, and how the credential was attested.
struct RegistrationReport: Encodable {
    struct Attestation: Encodable {
        let format: String
        let type: String
        let trusted: Bool
        let trustReason: String
        let certificates: [CertificateReport]
    }

    let credentialId: String
    let publicKey: String
    let algorithm: NamedNumber
    let signCount: UInt32
    let aaguid: String
    let attestation: Attestation
    let userVerified: Bool
    let backupEligible: Bool
    let backedUp: Bool
    let deviceType: String
    let transports: [String]
    let authenticatorAttachment: String?
    let credProps: JSONValue?
    let clientExtensionResults: [String: JSONValue]
    let authenticatorExtensions: [String: JSONValue]?
    let challengeEncoding: String

    init(_ registration: VerifiedRegistration) {
        credentialId = Base64URL.encode(registration.credentialID)
        publicKey = Base64URL.encode(registration.publicKey)
        algorithm = NamedNumber(registration.algorithm)
        signCount = registration.signCount
        aaguid = registration.aaguid.description
        attestation = Attestation(
            format: registration.attestationFormat,
            type: registration.attestationType.rawValue,
            trusted: registration.attestation.trust.isTrusted,
            trustReason: Self.reason(registration.attestation),
            certificates: registration.trustPath.map(CertificateReport.summary)
        )
        userVerified = registration.userVerified
        backupEligible = registration.backupEligible
        backedUp = registration.backedUp
        deviceType = registration.deviceType
        transports = registration.transports.map(\.rawValue)
        authenticatorAttachment = registration.authenticatorAttachment?.rawValue
        credProps = registration.clientExtensionResults["credProps"]
        clientExtensionResults = registration.clientExtensionResults
        authenticatorExtensions = registration.authenticatorExtensions.map(CBORRendering.object)
        challengeEncoding = registration.challengeEncoding.rawValue
    }

    private static func reason(_ attestation: VerifiedAttestation) -> String {
        switch attestation.trust {
        case .notApplicable:
            "\(attestation.type.rawValue) attestation has no certificate path to trust"
        case .trusted(let anchor):
            "the certificate path leads to the trust anchor \(anchor.subject)"
        case .untrusted(let reason):
            reason
        }
    }
}
