import CryptoExtras
import Foundation
import WebAuthn

/// scrypt's cost parameters for password hashes: N = 2^``logN``, r = ``blockSize``, p = ``parallelization``.
public struct ScryptParameters: Sendable, Hashable, CustomStringConvertible {
    /// log2 of N, the CPU/memory cost.
    public var logN: Int
    /// r, the block size.
    public var blockSize: Int
    /// p, the parallelization.
    public var parallelization: Int

    /// Parameters as given: N = 2^`logN`, r = `blockSize`, p = `parallelization`.
    public init(logN: Int, blockSize: Int, parallelization: Int) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelization = parallelization
    }

    /// OWASP's Password Storage Cheat Sheet minimum for scrypt: N = 2^17, r = 8, p = 1 (128 MiB per hash).
    public static let owasp = ScryptParameters(logN: 17, blockSize: 8, parallelization: 1)

    /// The memory one hash takes, in bytes (128 · r · N).
    public var memoryByteCount: Int { 128 * blockSize << logN }

    /// Whether the server will run scrypt with these: N from 2^1 to 2^22, r 1–32, p 1–16, at most 1 GiB. A stored
    /// hash naming others is treated as not matching, so a tampered row cannot make the server exhaust memory.
    var isAcceptable: Bool {
        (1...22).contains(logN) && (1...32).contains(blockSize) && (1...16).contains(parallelization)
            && memoryByteCount <= 1 << 30
    }

    /// The parameters as stored with a hash: `ln=…,r=…,p=…`.
    public var description: String { "ln=\(logN),r=\(blockSize),p=\(parallelization)" }
}

/// Hashes and verifies passwords with scrypt (swift-crypto's `KDF.Scrypt`, BoringSSL), in the self-describing form
/// `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (unpadded base64url, 16-byte salt, 32-byte hash), so the parameters can be
/// raised later: ``needsRehash(_:)`` says when a stored hash was made with others.
///
/// scrypt is slow and memory-hard on purpose, so it never runs on an event loop or the concurrency pool: each hash
/// runs on a thread of its own queue, and at most `concurrency` run at once (the others wait their turn), so a
/// flood of password requests cannot take every core or all the memory.
public struct PasswordHasher: Sendable {
    /// The scrypt parameters new hashes are made with.
    public let parameters: ScryptParameters
    let gate: ConcurrencyGate

    static let saltByteCount = 16
    static let hashByteCount = 32
    private static let queue = DispatchQueue(
        label: "latchkey.password-hashing", qos: .userInitiated, attributes: .concurrent)

    /// A hasher making hashes with `parameters`, running at most `concurrency` at once.
    public init(parameters: ScryptParameters, concurrency: Int) {
        self.parameters = parameters
        self.gate = ConcurrencyGate(limit: max(1, concurrency))
    }

    var concurrency: Int { gate.limit }

    /// How many scrypt derivations this hasher has started (or queued), hashes and verifications alike.
    var derivationCount: Int { gate.admissionCount }

    /// A new hash of `password` (already NFKC-normalised) with a fresh random salt.
    public func hash(_ password: String) async throws -> String {
        let salt = RelyingParty.generateChallenge(byteCount: Self.saltByteCount)
        let derived = try await derive(Array(password.utf8), salt: salt, parameters: parameters)
        return Self.encode(parameters: parameters, salt: salt, hash: derived)
    }

    /// Whether `password` (NFKC-normalised) matches `stored`. A malformed hash or unacceptable parameters never
    /// match. The comparison is constant-time.
    public func verify(_ password: String, against stored: String) async throws -> Bool {
        guard let parsed = Self.parse(stored) else { return false }
        let derived = try await derive(Array(password.utf8), salt: parsed.salt, parameters: parsed.parameters)
        return constantTimeEquals(derived, parsed.hash)
    }

    /// Whether `stored` was made with parameters other than the configured ones (or cannot be read).
    public func needsRehash(_ stored: String) -> Bool {
        Self.parse(stored)?.parameters != parameters
    }

    /// A hash that matches no password, with the configured parameters: verifying against it costs what a real
    /// verification costs, so an unknown user name answers in the same time as a wrong password.
    func dummyHash() -> String {
        Self.encode(
            parameters: parameters, salt: RelyingParty.generateChallenge(byteCount: Self.saltByteCount),
            hash: RelyingParty.generateChallenge(byteCount: Self.hashByteCount)
        )
    }

    private func derive(_ password: [UInt8], salt: [UInt8], parameters: ScryptParameters) async throws -> [UInt8] {
        try await gate.run {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                Self.queue.async {
                    do {
                        continuation.resume(returning: try Self.scrypt(password, salt: salt, parameters: parameters))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// One scrypt derivation, on the calling thread.
    static func scrypt(_ password: [UInt8], salt: [UInt8], parameters: ScryptParameters) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: hashByteCount, rounds: 1 << parameters.logN,
            blockSize: parameters.blockSize, parallelism: parameters.parallelization
        )
        return key.withUnsafeBytes { Array($0) }
    }

    static func encode(parameters: ScryptParameters, salt: [UInt8], hash: [UInt8]) -> String {
        "$scrypt$\(parameters)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    static func parse(_ stored: String) -> (parameters: ScryptParameters, salt: [UInt8], hash: [UInt8])? {
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]), values[parts[0]] == nil else { return nil }
            values[parts[0]] = value
        }
        guard values.count == 3, let logN = values["ln"], let r = values["r"], let p = values["p"],
            let salt = Base64URL.decode(String(fields[3])), salt.count >= 8,
            let hash = Base64URL.decode(String(fields[4])), hash.count == hashByteCount
        else { return nil }
        let parameters = ScryptParameters(logN: logN, blockSize: r, parallelization: p)
        guard parameters.isAcceptable else { return nil }
        return (parameters, salt, hash)
    }
}

/// Lets at most `limit` operations run at once; the others wait in order.
final class ConcurrencyGate: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The most that ever ran at once (for tests).
    private(set) var peak = 0
    /// How many operations have been let in so far (for tests: the work a request did).
    private var admissions = 0

    init(limit: Int) {
        self.limit = limit
    }

    func run<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    var peakConcurrency: Int { lock.withLock { peak } }

    /// How many operations have been let in so far.
    var admissionCount: Int { lock.withLock { admissions } }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted: Bool = lock.withLock {
                admissions += 1
                if running < limit {
                    running += 1
                    peak = max(peak, running)
                    return true
                }
                waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            // The slot passes straight to the next waiter.
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
