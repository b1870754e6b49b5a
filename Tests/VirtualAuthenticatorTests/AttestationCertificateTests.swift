import CBOR
import Crypto
import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn
import X509

/// The attestation certificates the virtual authenticator has its CA issue.
@Suite("Attestation certificates")
struct AttestationCertificateTests {
    private func leaf(of credential: RegistrationCredential) throws -> [Certificate] {
        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        let x5c = try #require(object.statement[text: "x5c"]?.arrayValue)
        return try x5c.map { try Certificate(derEncoded: try #require($0.bytesValue)) }
    }

    @Test("the packed leaf meets WebAuthn §8.2.1 and carries the AAGUID, non-critical")
    func packedLeaf() async throws {
        let ca = try TestCA.root.get()
        let aaguid = try #require(AAGUID(string: "0bb43545-fd2c-4185-87dd-feb0b2916ace"))
        let harness = Harness(.testing(attestation: .packed(ca)) { $0.aaguid = aaguid })
        let credential = try await harness.create(harness.creationOptions())
        let leaf = try #require(try leaf(of: credential).first)

        #expect(leaf.version == .v3)
        let subject = Set(leaf.subject.description.split(separator: ","))
        #expect(subject == ["C=US", "O=Latchkey", "OU=Authenticator Attestation", "CN=Latchkey Virtual Authenticator"])
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(leaf.issuer == ca.certificate.subject)
        #expect(ca.certificate.publicKey.isValidSignature(leaf.signature, for: leaf))

        let aaguidExtension = try #require(leaf.extensions[oid: .fidoAAGUID])
        #expect(aaguidExtension.critical == false)
        #expect(Array(aaguidExtension.value) == [0x04, 0x10] + aaguid.bytes)  // OCTET STRING (16 bytes)
    }

    @Test("one attestation certificate per authenticator, reused across registrations")
    func leafReused() async throws {
        let harness = Harness(.testing(attestation: .packed(try TestCA.root.get())))
        let first = try await harness.create(harness.creationOptions())
        let second = try await harness.create(harness.creationOptions(user: Harness.bob))
        #expect(try leaf(of: first) == leaf(of: second))
    }

    @Test("the fido-u2f certificate has no AAGUID extension and a P-256 key")
    func u2fLeaf() async throws {
        let harness = Harness(.testing(attestation: .fidoU2F(try TestCA.root.get())))
        let credential = try await harness.create(harness.creationOptions())
        let leaf = try #require(try leaf(of: credential).first)
        #expect(leaf.extensions[oid: .fidoAAGUID] == nil)
        #expect(P256.Signing.PublicKey(leaf.publicKey) != nil)
    }

    @Test("an intermediate CA: x5c is leaf then intermediate, never the root")
    func intermediateChain() async throws {
        let root = try TestCA.root.get()
        let intermediate = try root.makeIntermediate()
        #expect(intermediate.rootCertificate == root.certificate)
        #expect(try intermediate.certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        let harness = Harness(.testing(attestation: .packed(intermediate)))
        let credential = try await harness.create(harness.creationOptions())
        let chain = try leaf(of: credential)
        #expect(chain.count == 2)
        #expect(chain.last == intermediate.certificate)
        #expect(!chain.contains(root.certificate))
    }

    @Test("a root made with a validity window: the leaf inherits it")
    func validity() async throws {
        let notBefore = Date(timeIntervalSince1970: 1_700_000_000)
        let notAfter = notBefore.addingTimeInterval(86_400 * 30)
        let ca = try AttestationCA.makeRoot(notValidBefore: notBefore, notValidAfter: notAfter)
        let harness = Harness(.testing(attestation: .packed(ca))) {
            $0.attestationTrust = TestCA.trusting(ca, for: "packed")
        }
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        let leaf = try #require(try leaf(of: credential).first)
        #expect(leaf.notValidBefore == notBefore && leaf.notValidAfter == notAfter)
        let registration = try await harness.finishRegistration(
            credential, options: options, at: notBefore.addingTimeInterval(3600))
        #expect(registration.attestation.trust.isTrusted)
        await expectWebAuthnError(.certificateNotYetValid) {
            try await harness.finishRegistration(credential, options: options, at: notBefore.addingTimeInterval(-3600))
        }
    }
}
