import NIOCore

/// A connection's event loop as its task's executor preference, so that the task comes back to the loop that reads and
/// writes its connection whatever thread resumes it (a store thread, a password-hashing thread).
///
/// Without it, a task resumed from a thread outside the event loops goes to any loop (the global executor's choice),
/// and its answer then hops again to the connection's own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Runs `job` on the loop as this task executor's, isolated to nothing: the generic executor, which the
    /// nonisolated functions the task runs (ours, Hummingbird's) ask for. A job run as the loop's serial executor
    /// (`eventLoop.executor`) would be isolated to the loop, so every call into and back out of such a function would
    /// switch executors, and each switch is a job of its own through the loop's queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
