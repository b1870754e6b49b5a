import CryptoExtras

/// The scrypt password-based key derivation function (RFC 7914): swift-crypto's `KDF.Scrypt` behind
/// parameters that are checked first, so a file naming absurd ones is refused instead of run.
///
/// ```swift
/// let key = try Scrypt.deriveKey(passphrase: Array("pleaseletmein".utf8), salt: salt,
///                                parameters: .interactive, outputByteCount: 32)
/// ```
public enum Scrypt {
    /// scrypt's cost parameters.
    public struct Parameters: Codable, Sendable, Hashable {
        /// N, the CPU/memory cost: a power of two greater than 1.
        public var cost: Int
        /// r, the block size.
        public var blockSize: Int
        /// p, the parallelization.
        public var parallelization: Int

        /// Parameters as given: N = `cost`, r = `blockSize`, p = `parallelization`.
        public init(cost: Int, blockSize: Int, parallelization: Int) {
            self.cost = cost
            self.blockSize = blockSize
            self.parallelization = parallelization
        }

        /// N = 2^15, r = 8, p = 1: 32 MiB and a fraction of a second optimized; what the file store uses.
        public static let interactive = Parameters(cost: 1 << 15, blockSize: 8, parallelization: 1)

        /// The memory ROMix needs, in bytes (128 · r · N).
        public var memoryByteCount: Int { 128 * blockSize * cost }
    }

    /// Parameters scrypt cannot run with.
    public struct InvalidParameters: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the parameters.
        public var description: String
    }

    /// The largest ROMix memory ``deriveKey(passphrase:salt:parameters:outputByteCount:)`` accepts (1 GiB),
    /// so a file naming absurd parameters cannot exhaust memory.
    public static let maximumMemoryByteCount = 1 << 30

    /// Derives `outputByteCount` bytes from `passphrase` and `salt` (RFC 7914 §6) with swift-crypto's
    /// `KDF.Scrypt` (BoringSSL), after checking the parameters against this type's limits.
    /// - Throws: ``InvalidParameters`` when N is not a power of two above 1, r or p is below 1,
    ///   p · r ≥ 2^30, the memory exceeds ``maximumMemoryByteCount``, or the output length is not positive.
    public static func deriveKey(
        passphrase: [UInt8], salt: [UInt8], parameters: Parameters, outputByteCount: Int
    ) throws(InvalidParameters) -> [UInt8] {
        try validate(parameters, outputByteCount: outputByteCount)
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: passphrase, salt: salt, outputByteCount: outputByteCount, rounds: parameters.cost,
                blockSize: parameters.blockSize, parallelism: parameters.parallelization
            )
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw InvalidParameters(description: "scrypt failed: \(error)")
        }
    }

    private static func validate(_ parameters: Parameters, outputByteCount: Int) throws(InvalidParameters) {
        let (n, r, p) = (parameters.cost, parameters.blockSize, parameters.parallelization)
        guard n > 1, n.nonzeroBitCount == 1 else {
            throw InvalidParameters(description: "N must be a power of two above 1, not \(n)")
        }
        guard r >= 1, p >= 1 else { throw InvalidParameters(description: "r and p must be at least 1") }
        guard r.multipliedReportingOverflow(by: p).partialValue < 1 << 30, r <= 1 << 20, p <= 1 << 20 else {
            throw InvalidParameters(description: "p · r must be below 2^30")
        }
        let (memory, overflow) = (128 * r).multipliedReportingOverflow(by: n)
        guard !overflow, memory <= maximumMemoryByteCount else {
            throw InvalidParameters(description: "N = \(n), r = \(r) need more than \(maximumMemoryByteCount) bytes")
        }
        guard outputByteCount > 0, outputByteCount <= 1 << 20 else {
            throw InvalidParameters(description: "the output length must be between 1 and 2^20 bytes")
        }
    }
}
