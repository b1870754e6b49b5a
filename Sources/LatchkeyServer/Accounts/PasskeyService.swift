import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// The signed-in account's passkeys: list, rename and remove, each answered with the signals a client passes to its
/// passkey provider. (Adding one is a registration ceremony, ``CeremonyService``.)
///
/// Removing is the server forgetting the credential. The last way to sign in cannot be removed (409
/// `passkey.lastCredential`): a passkey goes only while another passkey, a password or a Sign in with Apple link
/// remains; delete the account instead.
struct PasskeyService: Sendable {
    static let maximumLabelLength = 64

    let ceremonies: CeremonyService
    let names: AuthenticatorNaming

    var store: any LatchkeyStore { ceremonies.store }
    var audit: AuditLog { ceremonies.audit }

    func list(for caller: SignedIn) async throws -> PasskeyList {
        let credentials = try await store.credentials(ofUser: caller.user.id)
        return PasskeyList(
            passkeys: await names.summaries(of: credentials),
            signals: try await ceremonies.signals(for: caller.user, credentials: credentials))
    }

    /// Renames one of the caller's passkeys (`name` as given: trimmed here, nil or empty for no label).
    func rename(_ id: Data, of caller: SignedIn, to name: String?) async throws -> PasskeySummary {
        let label = try Self.validatedLabel(name)
        let events = await audit.events(
            .passkeyRenamed, passkey: id, of: caller.user.id, in: store, detail: label.map { "renamed to \($0)" })
        do throws(StoreError) {
            try await audit.recording(events) { () async throws(StoreError) in
                try await store.renameCredential(id: id, ofUser: caller.user.id, to: label)
            }
        } catch {
            throw error.meaning([.notFound: Self.notFound])
        }
        guard let renamed = try await store.credential(id: id) else { throw Self.notFound }
        var summary = await names.summary(of: renamed)
        summary.signals = try await ceremonies.signals(for: caller.user)
        return summary
    }

    /// Removes one of the caller's passkeys, keeping the caller's own session even when it was made with it.
    func remove(_ id: Data, of caller: SignedIn) async throws -> PasskeyRemoval {
        let events = await audit.events(.passkeyRemoved, passkey: id, of: caller.user.id, in: store)
        do throws(StoreError) {
            try await audit.recording(events) { () async throws(StoreError) in
                try await store.deleteCredential(
                    id: id, ofUser: caller.user.id, keepingAnotherWayIn: true, sparingSession: caller.session.tokenHash)
            }
        } catch {
            throw error.meaning([.notFound: Self.notFound, .conflict: Self.lastCredential])
        }
        return PasskeyRemoval(signals: try await ceremonies.signals(for: caller.user))
    }

    static let notFound = ServiceError(
        .passkeyNotFound, "the signed-in account has no such passkey")

    static let lastCredential = ServiceError(
        .passkeyLastCredential,
        "this is the account's last passkey and its only way to sign in; delete the account instead (DELETE \(APIPaths.Native.account))"
    )

    /// A label trimmed, nil when empty; 400 `passkey.invalidName` when over 64 characters (Unicode code points, as
    /// JSON Schema's `maxLength` counts them) or with control or format characters.
    static func validatedLabel(_ name: String?) throws -> String? {
        guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        guard name.unicodeScalars.count <= maximumLabelLength, PrintableText.isPrintable(name) else {
            throw ServiceError(
                .passkeyInvalidName, "a passkey name must be at most \(maximumLabelLength) printable characters")
        }
        return name
    }
}
