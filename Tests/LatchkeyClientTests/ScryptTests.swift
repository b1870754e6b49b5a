import Foundation
import LatchkeyClient
import Testing
import VirtualAuthenticatorClient

@Suite("Scrypt")
struct ScryptTests {
    struct Vector: Sendable, CustomStringConvertible {
        var passphrase: String
        var salt: String
        var n: Int
        var r: Int
        var p: Int
        var expected: String
        var description: String { "N=\(n) r=\(r) p=\(p) \"\(passphrase)\"" }
    }

    /// RFC 7914 §12 (the fourth vector, N = 2^20, needs 1 GiB and is left out).
    static let vectors = [
        Vector(
            passphrase: "", salt: "", n: 16, r: 1, p: 1,
            expected: """
                77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442\
                fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
                """),
        Vector(
            passphrase: "password", salt: "NaCl", n: 1024, r: 8, p: 16,
            expected: """
                fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162\
                2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
                """),
        Vector(
            passphrase: "pleaseletmein", salt: "SodiumChloride", n: 16384, r: 8, p: 1,
            expected: """
                7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2\
                d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887
                """),
    ]

    @Test("RFC 7914 test vectors", arguments: vectors)
    func rfcVectors(vector: Vector) throws {
        let key = try Scrypt.deriveKey(
            passphrase: Array(vector.passphrase.utf8), salt: Array(vector.salt.utf8),
            parameters: .init(cost: vector.n, blockSize: vector.r, parallelization: vector.p), outputByteCount: 64
        )
        #expect(key.map { String(format: "%02x", $0) }.joined() == vector.expected)
    }

    @Test(
        "parameters scrypt cannot run with are refused",
        arguments: [
            (0, 8, 1), (1, 8, 1), (1000, 8, 1), (16, 0, 1), (16, 8, 0), (1 << 30, 8, 1), (16, 1 << 25, 1 << 25),
        ])
    func invalidParameters(n: Int, r: Int, p: Int) {
        #expect(throws: Scrypt.InvalidParameters.self) {
            try Scrypt.deriveKey(
                passphrase: [1], salt: [2], parameters: .init(cost: n, blockSize: r, parallelization: p),
                outputByteCount: 32)
        }
    }
}
