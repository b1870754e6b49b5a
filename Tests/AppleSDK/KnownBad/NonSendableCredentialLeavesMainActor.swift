// expect-error: non-Sendable 'any ASAuthorizationCredential'-typed result can not be returned from main actor-isolated instance method 'run()' to nonisolated context
//
// The old PasskeysManager ran the controller in a main-actor `run(...) async throws -> ASAuthorizationCredential`
// and called it from a `nonisolated perform(...)`. `any ASAuthorizationCredential` is not Sendable, so it cannot
// leave the main actor: copy what you need into a Sendable value while still on the main actor.
import AuthenticationServices
import Foundation

@MainActor
final class CeremonyRunner {
    var last: (any ASAuthorizationCredential)?

    func run() async -> any ASAuthorizationCredential {
        last!
    }

    nonisolated func perform() async -> String? {
        let credential = await run()
        return (credential as? ASPasswordCredential)?.user
    }
}
