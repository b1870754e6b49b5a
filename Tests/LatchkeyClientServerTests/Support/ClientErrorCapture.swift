import LatchkeyClient
import Testing

/// Runs `operation` and returns the ``LatchkeyClientError`` it throws; records an issue when it succeeds or
/// throws anything else.
func clientError<T>(
    _ operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> LatchkeyClientError? {
    do {
        let value = try await operation()
        Issue.record("expected a LatchkeyClientError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as LatchkeyClientError {
        return error
    } catch {
        Issue.record("expected a LatchkeyClientError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
