// Known good: a generic-password item store with the Keychain calls LatchkeyClient makes.
import Foundation
import Security

struct KeychainFailure: Error, Sendable {
    let status: OSStatus
    var message: String { SecCopyErrorMessageString(status, nil) as String? ?? "unknown" }
}

struct KeychainItems: Sendable {
    let service: String

    private func query(account: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
    }

    func save(_ data: Data, account: String) throws {
        let updated = SecItemUpdate(
            query(account: account) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        guard updated == errSecItemNotFound else {
            guard updated == errSecSuccess else { throw KeychainFailure(status: updated) }
            return
        }
        var item = query(account: account)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        item[kSecAttrSynchronizable as String] = kCFBooleanFalse
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess || added == errSecDuplicateItem else { throw KeychainFailure(status: added) }
    }

    func load(account: String) throws -> Data? {
        var query = query(account: account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return result as? Data
        case errSecItemNotFound: return nil
        case errSecInteractionNotAllowed, errSecMissingEntitlement, errSecAuthFailed, errSecDecode, errSecParam:
            throw KeychainFailure(status: status)
        default: throw KeychainFailure(status: status)
        }
    }

    func all() throws -> [Data] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnData as String: true, kSecReturnAttributes as String: false,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status != errSecItemNotFound else { return [] }
        guard status == errSecSuccess else { throw KeychainFailure(status: status) }
        return result as? [Data] ?? []
    }

    func delete(account: String) throws {
        let status = SecItemDelete(query(account: account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainFailure(status: status) }
    }
}
