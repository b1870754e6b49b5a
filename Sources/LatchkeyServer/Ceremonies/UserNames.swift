import Foundation

/// The rules for the names people sign up with.
enum UserNames {
    static let maximumLength = 256

    /// The name without surrounding white space.
    static func normalized(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks a sign-up's name and display name; returns them normalised (the display name defaults to the name).
    static func validated(name: String, displayName: String?) throws -> (name: String, displayName: String) {
        let name = normalized(name)
        guard !name.isEmpty, PrintableText.isValid(name, maximumLength: maximumLength) else {
            throw APIError.badRequest("user.invalidName", "the username must be 1 to \(maximumLength) printable characters")
        }
        var display = name
        if let given = displayName.map(normalized), !given.isEmpty { display = given }
        guard PrintableText.isValid(display, maximumLength: maximumLength) else {
            throw APIError.badRequest("user.invalidDisplayName", "the display name must be at most \(maximumLength) printable characters")
        }
        return (name, display)
    }
}
