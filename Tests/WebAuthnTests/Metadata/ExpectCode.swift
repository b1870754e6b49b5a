import WebAuthn

/// The code of the ``WebAuthnError`` that `body` throws; nil when it succeeds or throws another error.
func failureCode<Result>(_ body: () async throws -> Result) async -> WebAuthnError.Code? {
    do {
        _ = try await body()
        return nil
    } catch let error as WebAuthnError {
        return error.code
    } catch {
        return nil
    }
}
