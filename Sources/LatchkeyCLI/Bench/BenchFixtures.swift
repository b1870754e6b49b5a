import CBOR
import Crypto
import Foundation
import WebAuthn

/// Signed WebAuthn responses made in-process with swift-crypto, so the benchmark depends on nothing but
/// the code it measures: one P-256 credential, its registration (`none` and `packed` self attestation)
/// and one assertion, each as the JSON text a client would send.
struct BenchFixtures: Sendable {
    static let rpID = "bench.latchkey.dev"
    static let origin = "https://bench.latchkey.dev"

    let challenge: [UInt8]
    let credentialID: [UInt8]
    /// The credential public key as a server stores it (COSE_Key bytes).
    let storedPublicKey: [UInt8]
    /// The raw key, for the swift-crypto baseline.
    let publicKey: P256.Signing.PublicKey
    /// What the assertion signs: `authenticatorData || SHA-256(clientDataJSON)`.
    let assertionSignedData: [UInt8]
    let assertionSignature: [UInt8]
    let assertionJSON: [UInt8]
    let noneRegistrationJSON: [UInt8]
    let packedSelfRegistrationJSON: [UInt8]

    init() throws {
        let key = P256.Signing.PrivateKey()
        let rpIDHash = Array(SHA256.hash(data: Array(Self.rpID.utf8)))
        challenge = RelyingParty.generateChallenge()
        credentialID = RelyingParty.generateChallenge(byteCount: 16)
        publicKey = key.publicKey
        let raw = Array(key.publicKey.rawRepresentation)
        storedPublicKey =
            COSEKey(
                algorithm: .es256,
                parameters: .ec2(curve: COSEKey.Curve.p256, x: Array(raw[0..<32]), y: Array(raw[32...]))
            ).rawBytes

        // Registration: UP | UV | AT, counter 0, zero AAGUID.
        var registrationAuthData = rpIDHash + [0x45] + Self.bigEndian(0)
        registrationAuthData += [UInt8](repeating: 0, count: 16)
        registrationAuthData +=
            [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + storedPublicKey
        let createClientData = Self.clientDataJSON(type: CollectedClientData.createType, challenge: challenge)
        let selfSignature = try key.signature(for: registrationAuthData + SHA256.hash(data: createClientData))
            .derRepresentation
        noneRegistrationJSON = try Self.registrationJSON(
            id: credentialID, clientData: createClientData,
            attestationObject: Self.attestationObject(
                format: "none", statement: CBORMap(), authData: registrationAuthData)
        )
        packedSelfRegistrationJSON = try Self.registrationJSON(
            id: credentialID, clientData: createClientData,
            attestationObject: Self.attestationObject(
                format: "packed",
                statement: CBORMap([
                    ("alg", .int(COSEAlgorithm.es256.rawValue)), ("sig", .byteString(Array(selfSignature))),
                ]),
                authData: registrationAuthData
            )
        )

        // Assertion: UP | UV, counter 1.
        let assertionAuthData = rpIDHash + [0x05] + Self.bigEndian(1)
        let getClientData = Self.clientDataJSON(type: CollectedClientData.getType, challenge: challenge)
        assertionSignedData = assertionAuthData + SHA256.hash(data: getClientData)
        assertionSignature = Array(try key.signature(for: assertionSignedData).derRepresentation)
        let assertion = AuthenticationCredential(
            rawId: credentialID,
            response: AuthenticatorAssertionResponse(
                clientDataJSON: getClientData, authenticatorData: assertionAuthData, signature: assertionSignature
            )
        )
        assertionJSON = Array(try JSONEncoder().encode(assertion))
    }

    /// A relying party for the fixtures' RP ID and origin.
    static var relyingParty: RelyingParty {
        RelyingParty(id: rpID, name: "Latchkey bench", origins: [origin])
    }

    private static func clientDataJSON(type: String, challenge: [UInt8]) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#
                .utf8)
    }

    private static func attestationObject(format: String, statement: CBORMap, authData: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(
            .map(
                CBORMap([
                    ("fmt", .textString(format)), ("attStmt", .map(statement)), ("authData", .byteString(authData)),
                ])))
    }

    private static func registrationJSON(id: [UInt8], clientData: [UInt8], attestationObject: [UInt8]) throws -> [UInt8]
    {
        let credential = RegistrationCredential(
            rawId: id,
            response: AuthenticatorAttestationResponse(
                clientDataJSON: clientData, attestationObject: attestationObject, transports: [.internal]
            ),
            authenticatorAttachment: .platform
        )
        return Array(try JSONEncoder().encode(credential))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}

extension BenchFixtures {
    /// The baseline every benchmark is given in: swift-crypto's P-256 verification of the assertion's signed bytes
    /// (DER signature parsed inside the loop, key built once).
    static func rawVerifyPhase(_ fixtures: BenchFixtures) -> BenchClock.Phase {
        BenchClock.Phase("raw P-256 verify (swift-crypto)") {
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: fixtures.assertionSignature)
            else { return false }
            return fixtures.publicKey.isValidSignature(signature, for: fixtures.assertionSignedData)
        }
    }
}
