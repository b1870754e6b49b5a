import CBOR
import Crypto
import Foundation
import X509

@testable import WebAuthn

/// A registration made up by a test: a fresh P-256 credential key, authenticator data for `example.com`
/// holding it, client data, and whatever attestation statement the test builds over them.
struct SyntheticRegistration {
    static let rpID = "example.com"
    static let origin = "https://example.com"

    let credentialKey = P256.Signing.PrivateKey()
    let challenge: [UInt8] = RelyingParty.generateChallenge()
    let aaguid: [UInt8]

    init(aaguid: [UInt8] = Array(repeating: 0x2a, count: 16)) {
        self.aaguid = aaguid
    }

    var coseKey: COSEKey {
        let raw = Array(credentialKey.publicKey.rawRepresentation)
        return COSEKey(
            algorithm: .es256, parameters: .ec2(curve: COSEKey.Curve.p256, x: Array(raw[..<32]), y: Array(raw[32...])))
    }

    var credentialID: [UInt8] { Array(SHA256.hash(data: coseKey.rawBytes).prefix(16)) }

    /// rpIdHash, flags UP|AT, counter 0, then the attested credential data.
    var authData: [UInt8] {
        let flags: UInt8 = 0x41
        return Array(SHA256.hash(data: Array(Self.rpID.utf8))) + [flags, 0, 0, 0, 0] + aaguid
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey.rawBytes
    }

    var clientDataJSON: [UInt8] {
        Array(
            #"{"type":"webauthn.create","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(Self.origin)","crossOrigin":false}"#
                .utf8)
    }

    var clientDataHash: [UInt8] { Array(SHA256.hash(data: clientDataJSON)) }

    /// `authData || clientDataHash`.
    var signedData: [UInt8] { authData + clientDataHash }

    /// The credential key's DER signature over `signedData` (what packed self and android-key sign).
    func credentialSignature() throws -> [UInt8] {
        Array(try credentialKey.signature(for: signedData).derRepresentation)
    }

    /// The context a format verifier sees for `statement`, judged now.
    func context(
        format: String, statement: CBORValue, anchors: [Certificate]? = nil,
        options: AttestationOptions = AttestationOptions()
    ) throws -> AttestationContext {
        let authenticatorData = try AuthenticatorData(bytes: authData)
        guard let attested = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.attestedCredentialDataMissing, "synthetic authData has no attested credential data")
        }
        return AttestationContext(
            format: format, statement: statement.mapValue ?? CBORMap(), rawStatement: statement,
            authenticatorData: authenticatorData, clientDataHash: clientDataHash, credential: attested,
            verificationTime: Date(),
            trust: AttestationTrust(anchorsByFormat: anchors.map { [format: $0] } ?? [:]), options: options
        )
    }

    /// The credential JSON a client would send for this registration with `format` and `statement`.
    func credential(format: String, statement: CBORValue) -> RegistrationCredential {
        let attestationObject = CBOREncoder.encode(
            .map(
                CBORMap([
                    (.textString("fmt"), .textString(format)), (.textString("attStmt"), statement),
                    (.textString("authData"), .byteString(authData)),
                ])))
        return RegistrationCredential(
            rawId: credentialID,
            response: AuthenticatorAttestationResponse(
                clientDataJSON: clientDataJSON, attestationObject: attestationObject)
        )
    }

    /// A relying party for `example.com` with no attestation anchors.
    static var relyingParty: RelyingParty {
        var rp = RelyingParty(id: rpID, name: "Synthetic", origins: [origin])
        rp.attestationTrust = .empty
        return rp
    }
}

/// Certificates issued in tests by a throwaway P-256 CA, valid from a day ago to a day ahead.
enum TestCertificates {
    static let caName = DistinguishedName([
        RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "Latchkey Test Attestation CA"))
    ])

    /// Issues a certificate for `publicKey` and returns its DER.
    static func issue(
        for publicKey: Certificate.PublicKey, subject: DistinguishedName, extensions: Certificate.Extensions,
        by issuerKey: P256.Signing.PrivateKey
    ) throws -> [UInt8] {
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: Date().addingTimeInterval(-86_400), notValidAfter: Date().addingTimeInterval(86_400),
            issuer: caName, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
        return try certificate.serializeAsPEM().derBytes
    }

    /// The test CA's self-signed certificate for `key`.
    static func authority(_ key: P256.Signing.PrivateKey) throws -> Certificate {
        let der = try issue(
            for: Certificate.PublicKey(key.publicKey), subject: caName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            },
            by: key
        )
        return try Certificate(derEncoded: der)
    }
}
