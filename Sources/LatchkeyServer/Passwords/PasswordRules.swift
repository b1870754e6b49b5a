import Foundation

/// NIST SP 800-63B's rules for passwords people choose: a length counted in Unicode code points (15 at least when the
/// password is the account's only way in, 8 when it has another, at most ``maximumLength``), no composition rules, and
/// no password from the list of common ones. The length is of what the user typed, and of its NFKC form where that is
/// shorter: one character that NFKC expands (U+FDFA is 18 code points after it) does not count as many, and a
/// decomposed accent does not count twice.
enum PasswordRules {
    static let minimumLengthAsOnlyWayIn = 15
    static let minimumLengthBesideAnotherWayIn = 8
    static let maximumLength = 128

    /// The form a password is counted, checked and hashed in: NFKC, so the same password typed on two keyboards
    /// (composed or decomposed accents, full-width digits) is the same password.
    static func normalized(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// The length of a password as typed: its code points, or its NFKC form's where there are fewer.
    static func length(typed: String) -> Int {
        min(typed.unicodeScalars.count, normalized(typed).unicodeScalars.count)
    }

    /// Checks a new password as typed; throws 400 `password.tooShort`, `password.tooLong` or `password.tooCommon`.
    static func check(typed: String, username: String, isOnlyWayIn: Bool) throws {
        let count = length(typed: typed)
        let normalized = normalized(typed)
        let minimum = isOnlyWayIn ? minimumLengthAsOnlyWayIn : minimumLengthBesideAnotherWayIn
        guard count >= minimum else {
            throw ServiceError(
                .passwordTooShort,
                isOnlyWayIn
                    ? "a password that is the account's only way in must be at least \(minimum) characters"
                    : "a password must be at least \(minimum) characters"
            )
        }
        guard count <= maximumLength else {
            throw ServiceError(.passwordTooLong, "a password must be at most \(maximumLength) characters")
        }
        let folded = normalized.lowercased()
        guard !common.contains(Substring(folded)),
            folded != username.precomposedStringWithCompatibilityMapping.lowercased()
        else {
            throw ServiceError(.passwordTooCommon, "this password is too common or too easy to guess; choose another")
        }
    }

    /// The blocklist, lower-case (``CommonPasswords``).
    static let common: Set<Substring> = Set(CommonPasswords.list.split(separator: "\n"))
}
