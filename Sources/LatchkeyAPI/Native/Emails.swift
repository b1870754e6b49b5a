import Foundation

/// One email address of the signed-in account (`GET /v1/me/emails`).
public struct EmailAddress: Codable, Hashable, Sendable {
    public var address: String
    /// Whether its one-time code was entered. Only verified addresses get notices or recovery codes.
    public var verified: Bool
    /// Whether notices go to it (the first address verified; `POST /v1/me/emails/primary` changes it).
    public var primary: Bool
    public var createdAt: Date

    public init(address: String, verified: Bool, primary: Bool, createdAt: Date) {
        self.address = address
        self.verified = verified
        self.primary = primary
        self.createdAt = createdAt
    }
}

/// The answer to `GET /v1/me/emails`: the account's addresses, the primary first.
public struct EmailList: Codable, Hashable, Sendable {
    public var emails: [EmailAddress]

    public init(emails: [EmailAddress]) {
        self.emails = emails
    }
}

/// The body of `POST /v1/me/emails` (add an address: a code is sent to it), `POST /v1/me/emails/primary` and
/// `POST /v1/me/emails/remove`.
public struct EmailRequest: Codable, Hashable, Sendable {
    public var address: String

    public init(address: String) {
        self.address = address
    }
}

/// The body of `POST /v1/me/emails/verify`: the address and the code sent to it.
public struct EmailVerifyRequest: Codable, Hashable, Sendable {
    public var address: String
    public var code: String

    public init(address: String, code: String) {
        self.address = address
        self.code = code
    }
}

/// The body of `POST /v1/recovery/email`: send a recovery code to this address. The answer is the same whether or not
/// an account has it verified.
public struct RecoveryEmailRequest: Codable, Hashable, Sendable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}
