import WebAuthn

/// A registration response (`AuthenticatorAttestationResponseJSON`) with its client data and attestation object decoded.
struct RegistrationResponseReport: Encodable {
    let clientDataJSON: Parsed<ClientDataReport>
    let attestationObject: Parsed<AttestationObjectReport>
    let transports: [String]?
    let publicKeyAlgorithm: NamedNumber?

    init(_ response: AuthenticatorAttestationResponse) {
        clientDataJSON = Parsed { () throws(WebAuthnError) in try ClientDataReport(bytes: response.clientDataJSON.bytes)
        }
        attestationObject = Parsed { () throws(WebAuthnError) in
            AttestationObjectReport(try AttestationObject(bytes: response.attestationObject.bytes))
        }
        transports = response.transports?.map(\.rawValue)
        publicKeyAlgorithm = response.publicKeyAlgorithm.map { NamedNumber(COSEAlgorithm(rawValue: $0)) }
    }
}
