import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process the tests start (the `latchkey` binary, a Python peer), with pipes to its standard streams.
///
/// Tests do not use Foundation's `Process`: in this toolchain's swift-corelibs-foundation, `Process.run()` lists
/// `/proc/self/fd` by copying each directory entry's whole 256-byte name field, which reads past the end of glibc's
/// buffer when an entry sits at its end and the next page is unmapped, and the test process crashes (about one
/// parallel test run in five here; fixed upstream in swift-corelibs-foundation#5472). This starts the child with
/// `posix_spawn(3)` instead. Its pipes are close-on-exec, made under a lock that every start holds, so no test's pipe
/// leaks into another test's child, and on Linux the child closes every other descriptor above 2 before it runs.
public final class ChildProcess: Sendable {
    /// The child's process ID.
    public let pid: pid_t
    /// Writes to the child's standard input; close it to send end of file.
    public let standardInput: FileHandle
    /// Reads the child's standard output (and its standard error too when they were merged).
    public let standardOutput: FileHandle
    /// Reads the child's standard error; nil when it was merged into ``standardOutput``.
    public let standardError: FileHandle?

    /// The raw `waitpid` status once the child has been reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` (without the program name) and `environment` (this process's when nil).
    /// With `mergingErrors`, standard error goes to the same pipe as standard output.
    public init(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, mergingErrors: Bool = false
    ) throws {
        (pid, standardInput, standardOutput, standardError) = try Self.spawning.withLock { _ in
            try Self.spawn(executable, arguments: arguments, environment: environment, mergingErrors: mergingErrors)
        }
    }

    /// Makes the pipes and starts the child (``spawning`` held).
    private static func spawn(
        _ executable: String, arguments: [String], environment: [String: String]?, mergingErrors: Bool
    ) throws -> (pid_t, FileHandle, FileHandle, FileHandle?) {
        let input = try Self.pipe()
        let output = try Self.pipe()
        let errors = mergingErrors ? nil : try Self.pipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors?.write ?? output.write, 2)
        #if os(Linux)
        // Descriptors this process inherited without close-on-exec (from `swift test`, say) stay out of the child.
        _ = addCloseFrom?(&actions, 3)
        #endif

        // The child starts with no signal blocked and SIGPIPE at its default action (this process ignores it).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        #if canImport(Darwin)
        // Darwin has no closefrom action; this closes every descriptor not dup'ed above in the child.
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #endif

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let status = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        // The child's ends are the child's now (or nobody's, if it did not start).
        close(input.read)
        close(output.write)
        if let errors { close(errors.write) }
        guard status == 0 else {
            close(input.write)
            close(output.read)
            if let errors { close(errors.read) }
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        return (
            pid, FileHandle(fileDescriptor: input.write, closeOnDealloc: true),
            FileHandle(fileDescriptor: output.read, closeOnDealloc: true),
            errors.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
        )
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool {
        reap(blocking: false) == nil
    }

    /// Waits for the child to exit and returns its exit status: the code it exited with, or 128 + the signal that
    /// ended it (as a shell reports it).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        guard let status = reap(blocking: true) else { return -1 }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Reads the child's standard output until what has been read satisfies `isComplete`, the output ends, or
    /// `timeout` passes, whichever comes first, and returns what was read. The pipe is polled with the time left, so a
    /// child that neither prints nor exits cannot hold the caller past `timeout`; the wait is ``onOwnThread(_:)``.
    public func readOutput(until isComplete: @escaping @Sendable (Data) -> Bool, timeout: Duration) async throws
        -> Data
    {
        let descriptor = standardOutput.fileDescriptor
        return try await onOwnThread {
            let deadline = ContinuousClock.now + timeout
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !isComplete(output) {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, Int32(clamping: Int((left / .milliseconds(1)).rounded(.up))))
                if polled < 0 && errno == EINTR { continue }
                guard polled > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }  // the output ended
                output.append(contentsOf: buffer[..<count])
            }
            return output
        }
    }

    /// Asks the child to end (SIGTERM), if it is still running.
    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// The raw status, reaping the child once it has exited; nil while it runs (never when `blocking`, unless
    /// `waitpid` fails).
    private func reap(blocking: Bool) -> Int32? {
        reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            while true {
                let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
                if result == pid {
                    reaped = status
                    return status
                }
                if result == -1 && errno == EINTR { continue }
                return nil
            }
        }
    }

    /// Runs `executable` to its end with `input` on its standard input, collecting both output streams.
    /// With `mergingErrors`, `errors` is empty and `output` has both. Waited for on a thread of its own
    /// (``onOwnThread(_:)``): a Python child takes a second to start, and blocking Swift's two cooperative threads on it
    /// stalls every other test's tasks.
    public static func run(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, input: Data = Data(),
        mergingErrors: Bool = false
    ) async throws -> (status: Int32, output: Data, errors: Data) {
        try await onOwnThread {
            try runBlocking(
                executable, arguments: arguments, environment: environment, input: input, mergingErrors: mergingErrors)
        }
    }

    private static func runBlocking(
        _ executable: String, arguments: [String], environment: [String: String]?, input: Data, mergingErrors: Bool
    ) throws -> (status: Int32, output: Data, errors: Data) {
        let child = try ChildProcess(
            executable, arguments: arguments, environment: environment, mergingErrors: mergingErrors)
        // Standard error is read on a thread of its own, so a child that fills one pipe while this reads the other
        // cannot stall both.
        let errors = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        let errorHandle = child.standardError
        Thread.detachNewThread {
            let data = errorHandle?.readDataToEndOfFile() ?? Data()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }
        if !input.isEmpty { child.standardInput.write(input) }
        try child.standardInput.close()
        let output = child.standardOutput.readDataToEndOfFile()
        errorsRead.wait()
        let status = child.waitUntilExit()
        return (status, output, errors.withLock { $0 })
    }

    #if canImport(Darwin)
    private static let systemPipe = Darwin.pipe
    #elseif canImport(Musl)
    private static let systemPipe = Musl.pipe
    #else
    private static let systemPipe = Glibc.pipe
    #endif

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module does not import.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    #endif

    /// Held from making a child's pipes to starting it, so that no other child starts between a pipe's creation
    /// and its close-on-exec flag (and inherits it).
    private static let spawning = Mutex(())

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Self.systemPipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
