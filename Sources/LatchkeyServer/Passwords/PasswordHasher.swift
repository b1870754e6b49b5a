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
/// runs on a thread of its own queue, and at most `concurrency` run at once, so a flood of password requests cannot
/// take every core or all the memory. At most ``maxWaitingPerSlot`` per slot wait their turn (more are refused with
/// ``Refusal/busy`` at once), and a waiter that is no longer wanted when its turn comes (its client has gone) gives
/// the turn to the next one.
public struct PasswordHasher: Sendable {
    /// Why a hash did not run.
    public enum Refusal: Error, Sendable, Equatable {
        /// Every slot is busy and the queue is full: try again shortly.
        case busy
        /// The caller stopped wanting it before its turn came.
        case abandoned
    }

    /// How many hashes may wait per slot running.
    public static let maxWaitingPerSlot = 8

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
        let limit = max(1, concurrency)
        self.gate = ConcurrencyGate(limit: limit, maxWaiting: limit * Self.maxWaitingPerSlot)
    }

    /// How many scrypt derivations this hasher has started, hashes and verifications alike.
    var derivationCount: Int { gate.admissionCount }

    /// A new hash of `password` (already NFKC-normalised) with a fresh random salt. Throws a ``Refusal`` when the
    /// queue is full, or when `stillWanted` says no once the hash's turn comes.
    public func hash(_ password: String, while stillWanted: @escaping @Sendable () -> Bool = { true }) async throws
        -> String
    {
        let salt = RelyingParty.generateChallenge(byteCount: Self.saltByteCount)
        let derived = try await derive(
            Array(password.utf8), salt: salt, parameters: parameters, while: stillWanted)
        return Self.encode(parameters: parameters, salt: salt, hash: derived)
    }

    /// Whether `password` (NFKC-normalised) matches `stored`. A malformed hash or unacceptable parameters never
    /// match. The comparison is constant-time. Throws a ``Refusal`` as ``hash(_:while:)`` does.
    public func verify(
        _ password: String, against stored: String, while stillWanted: @escaping @Sendable () -> Bool = { true }
    ) async throws -> Bool {
        guard let parsed = Self.parse(stored) else { return false }
        let derived = try await derive(
            Array(password.utf8), salt: parsed.salt, parameters: parsed.parameters, while: stillWanted)
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

    private func derive(
        _ password: [UInt8], salt: [UInt8], parameters: ScryptParameters,
        while stillWanted: @escaping @Sendable () -> Bool
    ) async throws -> [UInt8] {
        try await gate.run(while: stillWanted) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                Self.queue.async {
                    continuation.resume(with: Result { try Self.scrypt(password, salt: salt, parameters: parameters) })
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

/// Lets at most `limit` operations run at once; at most `maxWaiting` others wait, in order, and more are refused
/// (``PasswordHasher/Refusal/busy``). A waiter no longer wanted when its turn comes is dropped
/// (``PasswordHasher/Refusal/abandoned``) and the turn goes to the next.
final class ConcurrencyGate: @unchecked Sendable {
    private struct Waiter {
        let stillWanted: @Sendable () -> Bool
        let continuation: CheckedContinuation<PasswordHasher.Refusal?, Never>
    }

    let limit: Int
    let maxWaiting: Int
    private let lock = NSLock()
    private var running = 0
    private var waiting: [Waiter] = []
    /// The most that ever ran at once (for tests).
    private(set) var peak = 0
    /// How many operations have been let in so far (for tests: the work a request did).
    private var admissions = 0

    init(limit: Int, maxWaiting: Int) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    func run<T>(while stillWanted: @escaping @Sendable () -> Bool = { true }, _ body: () async throws -> T) async throws
        -> T
    {
        try await acquire(stillWanted)
        defer { release() }
        return try await body()
    }

    var peakConcurrency: Int { lock.withLock { peak } }

    /// How many operations have been let in so far.
    var admissionCount: Int { lock.withLock { admissions } }

    /// How many wait for a slot.
    var waitingCount: Int { lock.withLock { waiting.count } }

    private func acquire(_ stillWanted: @escaping @Sendable () -> Bool) async throws(PasswordHasher.Refusal) {
        // nil: admitted.
        let refusal = await withCheckedContinuation {
            (continuation: CheckedContinuation<PasswordHasher.Refusal?, Never>) in
            let queued: Bool = lock.withLock {
                if running < limit {
                    running += 1
                    admissions += 1
                    peak = max(peak, running)
                    return false
                }
                guard waiting.count < maxWaiting else {
                    continuation.resume(returning: .busy)
                    return true
                }
                waiting.append(Waiter(stillWanted: stillWanted, continuation: continuation))
                return true
            }
            if !queued { continuation.resume(returning: nil) }
        }
        if let refusal { throw refusal }
    }

    /// Passes the slot to the next waiter that is still wanted, dropping those that are not; frees it when none is.
    private func release() {
        var dropped: [Waiter] = []
        let next: Waiter? = lock.withLock {
            while !waiting.isEmpty {
                let waiter = waiting.removeFirst()
                if waiter.stillWanted() {
                    admissions += 1
                    return waiter
                }
                dropped.append(waiter)
            }
            running -= 1
            return nil
        }
        for waiter in dropped { waiter.continuation.resume(returning: .abandoned) }
        next?.continuation.resume(returning: nil)
    }
}
