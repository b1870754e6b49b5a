import Foundation

/// The checks and encodings both stores share for ``TokenStore``.
enum TokenRules {
    static func validate(hash: Data) throws(StoreError) {
        guard hash.count == 32 else { throw StoreError(.invalidRecord, "a refresh token hash must be 32 bytes") }
    }

    static func validate(_ token: StoredRefreshToken) throws(StoreError) {
        try validate(hash: token.tokenHash)
        guard token.family.count == 16 else { throw StoreError(.invalidRecord, "a token family is 16 bytes") }
        guard token.authenticationMethods.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else {
            throw StoreError(.invalidRecord, "an authentication method is one word")
        }
    }

    /// The methods as stored: words separated by spaces.
    static func text(_ methods: [String]) -> String { methods.joined(separator: " ") }

    static func methods(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
}
