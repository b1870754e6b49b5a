import ArgumentParser
import Foundation
import LatchkeyServer

/// `latchkey bench password`: what one password verification costs the server — one scrypt derivation with the
/// server's parameters (OWASP's N = 2^17, r = 8, p = 1 by default) and a constant-time comparison, through the
/// server's own ``PasswordHasher``. Ends with `password_verify_ms=` (the mean) and `password_params=`.
struct BenchPassword: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Time one password verification (scrypt) with the server's parameters."
    )

    @Option(help: ArgumentHelp("log2 of scrypt's N (default 17, the server's).", valueName: "n"))
    var logN = ScryptParameters.owasp.logN

    @Option(name: .customLong("block-size"), help: ArgumentHelp("scrypt's r (default 8).", valueName: "r"))
    var blockSize = ScryptParameters.owasp.blockSize

    @Option(help: ArgumentHelp("scrypt's p (default 1).", valueName: "p"))
    var parallelization = ScryptParameters.owasp.parallelization

    @Option(help: ArgumentHelp("Verifications to time (default 5).", valueName: "n"))
    var count = 5

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard count >= 1 else { throw .usage("invalidCount", "--count must be at least 1") }
        let parameters = ScryptParameters(logN: logN, blockSize: blockSize, parallelization: parallelization)
        guard (1...22).contains(logN), (1...32).contains(blockSize), (1...16).contains(parallelization),
            parameters.memoryByteCount <= 1 << 30
        else {
            throw .usage("invalidParameters", "scrypt parameters out of range (ln 1-22, r 1-32, p 1-16, at most 1 GiB)")
        }
        #if DEBUG
        io.line(
            "note: a debug build (BoringSSL, which runs scrypt, is unoptimised too). Run: swift run -c release latchkey bench password"
        )
        #endif
        let hasher = PasswordHasher(parameters: parameters, concurrency: 1)
        let password = "correct horse battery staple"
        var times: [Double] = []
        do {
            let stored = try await hasher.hash(password)
            let clock = ContinuousClock()
            for _ in 0..<count {
                let start = clock.now
                let matches = try await hasher.verify(password, against: stored)
                let elapsed = clock.now - start
                guard matches else {
                    throw CommandError(code: "internalError", message: "the password did not verify", exitStatus: 1)
                }
                times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(code: "internalError", message: "scrypt failed: \(error)", exitStatus: 1)
        }
        let mean = times.reduce(0, +) / Double(times.count)
        let memory = parameters.memoryByteCount >> 20
        io.line(
            "password verification, scrypt \(parameters) (\(memory) MiB): \(count) verifications, mean \(Self.format(mean)) ms, best \(Self.format(times.min() ?? mean)) ms"
        )
        io.line("password_verify_ms=\(Self.format(mean))")
        io.line("password_params=\(parameters)")
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
