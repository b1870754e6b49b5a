import Foundation

/// A fuzz target: it feeds one input to a parser and must return normally whatever the bytes (thrown errors are
/// expected; a trap, a sanitizer report or a hang is a finding).
public typealias FuzzTarget = @Sendable ([UInt8]) -> Void

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target chosen for this process.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's entry point, for a link in which libFuzzer's own `main` is used.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selectedTarget else { return 0 }
    target(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Runs libFuzzer on one of a binary's targets.
///
/// SwiftPM links an executable with `main` renamed from the module's own entry point, so libFuzzer's `main` never
/// runs; the executable's top-level code calls ``run(targets:)``, which hands libFuzzer the command line.
public enum FuzzRunner {
    /// Picks the target named by `LATCHKEY_FUZZ_TARGET` and runs libFuzzer with the process's arguments.
    public static func run(targets: [String: FuzzTarget]) -> Never {
        let name = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_TARGET"] ?? ""
        guard let target = targets[name] else {
            let names = targets.keys.sorted().joined(separator: " ")
            FileHandle.standardError.write(Data("set LATCHKEY_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        selectedTarget = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}

/// Runs async parsing work to completion from the fuzzer's synchronous callback.
///
/// The task starts on the fuzzer's own thread (`Task.immediate`): work that never suspends (most inputs fail in the
/// parser) finishes before `wait()`, which then returns without a thread hop; work that suspends is waited for.
public func blocking(_ operation: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.immediate {
        await operation()
        done.signal()
    }
    done.wait()
}
