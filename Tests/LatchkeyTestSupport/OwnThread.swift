import Foundation

/// Runs `body`, which blocks (reading a child process's pipe until it has printed what the test waits for), on a thread
/// of its own, and waits for it without holding one of Swift's cooperative threads: two cores give the pool two, and a
/// few tests blocking them at once stall every other test's tasks, timers included.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
