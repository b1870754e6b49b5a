import Crypto
import Foundation
import VirtualAuthenticator
import WebAuthn

/// A `CredentialStore` in one file, encrypted at rest with AES-256-GCM.
///
/// The key comes from a ``StoreKeySource``: scrypt over a passphrase (`LATCHKEY_STORE_PASSPHRASE`), or a
/// random key file beside the store created with mode 0600. Every change rewrites the file atomically
/// (temporary file, `fsync`, `rename`), so a crash leaves the old credentials or the new ones. A wrong
/// passphrase or a damaged file is a ``CredentialFileError`` and the file is left untouched.
///
/// ```swift
/// let store = EncryptedFileCredentialStore(path: "~/.latchkey/credentials", keySource: .fromEnvironment(storePath: path))
/// let authenticator = VirtualAuthenticator(store: store)
/// ```
///
/// One process at a time should write a given file; the actor serializes calls within a process.
public actor EncryptedFileCredentialStore: CredentialStore {
    /// The credential file.
    public nonisolated let path: String
    private let keySource: StoreKeySource
    /// The last key used, with how it was derived, so scrypt runs once per file and salt.
    private var cachedKey: (derivation: CredentialFileFormat.KeyDerivation, key: SymmetricKey)?

    /// A store in the file at `path`, created on the first save.
    public init(path: String, keySource: StoreKeySource) {
        self.path = path
        self.keySource = keySource
    }

    /// Adds or replaces `credential` and rewrites the file.
    public func save(_ credential: CredentialSource) async throws {
        try await modify { await $0.save(credential) }
    }

    /// The credential with this ID, or nil.
    public func credential(id: [UInt8]) async throws -> CredentialSource? {
        try load().credentials.first { $0.id == id }
    }

    /// The credentials for `rpID`.
    public func credentials(rpID: String) async throws -> [CredentialSource] {
        await InMemoryCredentialStore(try load().credentials).credentials(rpID: rpID)
    }

    /// Removes the credential with this ID and rewrites the file.
    public func delete(id: [UInt8]) async throws {
        try await modify { await $0.delete(id: id) }
    }

    /// Every credential in the file, oldest first.
    public func all() async throws(CredentialFileError) -> [CredentialSource] {
        await InMemoryCredentialStore(try load().credentials).all
    }

    // MARK: Reading and writing

    /// Loads the file, applies `change` to its credentials and writes them back under the same key.
    private func modify(_ change: (InMemoryCredentialStore) async -> Void) async throws(CredentialFileError) {
        let (credentials, derivation, key) = try load()
        let memory = InMemoryCredentialStore(credentials)
        await change(memory)
        let updated = await memory.all
        let sealed = try CredentialFileFormat.seal(updated, key: key, keyDerivation: derivation, path: path)
        try AtomicFile.write(sealed, to: path)
    }

    /// The credentials in the file (none when it does not exist yet) and the key to write them back with.
    private func load() throws(CredentialFileError) -> (
        credentials: [CredentialSource], derivation: CredentialFileFormat.KeyDerivation, key: SymmetricKey
    ) {
        guard let bytes = try AtomicFile.read(path) else {
            let (derivation, key) = try newKey()
            return ([], derivation, key)
        }
        let file = try CredentialFileFormat.header(of: bytes, path: path)
        let key = try existingKey(for: file.keyDerivation)
        return (try file.open(key: key, path: path), file.keyDerivation, key)
    }

    /// The key for a new file: a fresh salt for a passphrase, the key file (made if missing) otherwise.
    private func newKey() throws(CredentialFileError) -> (CredentialFileFormat.KeyDerivation, SymmetricKey) {
        if let cachedKey { return (cachedKey.derivation, cachedKey.key) }
        switch keySource {
        case .passphrase(let passphrase, let parameters):
            let salt = RelyingParty.generateChallenge(byteCount: 16)
            return try remember(
                .scrypt(salt: salt, parameters: parameters), derive(passphrase, salt: salt, parameters: parameters))
        case .keyFile(let keyPath):
            return try remember(.keyFile, StoreKeyFile.loadOrCreate(at: keyPath))
        }
    }

    /// The key for an existing file written with `derivation`.
    private func existingKey(for derivation: CredentialFileFormat.KeyDerivation) throws(CredentialFileError)
        -> SymmetricKey
    {
        if let cachedKey, cachedKey.derivation == derivation { return cachedKey.key }
        switch (keySource, derivation.method) {
        case (.passphrase(let passphrase, _), "scrypt"):
            guard let salt = derivation.salt?.bytes, let n = derivation.n, let r = derivation.r, let p = derivation.p
            else {
                throw .corrupted(path: path, reason: "the scrypt salt or parameters are missing")
            }
            let parameters = Scrypt.Parameters(cost: n, blockSize: r, parallelization: p)
            return try remember(derivation, derive(passphrase, salt: salt, parameters: parameters)).1
        case (.keyFile(let keyPath), "keyfile"):
            return try remember(derivation, StoreKeyFile.load(at: keyPath)).1
        case (.passphrase, "keyfile"):
            throw .wrongKey(path: "\(path) (encrypted with a key file, but a passphrase was given)")
        case (.keyFile, "scrypt"):
            throw .wrongKey(path: "\(path) (encrypted with a passphrase: set \(StoreKeySource.passphraseVariable))")
        default:
            throw .corrupted(path: path, reason: "unknown key derivation \"\(derivation.method)\"")
        }
    }

    private func derive(_ passphrase: String, salt: [UInt8], parameters: Scrypt.Parameters) throws(CredentialFileError)
        -> SymmetricKey
    {
        do {
            let bytes = try Scrypt.deriveKey(
                passphrase: Array(passphrase.utf8), salt: salt, parameters: parameters, outputByteCount: 32
            )
            return SymmetricKey(data: bytes)
        } catch {
            throw .invalidKeyDerivation(path: path, reason: error.description)
        }
    }

    private func remember(
        _ derivation: CredentialFileFormat.KeyDerivation, _ key: SymmetricKey
    ) -> (CredentialFileFormat.KeyDerivation, SymmetricKey) {
        cachedKey = (derivation, key)
        return (derivation, key)
    }
}
