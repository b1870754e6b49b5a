import CryptoExtras

/// The scrypt password-based key derivation function (RFC 7914), built on swift-crypto's PBKDF2-HMAC-SHA256
/// and a Salsa20/8 core written here.
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
        public var description: String
    }

    /// The largest ROMix memory ``deriveKey(passphrase:salt:parameters:outputByteCount:)`` accepts (1 GiB),
    /// so a file naming absurd parameters cannot exhaust memory.
    public static let maximumMemoryByteCount = 1 << 30

    /// Derives `outputByteCount` bytes from `passphrase` and `salt` (RFC 7914 §6).
    /// - Throws: ``InvalidParameters`` when N is not a power of two above 1, r or p is below 1,
    ///   p · r ≥ 2^30, the memory exceeds ``maximumMemoryByteCount``, or the output length is not positive.
    public static func deriveKey(
        passphrase: [UInt8], salt: [UInt8], parameters: Parameters, outputByteCount: Int
    ) throws(InvalidParameters) -> [UInt8] {
        try validate(parameters, outputByteCount: outputByteCount)
        let r = parameters.blockSize
        let blockWords = 32 * r
        let initial = try pbkdf2(passphrase, salt: salt, count: parameters.parallelization * 128 * r)
        var words = littleEndianWords(initial)
        var scratch = [UInt32](repeating: 0, count: blockWords * parameters.cost)
        for index in 0..<parameters.parallelization {
            let range = index * blockWords..<(index + 1) * blockWords
            var block = Array(words[range])
            roMix(&block, r: r, n: parameters.cost, scratch: &scratch)
            words.replaceSubrange(range, with: block)
        }
        return try pbkdf2(passphrase, salt: littleEndianBytes(words), count: outputByteCount)
    }

    private static func validate(_ parameters: Parameters, outputByteCount: Int) throws(InvalidParameters) {
        let (n, r, p) = (parameters.cost, parameters.blockSize, parameters.parallelization)
        guard n > 1, n.nonzeroBitCount == 1 else { throw InvalidParameters(description: "N must be a power of two above 1, not \(n)") }
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

    private static func pbkdf2(_ passphrase: [UInt8], salt: [UInt8], count: Int) throws(InvalidParameters) -> [UInt8] {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: passphrase, salt: salt, using: .sha256, outputByteCount: count, unsafeUncheckedRounds: 1
            )
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw InvalidParameters(description: "PBKDF2-HMAC-SHA256 failed: \(error)")
        }
    }

    // MARK: ROMix, BlockMix, Salsa20/8 (RFC 7914 §3–5), on little-endian 32-bit words

    /// scryptROMix: `block` is 32·r words; `scratch` holds N blocks.
    static func roMix(_ block: inout [UInt32], r: Int, n: Int, scratch: inout [UInt32]) {
        let blockWords = 32 * r
        var other = [UInt32](repeating: 0, count: blockWords)
        block.withUnsafeMutableBufferPointer { x in
            other.withUnsafeMutableBufferPointer { y in
                scratch.withUnsafeMutableBufferPointer { v in
                    for i in 0..<n {
                        for w in 0..<blockWords { v[i * blockWords + w] = x[w] }
                        blockMix(x, into: y, r: r)
                        for w in 0..<blockWords { x[w] = y[w] }
                    }
                    for _ in 0..<n {
                        // Integerify: the first word of the last 64-byte block; N ≤ 2^32, so its low bits suffice.
                        let j = Int(x[(2 * r - 1) * 16]) & (n - 1)
                        for w in 0..<blockWords { x[w] ^= v[j * blockWords + w] }
                        blockMix(x, into: y, r: r)
                        for w in 0..<blockWords { x[w] = y[w] }
                    }
                }
            }
        }
    }

    /// scryptBlockMix: Salsa20/8 over the 2r 16-word blocks of `input`, even results first, then odd.
    static func blockMix(_ input: UnsafeMutableBufferPointer<UInt32>, into output: UnsafeMutableBufferPointer<UInt32>, r: Int) {
        var x = [UInt32](repeating: 0, count: 16)
        for w in 0..<16 { x[w] = input[(2 * r - 1) * 16 + w] }
        for i in 0..<(2 * r) {
            for w in 0..<16 { x[w] ^= input[i * 16 + w] }
            salsa20_8(&x)
            let destination = (i % 2 == 0 ? i / 2 : r + i / 2) * 16
            for w in 0..<16 { output[destination + w] = x[w] }
        }
    }

    /// The Salsa20/8 core on 16 words, in place.
    static func salsa20_8(_ block: inout [UInt32]) {
        let input = block
        var x = block
        for _ in stride(from: 0, to: 8, by: 2) {
            quarter(&x, 4, 0, 12, 8); quarter(&x, 9, 5, 1, 13)
            quarter(&x, 14, 10, 6, 2); quarter(&x, 3, 15, 11, 7)
            quarter(&x, 1, 0, 3, 2); quarter(&x, 6, 5, 4, 7)
            quarter(&x, 11, 10, 9, 8); quarter(&x, 12, 15, 14, 13)
        }
        for w in 0..<16 { block[w] = x[w] &+ input[w] }
    }

    /// One Salsa20 quarter round: `b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18`.
    @inline(__always)
    private static func quarter(_ x: inout [UInt32], _ b: Int, _ a: Int, _ d: Int, _ c: Int) {
        x[b] ^= rotate(x[a] &+ x[d], 7)
        x[c] ^= rotate(x[b] &+ x[a], 9)
        x[d] ^= rotate(x[c] &+ x[b], 13)
        x[a] ^= rotate(x[d] &+ x[c], 18)
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }

    static func littleEndianWords(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count, by: 4).map { i in
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
    }

    static func littleEndianBytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }
}
