import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

@Suite("android-safetynet attestation")
struct AndroidSafetyNetAttestationTests {
    /// ctsProfileMatch false, not enforced; verifyAt is about one second after timestampMs.
    static let fresh = "sw-safetynet-cts-not-enforced"
    static let stale = "sw-safetynet-2019-timestamp-stale"

    static func code(_ check: String) -> WebAuthnError.Code { .attestation("android-safetynet", check) }

    @Test("the passing SafetyNet vectors verify as basic attestation", arguments: ["py-safetynet-2021", fresh])
    func vectorsVerify(_ id: String) async throws {
        let result = try await VectorRegistration(id).verify().get()
        #expect(result.attestationType == .basic)
        #expect(result.attestation.trust.isTrusted)
    }

    @Test("an empty or missing ver fails")
    func version() async throws {
        for ver: CBORValue? in [.textString(""), nil, .int(1)] {
            var registration = try VectorRegistration(Self.fresh)
            registration.set("ver", ver)
            #expect(try await registration.failureCode() == Self.code("malformed"))
        }
    }

    @Test("ctsProfileMatch false fails when the CTS check is enforced")
    func ctsEnforced() async throws {
        let registration = try VectorRegistration(Self.fresh)
        #expect(
            try await registration.failureCode { $0.attestationOptions.safetyNetEnforceCTSProfileMatch = true }
                == Self.code("ctsProfileMismatch"))
    }

    @Test("a timestamp older than the maximum age or beyond the clock skew fails")
    func timestampWindow() async throws {
        let registration = try VectorRegistration(Self.fresh)
        #expect(try await registration.failureCode(timeShift: 120) == Self.code("timestampOutOfRange"))
        #expect(try await registration.failureCode(timeShift: -120) == Self.code("timestampOutOfRange"))
        #expect(
            try await registration.failureCode(timeShift: 120) { $0.attestationOptions.safetyNetMaximumAge = 300 }
                == nil)
        #expect(
            try await registration.failureCode(timeShift: -120) {
                $0.attestationOptions.safetyNetAllowedClockSkew = 300
            } == nil)
    }

    @Test("a stale capture verifies when the timestamp check is skipped")
    func staleSkipped() async throws {
        let registration = try VectorRegistration(Self.stale)
        #expect(try await registration.failureCode() == Self.code("timestampOutOfRange"))
        // Its chain leads to GlobalSign R2 (the vector names R1, which its failure never reaches).
        let root = try Certificate(pemEncoded: Fixtures.root(named: "GlobalSign Root CA - R2"))
        let result = try await registration.verify {
            $0.attestationOptions.safetyNetSkipTimestampCheck = true
            $0.attestationTrust = AttestationTrust(anchorsByFormat: ["android-safetynet": [root]])
        }
        #expect(try result.get().attestation.trust.isTrusted)
    }

    @Test("a flipped JWS signature byte fails")
    func badSignature() async throws {
        var registration = try VectorRegistration(Self.fresh)
        registration.change("response") { response in
            var parts = response.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { Array($0) }
            var signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self)) ?? []
            signature[10] ^= 0x01
            parts[2] = Array(Base64URL.encode(signature).utf8)
            response = Array(parts.joined(separator: [UInt8(ascii: ".")]))
        }
        #expect(try await registration.failureCode() == Self.code("badSignature"))
    }

    @Test("a response that is not a compact JWS fails")
    func notJWS() async throws {
        for response in ["a.b", "a.b.c.d", "!!.??.**"] {
            var registration = try VectorRegistration(Self.fresh)
            registration.set("response", .byteString(Array(response.utf8)))
            #expect(try await registration.failureCode() == Self.code("responseMalformed"))
        }
    }

    // MARK: Responses made here, signed by a key of our own

    @Test("a made-up ES256 response verifies, and chains to its CA")
    func syntheticResponseVerifies() async throws {
        let safetyNet = SyntheticSafetyNet()
        #expect(try await safetyNet.verify().type == .basic)
        let anchors = [try TestCertificates.authority(safetyNet.caKey)]
        #expect(try await safetyNet.verify(anchors: anchors).trust.isTrusted)
    }

    @Test("a nonce that is not base64(SHA-256(authData || clientDataHash)) fails")
    func nonceMismatch() async throws {
        var safetyNet = SyntheticSafetyNet()
        safetyNet.nonce = Data(SHA256.hash(data: safetyNet.registration.authData)).base64EncodedString()
        #expect(await failureCode { try await safetyNet.verify() } == Self.code("nonceMismatch"))
    }

    @Test("a signing certificate for another host fails, whether named by SAN or CN")
    func hostnameMismatch() async throws {
        var bySAN = SyntheticSafetyNet()
        bySAN.dnsNames = ["attest.android.com.example.net"]
        #expect(await failureCode { try await bySAN.verify() } == Self.code("hostnameMismatch"))
        var byCN = SyntheticSafetyNet()
        byCN.dnsNames = []
        byCN.commonName = "attest.android.co"
        #expect(await failureCode { try await byCN.verify() } == Self.code("hostnameMismatch"))
        byCN.commonName = "attest.android.com"
        #expect(await failureCode { try await byCN.verify() } == nil)
    }

    @Test("a JWS algorithm SafetyNet does not use fails")
    func unsupportedAlgorithm() async throws {
        var safetyNet = SyntheticSafetyNet()
        safetyNet.headerAlgorithm = "none"
        #expect(await failureCode { try await safetyNet.verify() } == .unsupportedAlgorithm)
    }

    @Test("a payload without ctsProfileMatch fails")
    func missingCTSProfileMatch() async throws {
        var safetyNet = SyntheticSafetyNet()
        safetyNet.ctsProfileMatch = nil
        #expect(await failureCode { try await safetyNet.verify() } == Self.code("responseMalformed"))
    }
}

/// A SafetyNet response built here: an ES256 JWS whose x5c leaf a throwaway CA issues.
struct SyntheticSafetyNet {
    let registration = SyntheticRegistration()
    let caKey = P256.Signing.PrivateKey()
    let signingKey = P256.Signing.PrivateKey()
    var headerAlgorithm = "ES256"
    var dnsNames = [AndroidSafetyNetAttestation.attestationHostname]
    var commonName = "Latchkey test SafetyNet"
    var nonce: String
    var ctsProfileMatch: Bool? = true

    init() {
        nonce = Data(SHA256.hash(data: registration.signedData)).base64EncodedString()
    }

    func response() throws -> [UInt8] {
        var extensions: [Certificate.Extension] = []
        if !dnsNames.isEmpty {
            extensions.append(try SubjectAlternativeNames(dnsNames.map { .dnsName($0) }).makeCertificateExtension())
        }
        let subject = DistinguishedName([
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: commonName))
        ])
        let leaf = try TestCertificates.issue(
            for: Certificate.PublicKey(signingKey.publicKey), subject: subject,
            extensions: try Certificate.Extensions(extensions), by: caKey
        )
        var payload: [String: Any] = [
            "nonce": nonce, "timestampMs": Int64(Date().timeIntervalSince1970 * 1000), "basicIntegrity": true,
        ]
        if let ctsProfileMatch { payload["ctsProfileMatch"] = ctsProfileMatch }
        let header: [String: Any] = ["alg": headerAlgorithm, "x5c": [Data(leaf).base64EncodedString()]]
        let signingInput =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header))
            + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: payload))
        let signature = try signingKey.signature(for: Array(signingInput.utf8)).rawRepresentation
        return Array((signingInput + "." + Base64URL.encode(signature)).utf8)
    }

    func verify(anchors: [Certificate]? = nil) async throws -> VerifiedAttestation {
        let statement = CBORMap([
            (.textString("ver"), .textString("252037029")), (.textString("response"), .byteString(try response())),
        ])
        return try await AndroidSafetyNetAttestation().verify(
            registration.context(format: "android-safetynet", statement: .map(statement), anchors: anchors)
        )
    }
}
