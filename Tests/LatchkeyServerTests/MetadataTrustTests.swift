import Foundation
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import LatchkeyServer
import MetadataTestSupport
import Testing
import VirtualAuthenticator
import WebAuthn
import X509

/// `--metadata`, `--metadata-trust-root` and `--attestation-policy`: registrations judged against FIDO metadata the
/// tests sign with their own MDS root, and authenticator names in the passkey list.
@Suite("Server: FIDO metadata and attestation policy")
struct MetadataTrustTests {
    static let certifiedKey = AAGUID(string: "4c0cf95d-2f40-43b5-ba42-4c83a11c04ba")!
    static let compromisedKey = AAGUID(string: "0badc0de-0000-4000-8000-000000000001")!
    static let uncertifiedKey = AAGUID(string: "5eed5eed-0000-4000-8000-000000000002")!

    /// A test MDS root, a BLOB it signs naming the three authenticators above (each attesting under `ca`), and
    /// both written to files the server reads.
    struct MetadataFiles {
        let directory: URL
        let blob: String
        let root: String

        init(ca: AttestationCA) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "latchkey-mds-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let mdsRoot = try TestIssuer.root("Latchkey Server Test MDS Root")
            var builder = BLOBBuilder(chain: [try mdsRoot.issue("mds.latchkey.test", isCA: false)])
            builder.entries = [
                BLOBBuilder.entry(
                    aaguid: certifiedKey.description, description: "Latchkey Certified Key", roots: [ca.rootCertificate]
                ),
                BLOBBuilder.entry(
                    aaguid: compromisedKey.description, description: "Latchkey Compromised Key",
                    roots: [ca.rootCertificate],
                    statuses: [("FIDO_CERTIFIED_L1", "2020-01-01"), ("USER_VERIFICATION_BYPASS", "2021-06-01")]
                ),
                BLOBBuilder.entry(
                    aaguid: uncertifiedKey.description, description: "Latchkey Uncertified Key",
                    roots: [ca.rootCertificate],
                    statuses: [("NOT_FIDO_CERTIFIED", "2020-01-01")]
                ),
            ]
            blob = directory.appendingPathComponent("blob.jwt").path
            root = directory.appendingPathComponent("root.pem").path
            try Data(builder.build()).write(to: URL(fileURLWithPath: blob))
            try mdsRoot.certificate.serializeAsPEM().pemString.write(toFile: root, atomically: true, encoding: .utf8)
        }

        func settings(policy: String) -> ServerSettings {
            var settings = ServerSettings.test
            settings.metadata = blob
            settings.metadataTrustRoot = root
            settings.attestationPolicy = policy
            settings.attestation = "direct"
            return settings
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func authenticator(_ aaguid: AAGUID, _ attestation: AttestationMode) -> VirtualAuthenticator {
        VirtualAuthenticator(configuration: VirtualAuthenticatorConfiguration(aaguid: aaguid, attestation: attestation))
    }

    /// Signs up `name` and, on success, returns the passkey list.
    private static func signUp(_ server: ServerHarness, _ name: String, _ authenticator: VirtualAuthenticator)
        async throws -> (Reply, [PasskeySummary])
    {
        let app = NativeClient(http: server.app())
        let reply = try await app.signUp(name, with: authenticator)
        guard reply.status == .created else { return (reply, []) }
        let session: SessionResponse = try reply.decode()
        await app.http.setBearer(session.session.token)
        let list: PasskeyList = try await app.http.send(.get, APIPaths.Native.passkeys).decode()
        return (reply, list.passkeys)
    }

    @Test("without metadata, the built-in table names passkey providers; unknown and zero AAGUIDs have no name")
    func builtInNames() async throws {
        try await withServer(.sqlite) { server in
            let iCloud = try #require(AAGUID(string: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd"))
            let (_, named) = try await Self.signUp(server, "ann", Self.authenticator(iCloud, .none))
            #expect(named.map(\.authenticatorName) == ["iCloud Keychain"])
            let (_, unknown) = try await Self.signUp(server, "ben", Self.authenticator(Self.certifiedKey, .none))
            #expect(unknown.count == 1)
            #expect(unknown.first?.authenticatorName == nil)
        }
    }

    @Test(
        "policy trusted: a chain to the metadata's root is accepted and named from the metadata",
        arguments: Backend.available)
    func trustedChainFromMetadata(_ backend: Backend) async throws {
        let ca = try AttestationCA.makeRoot()
        let files = try MetadataFiles(ca: ca)
        defer { files.remove() }
        try await withServer(backend, settings: files.settings(policy: "trusted")) { server in
            let (reply, passkeys) = try await Self.signUp(
                server, "carol", Self.authenticator(Self.certifiedKey, .packed(ca)))
            #expect(reply.status == .created, "\(reply)")
            #expect(passkeys.map(\.authenticatorName) == ["Latchkey Certified Key"])
        }
    }

    @Test("policy trusted refuses self attestation and a chain to a root the metadata does not list; nothing is stored")
    func untrustedIsRefused() async throws {
        let ca = try AttestationCA.makeRoot()
        let files = try MetadataFiles(ca: ca)
        defer { files.remove() }
        try await withServer(.sqlite, settings: files.settings(policy: "trusted")) { server in
            let (selfAttested, _) = try await Self.signUp(
                server, "dave", Self.authenticator(Self.certifiedKey, .packedSelf))
            #expect(selfAttested.status == .badRequest)
            #expect(selfAttested.errorCode == "attestation.untrusted")
            let stranger = try AttestationCA.makeRoot(commonName: "Not In Metadata")
            let (foreign, _) = try await Self.signUp(
                server, "dave", Self.authenticator(Self.certifiedKey, .packed(stranger)))
            #expect(foreign.errorCode == "attestation.untrusted")
            #expect(try await server.store.user(named: "dave") == nil)
        }
    }

    @Test("a compromised authenticator is refused under every policy, even any")
    func compromisedIsRefused() async throws {
        let ca = try AttestationCA.makeRoot()
        let files = try MetadataFiles(ca: ca)
        defer { files.remove() }
        for policy in ["any", "trusted"] {
            try await withServer(.sqlite, settings: files.settings(policy: policy)) { server in
                let (reply, _) = try await Self.signUp(
                    server, "erin", Self.authenticator(Self.compromisedKey, .packed(ca)))
                #expect(reply.status == .badRequest, "policy \(policy)")
                #expect(reply.errorCode == "metadata.authenticatorCompromised", "policy \(policy)")
                #expect(try await server.store.user(named: "erin") == nil)
            }
        }
    }

    @Test("policy certified accepts a certified authenticator and refuses an uncertified one")
    func certifiedPolicy() async throws {
        let ca = try AttestationCA.makeRoot()
        let files = try MetadataFiles(ca: ca)
        defer { files.remove() }
        try await withServer(.sqlite, settings: files.settings(policy: "certified")) { server in
            let (certified, _) = try await Self.signUp(
                server, "fay", Self.authenticator(Self.certifiedKey, .packed(ca)))
            #expect(certified.status == .created, "\(certified)")
            let (uncertified, _) = try await Self.signUp(
                server, "gus", Self.authenticator(Self.uncertifiedKey, .packed(ca)))
            #expect(uncertified.errorCode == "metadata.notCertified")
            #expect(try await server.store.user(named: "gus") == nil)
        }
    }

    @Test("bad metadata and policy settings are refused with the setting named")
    func configurationIsChecked() throws {
        let ca = try AttestationCA.makeRoot()
        let files = try MetadataFiles(ca: ca)
        defer { files.remove() }
        func refusal(_ edit: (inout ServerSettings) -> Void) -> ConfigurationError? {
            var settings = files.settings(policy: "trusted")
            edit(&settings)
            do {
                _ = try ServerConfiguration(settings)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal { _ in } == nil)
        #expect(refusal { $0.attestationPolicy = "strict" }?.setting == "--attestation-policy")
        #expect(refusal { $0.attestation = "none" }?.setting == "--attestation-policy")
        #expect(
            refusal {
                $0.metadata = nil
                $0.metadataTrustRoot = nil
                $0.attestationPolicy = "certified"
            }?.setting == "--attestation-policy")
        #expect(refusal { $0.metadata = "/nonexistent/blob.jwt" }?.setting == "--metadata")
        #expect(refusal { $0.metadata = nil }?.setting == "--metadata-trust-root")
        #expect(refusal { $0.metadataTrustRoot = files.blob }?.setting == "--metadata-trust-root")
        #expect(try ServerConfiguration(ServerSettings.test).attestationPolicy == .any)
    }

    @Test("the start-up load verifies the BLOB: one signed under another root is refused")
    func startupLoadVerifies() async throws {
        let files = try MetadataFiles(ca: try AttestationCA.makeRoot())
        let other = try MetadataFiles(ca: try AttestationCA.makeRoot())
        defer {
            files.remove()
            other.remove()
        }
        var settings = files.settings(policy: "any")
        #expect(try await ServerConfiguration(settings).metadata?.load().entries.count == 3)
        settings.metadataTrustRoot = other.root
        let metadata = try #require(try ServerConfiguration(settings).metadata)
        await #expect(throws: ConfigurationError.self) { try await metadata.load() }
    }
}

extension MetadataTrustTests {
    @Test("--metadata with a URL downloads the BLOB over HTTP; an HTTP error is a clear start-up refusal")
    func metadataFromURL() async throws {
        let files = try MetadataFiles(ca: try AttestationCA.makeRoot())
        defer { files.remove() }
        let blob = try Data(contentsOf: URL(fileURLWithPath: files.blob))
        let router = Router()
        router.get("mds") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: blob))) }
        let publisher = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await publisher.test(.live) { client in
            var settings = files.settings(policy: "any")
            settings.metadata = "http://127.0.0.1:\(client.port ?? 0)/mds"
            #expect(try await ServerConfiguration(settings).metadata?.load().entries.count == 3)
            settings.metadata = "http://127.0.0.1:\(client.port ?? 0)/missing"
            let missing = try #require(try ServerConfiguration(settings).metadata)
            await #expect(throws: ConfigurationError.self) { try await missing.load() }
        }
    }
}
