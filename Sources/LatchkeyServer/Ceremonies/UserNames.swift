import Foundation
import LatchkeyStore

/// The rules for the names people sign up with: ``UsernameProfile`` for names, ``PrintableText`` for display names.
enum UserNames {
    /// Checks a sign-up's name and display name; returns them normalised (the display name defaults to the name).
    static func validated(name: String, displayName: String?) throws -> (name: String, displayName: String) {
        let name = UsernameProfile.prepared(name)
        guard UsernameProfile.isAllowed(name) else {
            throw ServiceError(
                .userInvalidName,
                "the username must be 1 to \(UsernameProfile.maximumBytes) bytes of letters, digits, marks and printable ASCII (no control, format or invisible characters)"
            )
        }
        let given = displayName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let display = given.isEmpty ? name : given
        guard display.utf8.count <= UsernameProfile.maximumBytes, PrintableText.isPrintable(display) else {
            throw ServiceError(
                .userInvalidDisplayName,
                "the display name must be at most \(UsernameProfile.maximumBytes) bytes of printable characters")
        }
        return (name, display)
    }

    /// Throws 409 `user.nameTaken` when an account has `name`, and 409 `user.nameConfusable` when one has a name that
    /// looks like it (the same UTS #39 confusables skeleton: `pаypal` with a Cyrillic а beside `paypal`).
    static func requireAvailable(_ name: String, in store: any LatchkeyStore) async throws {
        guard try await store.user(named: name) == nil else {
            throw CeremonyError.nameTaken(name)
        }
        try await requireNotConfusable(name, in: store)
    }

    /// Throws 409 `user.nameConfusable` when another account's name looks like `name`.
    static func requireNotConfusable(_ name: String, in store: any LatchkeyStore) async throws {
        guard try await store.user(confusableWith: name) == nil else {
            throw CeremonyError.nameConfusable(name)
        }
    }
}
