import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

@Suite("EncryptedFileCredentialStore")
struct EncryptedFileCredentialStoreTests {
    /// Cheap scrypt parameters so the suite stays fast; the format records them.
    static let fast = Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelization: 1)

    /// The test's own directory, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-store")
    var directory: String { scratch.url.path }

    var path: String { directory + "/credentials" }

    static func credential(_ id: UInt8, rpID: String = "example.com", created: TimeInterval = 0) -> CredentialSource {
        CredentialSource(
            id: [id, id, id], rpID: rpID, userHandle: [id], userName: "user\(id)", userDisplayName: "User \(id)",
            algorithm: .es256, privateKey: Array(repeating: id, count: 32), isDiscoverable: true,
            backupEligible: false, backedUp: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + created)
        )
    }

    func passphraseStore(_ passphrase: String = "correct horse") -> EncryptedFileCredentialStore {
        EncryptedFileCredentialStore(path: path, keySource: .passphrase(passphrase, parameters: Self.fast))
    }

    func contents() throws -> Data {
        try #require(FileManager.default.contents(atPath: path))
    }

    func expectError(_ expected: (CredentialFileError) -> Bool, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected a CredentialFileError")
        } catch let error as CredentialFileError {
            #expect(expected(error), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("round trip with a passphrase: a new store instance reads what another wrote, encrypted at rest")
    func roundTrip() async throws {
        let store = passphraseStore()
        try await store.save(Self.credential(1, created: 1))
        try await store.save(Self.credential(2, created: 2))
        try await store.save(Self.credential(3, rpID: "other.org"))
        var updated = Self.credential(1, created: 1)
        updated.signCount = 7
        try await store.save(updated)

        let reopened = passphraseStore()
        #expect(try await reopened.credentials(rpID: "example.com").map(\.id) == [[1, 1, 1], [2, 2, 2]])
        #expect(try await reopened.credential(id: [1, 1, 1])?.signCount == 7)
        try await reopened.delete(id: [2, 2, 2])
        #expect(try await passphraseStore().all().map(\.id) == [[3, 3, 3], [1, 1, 1]])

        let text = String(decoding: try contents(), as: UTF8.self)
        #expect(!text.contains("user1") && !text.contains("example.com"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test("a virtual authenticator on the file store keeps its passkeys across restarts")
    func authenticatorAcrossRestarts() async throws {
        let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
        let user = UserEntity(id: [9], name: "alice", displayName: "Alice")
        let first = VirtualAuthenticator(store: passphraseStore())
        let registration = try await first.register(
            options: relyingParty.beginRegistration(user: user, residentKey: .required), origin: "https://example.com"
        )
        let second = VirtualAuthenticator(store: passphraseStore())
        let assertion = try await second.authenticate(
            options: relyingParty.beginAuthentication(), origin: "https://example.com")
        #expect(assertion.rawId == registration.rawId)
    }

    @Test("wrong passphrase: wrongKey, and the file is not overwritten")
    func wrongPassphrase() async throws {
        try await passphraseStore().save(Self.credential(1))
        let before = try contents()
        let wrong = passphraseStore("battery staple")
        await expectError({ if case .wrongKey = $0 { true } else { false } }) { _ = try await wrong.all() }
        await expectError({ if case .wrongKey = $0 { true } else { false } }) {
            try await wrong.save(Self.credential(2))
        }
        await expectError({ if case .wrongKey = $0 { true } else { false } }) { try await wrong.delete(id: [1, 1, 1]) }
        #expect(try contents() == before)
    }

    @Test(
        "corrupted file: a flipped ciphertext byte, truncation, or garbage give corrupted, and nothing is overwritten",
        arguments: [Damage.flipSealedByte, .truncate, .garbage])
    func corrupted(damage: Damage) async throws {
        try await passphraseStore().save(Self.credential(1))
        let damaged = try damage.apply(to: contents())
        try damaged.write(to: URL(fileURLWithPath: path))
        let store = passphraseStore()
        await expectError({ if case .corrupted = $0 { true } else { false } }) { _ = try await store.all() }
        await expectError({ if case .corrupted = $0 { true } else { false } }) {
            try await store.save(Self.credential(2))
        }
        #expect(try contents() == damaged)
    }

    @Test("a newer format version is refused with its number")
    func newerVersion() async throws {
        try await passphraseStore().save(Self.credential(1))
        let text = String(decoding: try contents(), as: UTF8.self).replacingOccurrences(
            of: #""version":1"#, with: #""version":2"#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        await expectError({ $0 == .unsupportedVersion(path: path, version: 2) }) {
            _ = try await passphraseStore().all()
        }
    }

    @Test("key file: created 0600 beside the store on first save and reused; a missing or too-open key file is refused")
    func keyFile() async throws {
        let keyPath = path + ".key"
        let store = EncryptedFileCredentialStore(
            path: path, keySource: .fromEnvironment(storePath: path, environment: [:]))
        try await store.save(Self.credential(1))
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
        #expect(try await EncryptedFileCredentialStore(path: path, keySource: .keyFile(path: keyPath)).all().count == 1)

        // A passphrase cannot open a key-file store.
        await expectError({ if case .wrongKey = $0 { true } else { false } }) { _ = try await passphraseStore().all() }

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        await expectError({ if case .keyFile = $0 { true } else { false } }) {
            _ = try await EncryptedFileCredentialStore(path: path, keySource: .keyFile(path: keyPath)).all()
        }
        try FileManager.default.removeItem(atPath: keyPath)
        let before = try contents()
        await expectError({ if case .keyFile = $0 { true } else { false } }) {
            try await EncryptedFileCredentialStore(path: path, keySource: .keyFile(path: keyPath)).save(
                Self.credential(2))
        }
        #expect(try contents() == before)
        #expect(!FileManager.default.fileExists(atPath: keyPath))
    }

    @Test("LATCHKEY_STORE_PASSPHRASE picks the passphrase; empty or unset picks the key file")
    func keySourceFromEnvironment() {
        #expect(
            StoreKeySource.fromEnvironment(storePath: "/s", environment: ["LATCHKEY_STORE_PASSPHRASE": "pw"])
                == .passphrase("pw"))
        #expect(
            StoreKeySource.fromEnvironment(storePath: "/s", environment: ["LATCHKEY_STORE_PASSPHRASE": ""])
                == .keyFile(path: "/s.key"))
        #expect(StoreKeySource.fromEnvironment(storePath: "/s", environment: [:]) == .keyFile(path: "/s.key"))
    }

    @Test("no temporary files are left behind after writes")
    func noTemporaryFiles() async throws {
        let store = passphraseStore()
        for id in 1...3 { try await store.save(Self.credential(UInt8(id))) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["credentials"])
    }
}

/// Ways a credential file gets damaged.
enum Damage: Sendable, CustomStringConvertible {
    case flipSealedByte, truncate, garbage

    func apply(to file: Data) throws -> Data {
        switch self {
        case .flipSealedByte:
            var object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
            let text = try #require(object["sealed"] as? String)
            var sealed = try #require(Base64URL.decode(text))
            sealed[sealed.count / 2] ^= 0x01
            object["sealed"] = Base64URL.encode(sealed)
            return try JSONSerialization.data(withJSONObject: object)
        case .truncate:
            return file.prefix(file.count / 2)
        case .garbage:
            return Data("\u{0}\u{1}not json".utf8)
        }
    }

    var description: String {
        switch self {
        case .flipSealedByte: "one ciphertext bit flipped"
        case .truncate: "cut in half"
        case .garbage: "garbage"
        }
    }
}
