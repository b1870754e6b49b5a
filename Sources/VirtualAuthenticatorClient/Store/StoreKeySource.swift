import Foundation

/// Where the encrypted credential file's key comes from.
public enum StoreKeySource: Sendable, Hashable {
    /// Derived with scrypt from a passphrase (the file keeps the salt and parameters).
    case passphrase(String, parameters: Scrypt.Parameters = .interactive)
    /// 32 random bytes in a key file, created with mode 0600 on first use, as SSH does for a key without
    /// a passphrase.
    case keyFile(path: String)

    /// The environment variable holding the passphrase.
    public static let passphraseVariable = "LATCHKEY_STORE_PASSPHRASE"

    /// The passphrase in `LATCHKEY_STORE_PASSPHRASE` when it is set and not empty; otherwise the key file
    /// `<store path>.key` beside the store. Never prompts.
    public static func fromEnvironment(
        storePath: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StoreKeySource {
        if let passphrase = environment[passphraseVariable], !passphrase.isEmpty {
            return .passphrase(passphrase)
        }
        return .keyFile(path: storePath + ".key")
    }
}
