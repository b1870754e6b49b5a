import Foundation
import MetadataTestSupport
import Testing
import VirtualAuthenticator
import WebAuthn
import X509

/// Registrations from a virtual `packed` authenticator whose attestation root is published only in (test)
/// metadata, under each attestation policy.
@Suite("Metadata and attestation policy in registration")
struct MetadataPolicyTests {
    static let aaguidText = "7d1351a6-e097-4852-b8bf-c9ac5c9ce4a3"
    static let aaguid = AAGUID(string: aaguidText) ?? .zero
    static let origin = "https://example.com"
    let vendor: AttestationCA

    init() throws {
        vendor = try AttestationCA.makeRoot(commonName: "Latchkey Test Vendor Attestation Root")
    }

    func blob(statuses: [(String, String)] = [("FIDO_CERTIFIED_L1", "2020-01-01")], roots: [Certificate]? = nil) throws
        -> MetadataBLOB
    {
        let entry = BLOBBuilder.entry(
            aaguid: Self.aaguidText, description: "Latchkey Test Key", roots: roots ?? [vendor.rootCertificate],
            statuses: statuses
        )
        let json = try JSONSerialization.data(withJSONObject: ["no": 1, "nextUpdate": "2099-01-01", "entries": [entry]])
        return try MetadataBLOB(payloadJSON: Array(json))
    }

    /// Registers with a fresh authenticator and verifies under `trust`.
    func register(
        _ trust: AttestationTrust, attestation: AttestationMode? = nil, aaguid: AAGUID = MetadataPolicyTests.aaguid
    ) async throws -> Result<VerifiedRegistration, WebAuthnError> {
        var rp = RelyingParty(id: "example.com", name: "Example", origins: [Self.origin])
        rp.attestationTrust = trust
        let authenticator = VirtualAuthenticator(
            configuration: .init(aaguid: aaguid, attestation: attestation ?? .packed(vendor)))
        let options = rp.beginRegistration(
            user: UserEntity(id: Array("alice".utf8), name: "alice", displayName: "Alice"), attestation: .direct
        )
        let credential = try await authenticator.register(options: options, origin: Self.origin)
        do {
            return .success(try await rp.finishRegistration(credential, expectedChallenge: options.challenge.bytes))
        } catch {
            return .failure(error)
        }
    }

    @Test("policy trusted: the metadata root anchors the chain and the registration carries the statement")
    func trustedThroughMetadata() async throws {
        let registration = try await register(AttestationTrust(metadata: blob(), policy: .trusted)).get()
        #expect(registration.attestation.trust.isTrusted)
        #expect(registration.metadata?.description == "Latchkey Test Key")
        #expect(registration.authenticatorName == "Latchkey Test Key")
    }

    @Test("policy trusted without metadata (or without its root) fails attestation.untrusted")
    func trustedWithoutMetadata() async throws {
        let none = try await register(AttestationTrust(policy: .trusted))
        #expect(none.error?.code == .untrustedAttestation)
        let other = try AttestationCA.makeRoot(commonName: "Someone Else")
        let wrongRoot = try await register(
            AttestationTrust(metadata: blob(roots: [other.rootCertificate]), policy: .trusted))
        #expect(wrongRoot.error?.code == .untrustedAttestation)
    }

    @Test("policy any accepts the same registration without metadata, reporting it untrusted")
    func anyWithoutMetadata() async throws {
        let registration = try await register(AttestationTrust(policy: .any)).get()
        #expect(!registration.attestation.trust.isTrusted)
        #expect(registration.metadata == nil)
    }

    @Test("policy certified needs a FIDO certification status")
    func certified() async throws {
        let certified = try await register(AttestationTrust(metadata: blob(), policy: .certified))
        #expect(certified.value?.metadata?.description == "Latchkey Test Key")
        let uncertified = try await register(
            AttestationTrust(
                metadata: blob(statuses: [("NOT_FIDO_CERTIFIED", "2020-01-01")]), policy: .certified
            ))
        #expect(uncertified.error?.code == .metadataNotCertified)
        let onlyL2 = AttestationPolicy(.certified, certificationLevels: [.fidoCertifiedL2])
        let belowLevel = try await register(AttestationTrust(metadata: blob(), policy: onlyL2))
        #expect(belowLevel.error?.code == .metadataNotCertified)
        let noEntry = try await register(
            AttestationTrust(
                anchorsByFormat: ["packed": [vendor.rootCertificate]], policy: .certified))
        #expect(noEntry.error?.code == .metadataNotCertified)
    }

    @Test(
        "a compromise status rejects under every policy",
        arguments: [
            "REVOKED", "USER_VERIFICATION_BYPASS", "ATTESTATION_KEY_COMPROMISE", "USER_KEY_REMOTE_COMPROMISE",
            "USER_KEY_PHYSICAL_COMPROMISE",
        ])
    func compromised(status: String) async throws {
        let metadata = try blob(statuses: [("FIDO_CERTIFIED_L1", "2020-01-01"), (status, "2021-06-01")])
        for policy in [AttestationPolicy.any, .trusted, .certified] {
            let result = try await register(AttestationTrust(metadata: metadata, policy: policy))
            #expect(result.error?.code == .metadataAuthenticatorCompromised, "policy \(policy)")
        }
        // `none` attestation from the same model is refused too: the AAGUID still names it.
        let unattested = try await register(
            AttestationTrust(metadata: metadata, policy: .any), attestation: AttestationMode.none)
        #expect(unattested.error?.code == .metadataAuthenticatorCompromised)
    }

    @Test("a compromise report dated in the future does not apply yet; UPDATE_AVAILABLE never rejects")
    func notYetCompromised() async throws {
        let future = try await register(
            AttestationTrust(metadata: blob(statuses: [("REVOKED", "2999-01-01")]), policy: .any))
        #expect(future.value != nil)
        let update = try await register(
            AttestationTrust(
                metadata: blob(statuses: [("FIDO_CERTIFIED_L1", "2020-01-01"), ("UPDATE_AVAILABLE", "2021-01-01")]),
                policy: .certified
            ))
        #expect(update.value != nil)
    }

    @Test("fido-u2f: the entry is found by the attestation certificate's subject key identifier")
    func u2fByKeyIdentifier() async throws {
        var rp = RelyingParty(id: "example.com", name: "Example", origins: [Self.origin])
        let authenticator = VirtualAuthenticator(configuration: .init(aaguid: .zero, attestation: .fidoU2F(vendor)))
        let options = rp.beginRegistration(
            user: UserEntity(id: [1], name: "bob", displayName: "Bob"), attestation: .direct)
        let credential = try await authenticator.register(options: options, origin: Self.origin)
        rp.attestationTrust = AttestationTrust(policy: .trusted)
        let unanchored = await failureCode { () async throws(WebAuthnError) in
            try await rp.finishRegistration(credential, expectedChallenge: options.challenge.bytes)
        }
        #expect(unanchored == .untrustedAttestation)

        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        let leafDER = try #require(object.statement[text: "x5c"]?.arrayValue?.first?.bytesValue)
        let keyIdentifier = Array(
            SubjectKeyIdentifier(hash: try Certificate(derEncoded: leafDER).publicKey).keyIdentifier)
        let entry = BLOBBuilder.entry(
            keyIdentifiers: [Hex.encode(keyIdentifier).uppercased()], description: "Latchkey U2F Key",
            roots: [vendor.rootCertificate]
        )
        let json = try JSONSerialization.data(withJSONObject: ["no": 1, "nextUpdate": "2099-01-01", "entries": [entry]])
        rp.attestationTrust.metadata = try MetadataBLOB(payloadJSON: Array(json))
        let registration = try await rp.finishRegistration(credential, expectedChallenge: options.challenge.bytes)
        #expect(registration.attestation.trust.isTrusted)
        #expect(registration.metadata?.description == "Latchkey U2F Key")
    }

    @Test("a signed BLOB file served by MetadataService drives the policy; a bad one leaves it without metadata")
    func throughService() async throws {
        let root = try TestIssuer.root("Latchkey Test MDS Root")
        let signer = try root.issue("mds.latchkey.test", isCA: false)
        var builder = BLOBBuilder(chain: [signer])
        builder.entries = [
            BLOBBuilder.entry(
                aaguid: Self.aaguidText, description: "Latchkey Test Key", roots: [vendor.rootCertificate])
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-mds-\(UUID().uuidString).jwt")
        defer { try? FileManager.default.removeItem(at: file) }

        try Data(builder.build()).write(to: file)
        let service = MetadataService(
            source: .file(file.path), verifier: MetadataBLOBVerifier(trustRoots: [root.certificate]))
        let registration = try await register(AttestationTrust(metadata: service, policy: .certified)).get()
        #expect(registration.metadata?.description == "Latchkey Test Key")
        #expect(try await service.blob().number == 42)

        try Data(builder.build(tamper: true)).write(to: file)
        let broken = MetadataService(
            source: .file(file.path), verifier: MetadataBLOBVerifier(trustRoots: [root.certificate]))
        let refused = try await register(AttestationTrust(metadata: broken, policy: .trusted))
        #expect(refused.error?.code == .untrustedAttestation)
        #expect(await broken.lastError?.code == .metadataBadSignature)
    }

    @Test("MetadataService loads again after nextUpdate and keeps the last good BLOB when that fails")
    func serviceRefresh() async throws {
        let root = try TestIssuer.root("Latchkey Test MDS Root")
        let signer = try root.issue("mds.latchkey.test", isCA: false)
        var builder = BLOBBuilder(chain: [signer])
        builder.nextUpdate = TestIssuer.now + TestIssuer.day
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-mds-\(UUID().uuidString).jwt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(builder.build()).write(to: file)

        let clock = TestClock(TestIssuer.now)
        let service = MetadataService(
            source: .file(file.path), verifier: MetadataBLOBVerifier(trustRoots: [root.certificate]), now: { clock.now }
        )
        #expect(try await service.blob().number == 42)

        builder.number = 43
        builder.nextUpdate = TestIssuer.now + 10 * TestIssuer.day
        try Data(builder.build()).write(to: file)
        #expect(try await service.blob().number == 42)  // not due yet: served from cache
        clock.now = TestIssuer.now + 2 * TestIssuer.day
        #expect(try await service.blob().number == 43)  // past nextUpdate: loaded again

        clock.now = TestIssuer.now + 12 * TestIssuer.day
        try Data("garbage".utf8).write(to: file)
        #expect(try await service.blob().number == 43)  // refresh failed: last good BLOB kept
        #expect(await service.lastError?.code == .metadataMalformed)

        let missing = MetadataService(source: .file(file.path + ".missing"))
        #expect(
            await failureCode { () async throws(WebAuthnError) in try await missing.blob() } == .metadataUnavailable)
    }

    @Test("a custom loader (a server's own HTTP client) feeds MetadataService; its failure is metadata.unavailable")
    func customSource() async throws {
        let root = try TestIssuer.root("Latchkey Test MDS Root")
        var builder = BLOBBuilder(chain: [try root.issue("mds.latchkey.test", isCA: false)])
        builder.entries = [BLOBBuilder.entry(aaguid: Self.aaguidText, description: "Latchkey Test Key")]
        let bytes = try builder.build()
        let verifier = MetadataBLOBVerifier(trustRoots: [root.certificate])
        let service = MetadataService(source: .custom(name: "memory") { bytes }, verifier: verifier)
        #expect(await service.entry(for: Self.aaguid)?.description == "Latchkey Test Key")

        struct Offline: Error {}
        let offline = MetadataService(source: .custom(name: "offline") { throw Offline() }, verifier: verifier)
        #expect(await offline.entry(for: Self.aaguid) == nil)
        #expect(await offline.lastError?.code == .metadataUnavailable)
    }
}

/// A settable clock for ``MetadataService``.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ value: Date) { self.value = value }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
