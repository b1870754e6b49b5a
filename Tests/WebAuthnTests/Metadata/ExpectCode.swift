import WebAuthn

/// The code `body` fails with, or nil when it succeeds.
func failureCode<T>(_ body: () async throws(WebAuthnError) -> T) async -> WebAuthnError.Code? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error.code
    }
}
