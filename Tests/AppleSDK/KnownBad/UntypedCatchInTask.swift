// expect-error: cannot convert value of type 'any Error' to expected argument type 'CeremonyError'
//
// The old PasskeysManager.beginRegistration: `Task { do { ... try await register(...) } catch { errorDelegate?
// .passkeysManager(self, didFailWith: error) } }`. `register` throws(AuthenticatorError), but a plain `do` has
// untyped throws in Swift 6 (without the FullTypedThrows feature), so `error` in the catch is `any Error`.
// The fix is `do throws(AuthenticatorError) { ... }`.
struct CeremonyError: Error {}

func register() async throws(CeremonyError) -> Int { 1 }

@MainActor
final class Manager {
    func didFail(with error: CeremonyError) {}

    func beginRegistration() {
        Task {
            do {
                _ = try await register()
            } catch {
                didFail(with: error)
            }
        }
    }
}
