#if canImport(Security)
import Foundation
import Security
import VirtualAuthenticator
import WebAuthn

/// A ``VirtualAuthenticator/CredentialStore`` in the Keychain, for Apple platforms (the role of the seed's
/// `KeychainCredentialStore`).
///
/// Each credential is one generic-password item in ``service``, its account the base64url credential ID, its data
/// the credential as JSON, readable only on this device after the first unlock
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: private keys never sync).
///
/// Not compiled on Linux; ``EncryptedFileCredentialStore`` is the store there.
public struct KeychainCredentialStore: CredentialStore {
    /// The Keychain service the items are filed under.
    public let service: String

    public init(service: String = "dev.latchkey.virtual-authenticator") {
        self.service = service
    }

    public func save(_ credential: StoredCredential) async throws {
        let data = try JSONEncoder().encode(credential)
        let query = itemQuery(account: Base64URL.encode(credential.id))
        let updated = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        guard updated == errSecItemNotFound else { return try Self.check(updated) }
        var item = query
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        try Self.check(SecItemAdd(item as CFDictionary, nil))
    }

    public func credential(id: [UInt8]) async throws -> StoredCredential? {
        var query = itemQuery(account: Base64URL.encode(id))
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try Self.check(status)
        guard let data = result as? Data else { throw KeychainStoreError(status: errSecDecode) }
        return try JSONDecoder().decode(StoredCredential.self, from: data)
    }

    public func credentials(rpID: String) async throws -> [StoredCredential] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try Self.check(status)
        let items = (result as? [Data]) ?? []
        let decoder = JSONDecoder()
        return try items.map { try decoder.decode(StoredCredential.self, from: $0) }
            .filter { $0.rpID == rpID }
            .sorted { lhs, rhs in
                lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : lhs.id.lexicographicallyPrecedes(rhs.id)
            }
    }

    public func delete(id: [UInt8]) async throws {
        let status = SecItemDelete(itemQuery(account: Base64URL.encode(id)) as CFDictionary)
        guard status != errSecItemNotFound else { return }
        try Self.check(status)
    }

    private func itemQuery(account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    private static func check(_ status: OSStatus) throws {
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
    }
}

/// A Keychain call failed; `status` is the `OSStatus` (see `SecCopyErrorMessageString`).
public struct KeychainStoreError: Error, Sendable, CustomStringConvertible {
    public let status: OSStatus

    public var description: String {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown error"
        return "Keychain error \(status): \(message)"
    }
}
#endif
