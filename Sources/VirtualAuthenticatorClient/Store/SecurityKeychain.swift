#if canImport(Security)
import Foundation
import Security

// Apple platforms only. The Security calls are CoreFoundation-bridged, which the Linux SDK check can only
// approximate, so this file holds nothing but the query dictionaries and the calls; the store's logic is in
// KeychainCredentialStore.swift, tested on Linux.

/// The generic-password items of one service in the data-protection keychain (`kSecUseDataProtectionKeychain`, also
/// on macOS), readable after the first unlock on this device only, never synced.
public struct SecurityKeychain: GenericPasswordKeychain {
    public let service: String

    public init(service: String) {
        self.service = service
    }

    public func add(account: String, data: Data) throws(KeychainStoreError) {
        var item = query(account: account)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        try Self.check(SecItemAdd(item as CFDictionary, nil), "adding \(account)")
    }

    public func update(account: String, data: Data) throws(KeychainStoreError) -> Bool {
        let status = SecItemUpdate(
            query(account: account) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecItemNotFound { return false }
        try Self.check(status, "updating \(account)")
        return true
    }

    public func data(account: String) throws(KeychainStoreError) -> Data? {
        var query = query(account: account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try Self.check(status, "reading \(account)")
        guard let data = result as? Data else {
            throw KeychainStoreError(status: errSecDecode, "reading \(account): no data")
        }
        return data
    }

    public func allItems() throws(KeychainStoreError) -> [(account: String, data: Data)] {
        var query = query(account: nil)
        query[kSecReturnData as String] = true
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try Self.check(status, "listing \(service)")
        guard let items = result as? [[String: Any]] else {
            throw KeychainStoreError(status: errSecDecode, "listing \(service): an unexpected result")
        }
        return try items.map { item throws(KeychainStoreError) in
            guard let account = item[kSecAttrAccount as String] as? String,
                let data = item[kSecValueData as String] as? Data
            else {
                throw KeychainStoreError(status: errSecDecode, "listing \(service): an item without account or data")
            }
            return (account, data)
        }
    }

    public func delete(account: String) throws(KeychainStoreError) -> Bool {
        let status = SecItemDelete(query(account: account) as CFDictionary)
        if status == errSecItemNotFound { return false }
        try Self.check(status, "deleting \(account)")
        return true
    }

    private func query(account: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecUseDataProtectionKeychain as String: true,
            kSecAttrSynchronizable as String: false,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        return query
    }

    private static func check(_ status: OSStatus, _ operation: String) throws(KeychainStoreError) {
        guard status != errSecSuccess else { return }
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown error"
        throw KeychainStoreError(status: status, "\(operation): \(message)")
    }
}

extension KeychainCredentialStore {
    /// A store in the data-protection keychain under `service` (``SecurityKeychain``).
    public init(service: String = "dev.latchkey.virtual-authenticator") {
        self.init(service: service, keychain: SecurityKeychain(service: service))
    }
}
#endif
