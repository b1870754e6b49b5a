import Foundation

/// NIST SP 800-63B's rules for passwords people choose: a length counted in Unicode code points after NFKC
/// normalisation (15 at least when the password is the account's only way in, 8 when it has another, at most
/// ``maximumLength``), no composition rules, and no password from the list of common ones.
enum PasswordRules {
    static let minimumLengthAsOnlyWayIn = 15
    static let minimumLengthBesideAnotherWayIn = 8
    static let maximumLength = 128

    /// The form a password is counted, checked and hashed in: NFKC, so the same password typed on two keyboards
    /// (composed or decomposed accents, full-width digits) is the same password.
    static func normalized(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// The number of Unicode code points of a normalised password.
    static func length(_ normalized: String) -> Int {
        normalized.unicodeScalars.count
    }

    /// Checks a new password (normalised); throws 400 `password.tooShort`, `password.tooLong` or `password.tooCommon`.
    static func check(_ normalized: String, username: String, isOnlyWayIn: Bool) throws {
        let count = length(normalized)
        let minimum = isOnlyWayIn ? minimumLengthAsOnlyWayIn : minimumLengthBesideAnotherWayIn
        guard count >= minimum else {
            throw APIError.badRequest(
                "password.tooShort",
                isOnlyWayIn
                    ? "a password that is the account's only way in must be at least \(minimum) characters"
                    : "a password must be at least \(minimum) characters"
            )
        }
        guard count <= maximumLength else {
            throw APIError.badRequest("password.tooLong", "a password must be at most \(maximumLength) characters")
        }
        let folded = normalized.lowercased()
        guard !common.contains(folded), folded != username.precomposedStringWithCompatibilityMapping.lowercased() else {
            throw APIError.badRequest(
                "password.tooCommon", "this password is too common or too easy to guess; choose another")
        }
    }

    /// The blocklist, lower-case (``CommonPasswords``).
    static let common: Set<Substring> = Set(CommonPasswords.list.split(separator: "\n"))

}

extension Set<Substring> {
    fileprivate func contains(_ text: String) -> Bool { contains(Substring(text)) }
}
