import Foundation
import VirtualAuthenticator
import WebAuthn

/// The generic-password items of one Keychain service: the few Keychain operations ``KeychainCredentialStore`` needs,
/// each answering with the item data or throwing ``KeychainStoreError`` with the `OSStatus`.
///
/// `SecurityKeychain` is the real one (Apple platforms); tests use an in-memory one.
public protocol GenericPasswordKeychain: Sendable {
    /// Adds an item; throws `errSecDuplicateItem` (-25299) when `account` exists.
    func add(account: String, data: Data) throws(KeychainStoreError)
    /// Replaces an item's data; returns false when there is no such item.
    func update(account: String, data: Data) throws(KeychainStoreError) -> Bool
    /// The data of one item, or nil when there is no such item.
    func data(account: String) throws(KeychainStoreError) -> Data?
    /// The data of every item of the service, as `(account, data)`; empty only when there are none.
    func allItems() throws(KeychainStoreError) -> [(account: String, data: Data)]
    /// Deletes an item; returns false when there was none.
    func delete(account: String) throws(KeychainStoreError) -> Bool
}

/// A `CredentialStore` in the Keychain (Apple platforms), the counterpart of
/// ``EncryptedFileCredentialStore``.
///
/// Each credential is one generic-password item of ``service``: its account the base64url credential ID, its data the
/// credential as JSON. On Apple platforms `KeychainCredentialStore(service:)` uses `SecurityKeychain`: the
/// data-protection keychain (on macOS too, where the file-based keychain would silently answer one item to a
/// "match all" query), readable on this device after the first unlock, never synced.
///
/// Every Keychain failure is thrown (``KeychainStoreError``), and so is an item that does not decode: a failed read is
/// never an empty list.
public struct KeychainCredentialStore: CredentialStore {
    /// The Keychain service the items are filed under.
    public let service: String
    private let keychain: any GenericPasswordKeychain

    /// A store over `keychain`, whose items belong to `service`.
    public init(service: String, keychain: any GenericPasswordKeychain) {
        self.service = service
        self.keychain = keychain
    }

    /// Adds or replaces `credential` as one Keychain item.
    public func save(_ credential: CredentialSource) async throws {
        let data = try JSONEncoder().encode(credential)
        let account = Base64URL.encode(credential.id)
        if try keychain.update(account: account, data: data) { return }
        do {
            try keychain.add(account: account, data: data)
        } catch  where error.status == KeychainStoreError.duplicateItem {
            // Added by someone else between the update and the add: replace it.
            guard try keychain.update(account: account, data: data) else { throw error }
        }
    }

    /// The credential with this ID, or nil.
    public func credential(id: [UInt8]) async throws -> CredentialSource? {
        let account = Base64URL.encode(id)
        guard let data = try keychain.data(account: account) else { return nil }
        return try Self.decode(data, account: account)
    }

    /// The credentials for `rpID`.
    public func credentials(rpID: String) async throws -> [CredentialSource] {
        try keychain.allItems()
            .map { item in try Self.decode(item.data, account: item.account) }
            .filter { $0.rpID == rpID }
            .sorted { lhs, rhs in
                lhs.createdAt != rhs.createdAt
                    ? lhs.createdAt < rhs.createdAt : lhs.id.lexicographicallyPrecedes(rhs.id)
            }
    }

    /// Removes the credential's Keychain item.
    public func delete(id: [UInt8]) async throws {
        _ = try keychain.delete(account: Base64URL.encode(id))
    }

    private static func decode(_ data: Data, account: String) throws(KeychainStoreError) -> CredentialSource {
        do {
            return try JSONDecoder().decode(CredentialSource.self, from: data)
        } catch {
            throw KeychainStoreError(
                status: KeychainStoreError.decode, "the Keychain item \(account) is not a stored credential")
        }
    }
}

/// A Keychain call failed: `status` is the `OSStatus`.
public struct KeychainStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `errSecDuplicateItem`.
    public static let duplicateItem: Int32 = -25299
    /// `errSecDecode`: the item could not be read.
    public static let decode: Int32 = -26275
    /// `errSecMissingEntitlement`: the app lacks the keychain-access-groups entitlement the data-protection
    /// keychain needs (macOS: sign the app).
    public static let missingEntitlement: Int32 = -34018
    /// `errSecInteractionNotAllowed`: the device is locked (before the first unlock).
    public static let interactionNotAllowed: Int32 = -25308

    /// The Security framework's `OSStatus`.
    public let status: Int32
    /// What failed, with the system's message for the status where it has one.
    public let message: String

    /// An error for `status` with a human message.
    public init(status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `Keychain error <status>: <message>`.
    public var description: String { "Keychain error \(status): \(message)" }
}
