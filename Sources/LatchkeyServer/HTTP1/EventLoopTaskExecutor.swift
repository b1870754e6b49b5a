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

    func enqueue(_ job: consuming ExecutorJob) {
        eventLoop.executor.enqueue(job)
    }
}
