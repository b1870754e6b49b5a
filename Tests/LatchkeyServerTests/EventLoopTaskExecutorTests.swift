import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import LatchkeyServer

/// A connection's task prefers its event loop (``EventLoopTaskExecutor``), and runs there isolated to nothing, so that
/// calls into nonisolated async functions and back (Hummingbird's middleware and responders) run in place.
@Suite("A connection's task on its event loop")
struct EventLoopTaskExecutorTests {
    /// Adds up the tasks each of the loop's ticks ran.
    final class TaskCount: NIOEventLoopMetricsDelegate, Sendable {
        let tasks = Atomic<Int>(0)

        func processedTick(info: NIOEventLoopTickInfo) {
            tasks.add(info.numberOfTasks, ordering: .relaxed)
        }
    }

    /// `depth` nested calls of a function that runs on the generic executor (as Hummingbird's do), each awaited.
    @concurrent
    static func nested(_ depth: Int) async -> Bool {
        guard depth > 0 else { return MultiThreadedEventLoopGroup.currentEventLoop != nil }
        return await nested(depth - 1)
    }

    @Test("forty nested calls into generic-executor functions run on the loop in a few of its tasks, not one per call")
    func nestedCallsRunInPlace() async throws {
        let count = TaskCount()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1, metricsDelegate: count)
        let loop = group.next()
        let executor = EventLoopTaskExecutor(eventLoop: loop)
        let onLoop = await withTaskExecutorPreference(executor) { await Self.nested(40) }
        // The loop reports a tick's tasks when the tick ends: two more tasks of our own end the ticks before them.
        try await loop.submit {}.get()
        try await loop.submit {}.get()

        #expect(onLoop, "the innermost call ran on the loop")
        // The task's first job, the two of our own, and a tick or so of slack. A job run as the loop's serial executor
        // (isolated to the loop) made about every call into a generic-executor function a job: 45 here.
        #expect(count.tasks.load(ordering: .relaxed) <= 6)
        try await group.shutdownGracefully()
    }
}
