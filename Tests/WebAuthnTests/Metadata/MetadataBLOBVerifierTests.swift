import Crypto
import Foundation
import MetadataTestSupport
import Testing
import WebAuthn
import X509

@Suite("MDS3 BLOB verification")
struct MetadataBLOBVerifierTests {
    static let aaguid = "4c0cf95d-2f40-43b5-ba42-4c83a11c04ba"
    let root: TestIssuer
    let intermediate: TestIssuer
    let signer: TestIssuer

    init() throws {
        root = try TestIssuer.root("Latchkey Test MDS Root")
        intermediate = try root.issue("Latchkey Test MDS CA", isCA: true)
        signer = try intermediate.issue("mds.latchkey.test", isCA: false)
    }

    var verifier: MetadataBLOBVerifier { MetadataBLOBVerifier(trustRoots: [root.certificate]) }

    func builder() -> BLOBBuilder {
        var builder = BLOBBuilder(chain: [signer, intermediate])
        builder.entries = [BLOBBuilder.entry(aaguid: Self.aaguid, description: "Latchkey Test Key")]
        return builder
    }

    @Test("a BLOB signed under the configured root verifies and its entries are indexed")
    func valid() async throws {
        let blob = try await verifier.verify(builder().build(), at: TestIssuer.now)
        #expect(blob.number == 42)
        #expect(blob.legalHeader == "test BLOB")
        #expect(blob.entries.count == 1)
        let aaguid = try #require(AAGUID(string: Self.aaguid))
        let entry = try #require(blob.entry(for: aaguid))
        #expect(entry.description == "Latchkey Test Key")
        #expect(entry.metadataStatement?.authenticatorVersion == 5)
        #expect(entry.currentStatus(at: TestIssuer.now) == .fidoCertifiedL1)
        #expect(blob.entry(for: .zero) == nil)
    }

    @Test("trailing newline (as files are saved) is accepted")
    func trailingNewline() async throws {
        let blob = try await verifier.verify(builder().build() + [0x0a], at: TestIssuer.now)
        #expect(blob.number == 42)
    }

    @Test("a changed signature fails metadata.badSignature")
    func badSignature() async throws {
        let bytes = try builder().build(tamper: true)
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataBadSignature)
    }

    @Test("a BLOB signed by a key other than the leaf's fails metadata.badSignature")
    func wrongSigner() async throws {
        var builder = builder()
        builder.signer = intermediate.key
        let bytes = try builder.build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataBadSignature)
    }

    @Test("a chain to another root fails metadata.untrustedChain")
    func wrongRoot() async throws {
        let other = try TestIssuer.root("Some Other Root")
        let bytes = try builder().build()
        let verifier = MetadataBLOBVerifier(trustRoots: [other.certificate])
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataUntrustedChain)
    }

    @Test("the production FIDO root does not accept a test BLOB")
    func defaultRoot() async throws {
        let bytes = try builder().build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in
                try await MetadataBLOBVerifier().verify(bytes, at: TestIssuer.now)
            } == .metadataUntrustedChain)
    }

    @Test("an expired signing certificate fails metadata.untrustedChain")
    func expiredLeaf() async throws {
        var builder = builder()
        let expired = try intermediate.issue(
            "mds.latchkey.test", isCA: false, from: TestIssuer.now - 60 * TestIssuer.day,
            to: TestIssuer.now - TestIssuer.day)
        builder.chain = [expired, intermediate]
        builder.signer = expired.key
        let bytes = try builder.build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataUntrustedChain)
        // The same BLOB verified at a time when the leaf was valid (and before nextUpdate) passes.
        #expect(try await verifier.verify(bytes, at: TestIssuer.now - 2 * TestIssuer.day).number == 42)
    }

    @Test("an intermediate listed in the root's CRL fails metadata.revoked")
    func revokedIntermediate() async throws {
        let bytes = try builder().build()
        let crl = try CertificateRevocationList(derEncoded: root.revocationList(revoking: [intermediate.certificate]))
        #expect(crl.issuer == root.certificate.subject)
        #expect(crl.revokedSerialNumbers == [intermediate.certificate.serialNumber])
        #expect(crl.isSigned(by: root.certificate))
        let verifier = MetadataBLOBVerifier(trustRoots: [root.certificate], revocationLists: [crl])
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataRevoked)
    }

    @Test("CRLs that revoke other certificates let the chain through")
    func crlWithoutTheChain() async throws {
        let bytes = try builder().build()
        let unrelated = try root.issue("Unrelated CA", isCA: true)
        let lists = try [
            CertificateRevocationList(derEncoded: root.revocationList(revoking: [unrelated.certificate])),
            CertificateRevocationList(derEncoded: intermediate.revocationList(revoking: [])),
        ]
        let verifier = MetadataBLOBVerifier(trustRoots: [root.certificate], revocationLists: lists)
        #expect(try await verifier.verify(bytes, at: TestIssuer.now).number == 42)
    }

    @Test("a CRL not signed by its issuer fails metadata.untrustedChain")
    func forgedCRL() async throws {
        let bytes = try builder().build()
        let impostor = TestIssuer(certificate: root.certificate, key: P256.Signing.PrivateKey())
        let crl = try CertificateRevocationList(derEncoded: impostor.revocationList(revoking: []))
        #expect(!crl.isSigned(by: root.certificate))
        let verifier = MetadataBLOBVerifier(trustRoots: [root.certificate], revocationLists: [crl])
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataUntrustedChain)
    }

    @Test("a CRL past its nextUpdate fails metadata.stale")
    func staleCRL() async throws {
        let bytes = try builder().build()
        let crl = try CertificateRevocationList(
            derEncoded: root.revocationList(
                revoking: [], thisUpdate: TestIssuer.now - 10 * TestIssuer.day,
                nextUpdate: TestIssuer.now - TestIssuer.day
            ))
        let verifier = MetadataBLOBVerifier(trustRoots: [root.certificate], revocationLists: [crl])
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataStale)
    }

    @Test("bytes that are not a CRL fail metadata.malformed")
    func malformedCRL() {
        #expect(throws: WebAuthnError.self) {
            try CertificateRevocationList(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        do {
            _ = try CertificateRevocationList(derEncoded: [0x04, 0x00])
        } catch {
            #expect(error.code == .metadataMalformed)
        }
    }

    @Test("a BLOB past its nextUpdate fails metadata.stale")
    func stale() async throws {
        var builder = builder()
        builder.nextUpdate = TestIssuer.now - 2 * TestIssuer.day
        let bytes = try builder.build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataStale)
    }

    @Test("a BLOB whose no is not newer than the one held fails metadata.stale")
    func notNewer() async throws {
        let bytes = try builder().build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in
                try await verifier.verify(bytes, at: TestIssuer.now, previousNumber: 42)
            } == .metadataStale)
        #expect(try await verifier.verify(bytes, at: TestIssuer.now, previousNumber: 41).number == 42)
    }

    @Test(
        "text that is not a JWS, or a payload that is not MDS3, fails metadata.malformed",
        arguments: [
            "not a jws", "a.b", "eyJhbGciOiJFUzI1NiJ9.e30.AA",
        ])
    func malformed(text: String) async {
        #expect(
            await failureCode { () async throws(WebAuthnError) in
                try await verifier.verify(Array(text.utf8), at: TestIssuer.now)
            } == .metadataMalformed)
    }

    @Test("a signed payload without entries fails metadata.malformed")
    func payloadWithoutEntries() async throws {
        var builder = builder()
        builder.entries = [["aaguid": "not-an-aaguid"]]
        let bytes = try builder.build()
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await verifier.verify(bytes, at: TestIssuer.now) }
                == .metadataMalformed)
    }

    @Test("the built-in FIDO root is GlobalSign Root CA - R3")
    func fidoRoot() throws {
        let root = try #require(MetadataBLOBVerifier.fidoRoots.first)
        let der = try root.serializeAsPEM().derBytes
        let fingerprint = Hex.encode(SHA256.hash(data: der))
        #expect(fingerprint == "cbb522d7b7f127ad6a0113865bdf1cd4102e7d0759af635a7cf4720dc963c53b")
    }
}
