import Foundation
import Security

/// The signed-in state that outlives the app's process: the session token (and, after Sign in with Apple, the Apple
/// user ID whose credential state is checked at launch), kept in the Keychain on this device only.
struct SavedSession: Codable, Equatable {
    var token: String
    var appleUserID: String?

    /// The saved session, or nil when there is none or it cannot be read.
    static func load() -> SavedSession? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else {
            return nil
        }
        return try? JSONDecoder().decode(SavedSession.self, from: data)
    }

    /// Saves this session in place of any earlier one.
    func save() {
        SavedSession.clear()
        guard let data = try? JSONEncoder().encode(self) else { return }
        var item = SavedSession.baseQuery
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        _ = SecItemAdd(item as CFDictionary, nil)
    }

    /// Forgets the saved session.
    static func clear() {
        _ = SecItemDelete(baseQuery as CFDictionary)
    }

    private static var baseQuery: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: AppConfiguration.keychainService,
            kSecAttrAccount as String: "session",
            kSecUseDataProtectionKeychain as String: true,
        ]
    }
}
