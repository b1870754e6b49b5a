import ServiceLifecycle

/// The loop of a background service: `round` every `interval`, until the task is cancelled or the server shuts down
/// gracefully (which also cuts the wait short).
func repeatedly(every interval: Duration, _ round: () async -> Void) async {
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        guard !Task.isCancelled && !Task.isShuttingDownGracefully else { return }
        await round()
    }
}
