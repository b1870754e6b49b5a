import CBOR
import Foundation
import Testing
import WebAuthn
import X509

/// Real-device registrations whose attestation chains are anchored only by metadata: the vendor root goes into
/// a metadata entry found by AAGUID (packed) or by the attestation certificate's key identifier (fido-u2f).
@Suite("Real-device vectors against metadata-derived anchors")
struct MetadataVectorTests {
    static let yubicoRoot = "Yubico U2F Root CA Serial 457200631"

    /// The entry a registration's authenticator would have in the FIDO metadata: by AAGUID, or for a zero AAGUID
    /// by the subject key identifier of `x5c[0]`.
    static func metadata(for registration: VectorRegistration, root: String) throws -> MetadataBLOB {
        let authData = try AuthenticatorData(bytes: registration.authData)
        let aaguid = try #require(authData.attestedCredentialData?.aaguid)
        let anchor = try Certificate(pemEncoded: Fixtures.root(named: root))
        var statement = MetadataStatement(
            description: "YubiKey (test metadata)",
            attestationRootCertificates: [
                Data(try anchor.serializeAsPEM().derBytes).base64EncodedString()
            ])
        statement.protocolFamily = aaguid.isZero ? "u2f" : "fido2"
        var keyIdentifiers: [String] = []
        if aaguid.isZero {
            let leaf = try Certificate(derEncoded: try #require(registration.x5c.first))
            keyIdentifiers = [Hex.encode(SubjectKeyIdentifier(hash: leaf.publicKey).keyIdentifier)]
        }
        let entry = MetadataEntry(
            aaguid: aaguid.isZero ? nil : aaguid, attestationCertificateKeyIdentifiers: keyIdentifiers,
            metadataStatement: statement, statusReports: [StatusReport(status: .fidoCertifiedL1)]
        )
        return MetadataBLOB(number: 1, nextUpdate: .distantFuture, entries: [entry])
    }

    @Test(
        "YubiKey registrations are trusted through their metadata entry alone",
        arguments: [
            "py-packed-yubikey-eddsa", "py-packed-yubikey-firefox", "go-u2f-format", "py-u2f-tokenbinding-string",
            "sw-u2f-dontneeda",
        ])
    func yubiKey(id: String) async throws {
        let registration = try VectorRegistration(id)
        let metadata = try Self.metadata(for: registration, root: Self.yubicoRoot)
        let result = try await registration.verify { rp in
            rp.attestationTrust = AttestationTrust(metadata: metadata, policy: .certified)
        }
        let verified = try result.get()
        #expect(verified.attestation.trust.isTrusted)
        #expect(verified.metadata?.description == "YubiKey (test metadata)")
        #expect(verified.authenticatorName == "YubiKey (test metadata)")

        // Without the metadata entry no anchor vouches for the chain, so a trusted path cannot be shown.
        let unanchored = try await registration.failureCode { rp in
            rp.attestationTrust = AttestationTrust(policy: .trusted)
        }
        #expect(unanchored == .untrustedAttestation)
    }

    @Test("a metadata entry naming another vendor's root does not anchor a YubiKey chain")
    func wrongVendorRoot() async throws {
        let registration = try VectorRegistration("py-packed-yubikey-firefox")
        let metadata = try Self.metadata(for: registration, root: "Apple WebAuthn Root CA")
        let code = try await registration.failureCode { rp in
            rp.attestationTrust = AttestationTrust(metadata: metadata, policy: .trusted)
        }
        #expect(code == .untrustedAttestation)
    }

    @Test("a compromise status on a real YubiKey's entry refuses the registration")
    func compromisedYubiKey() async throws {
        let registration = try VectorRegistration("py-packed-yubikey-eddsa")
        var metadata = try Self.metadata(for: registration, root: Self.yubicoRoot)
        var entry = try #require(metadata.entries.first)
        entry.statusReports.append(
            StatusReport(status: .attestationKeyCompromise, effectiveDate: Date(timeIntervalSince1970: 0)))
        metadata = MetadataBLOB(number: 1, nextUpdate: .distantFuture, entries: [entry])
        let code = try await registration.failureCode { rp in
            rp.attestationTrust = AttestationTrust(metadata: metadata, policy: .any)
        }
        #expect(code == .metadataAuthenticatorCompromised)
    }
}
