import Foundation

/// The answer to `POST /v1/me/recovery-codes`: a new set of recovery codes, shown this once (the server keeps only
/// their hashes); the account's earlier codes no longer work.
public struct RecoveryCodes: Codable, Hashable, Sendable {
    public var codes: [String]

    public init(codes: [String]) {
        self.codes = codes
    }
}

/// The answer to `GET /v1/me/recovery-codes`: how many unused codes the account has.
public struct RecoveryCodeStatus: Codable, Hashable, Sendable {
    public var remaining: Int

    public init(remaining: Int) {
        self.remaining = remaining
    }
}

/// The body of `POST /v1/recovery/options`: the account's name and one of its recovery codes, a verified email address
/// and the code just sent to it (`POST /v1/recovery/email`), or the token of a recovery link an operator issued
/// (`/#recover=<token>`).
public struct RecoveryOptionsRequest: Codable, Hashable, Sendable {
    public var username: String?
    public var email: String?
    public var code: String?
    public var token: String?

    /// Recovery with a code.
    public init(username: String, code: String) {
        self.username = username
        self.code = code
    }

    /// Recovery with a code sent to a verified email address.
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }

    /// Recovery with a link's token.
    public init(token: String) {
        self.token = token
    }
}
