import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import LatchkeyServer

/// A connection's task prefers its event loop (``EventLoopTaskExecutor``), and runs there isolated to nothing, so that
/// calls into nonisolated async functions and back (Hummingbird's middleware and responders) run in place.
@Suite("A connection's task on its event loop")
struct EventLoopTaskExecutorTests {
    /// Adds up the tasks each of the loop's ticks ran, as each tick ends.
    final class TaskCount: NIOEventLoopMetricsDelegate, Sendable {
        let tasks = Atomic<Int>(0)
        /// When the last tick reported began (uptime nanoseconds).
        let lastTickStart = Atomic<UInt64>(0)

        func processedTick(info: NIOEventLoopTickInfo) {
            tasks.add(info.numberOfTasks, ordering: .relaxed)
            lastTickStart.store(info.startTime.uptimeNanoseconds, ordering: .releasing)
        }
    }

    /// `depth` nested calls of a function that runs on the generic executor (as Hummingbird's do), each awaited.
    @concurrent
    static func nested(_ depth: Int) async -> Bool {
        guard depth > 0 else { return MultiThreadedEventLoopGroup.currentEventLoop != nil }
        return await nested(depth - 1)
    }

    @Test(
        "forty nested calls into generic-executor functions run on the loop in a few of its tasks, not one per call",
        .timeLimit(.minutes(1)))
    func nestedCallsRunInPlace() async throws {
        let count = TaskCount()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1, metricsDelegate: count)
        defer { group.shutdownGracefully { _ in } }
        let loop = group.next()
        let executor = EventLoopTaskExecutor(eventLoop: loop)
        let onLoop = await withTaskExecutorPreference(executor) { await Self.nested(40) }
        // The loop reports a tick's tasks when the tick ends, and runs its ticks one after another: once a tick that
        // began after the calls is reported, so is every tick that ran them. Tasks of our own make more ticks.
        let callsEnded = NIODeadline.now().uptimeNanoseconds
        var ours = 0
        while count.lastTickStart.load(ordering: .acquiring) <= callsEnded {
            try await loop.submit {}.get()
            ours += 1
        }

        #expect(onLoop, "the innermost call ran on the loop")
        // The task's first job and a little slack, with ours. A job run as the loop's serial executor (isolated to the
        // loop) made about every call into a generic-executor function a job: 45 here.
        let tasks = count.tasks.load(ordering: .relaxed)
        #expect(tasks >= 1 && tasks <= 3 + ours, "\(tasks) tasks, \(ours) of them ours")
    }
}
