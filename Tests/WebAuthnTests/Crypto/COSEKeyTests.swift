import CBOR
import Crypto
import Testing

@testable import WebAuthn

/// The canonical ES256 fast path of ``COSEKey`` agrees with the general CBOR decoder, and other 77-byte keys
/// take the general path.
@Suite("COSE key parsing")
struct COSEKeyTests {
    static let key = P256.Signing.PrivateKey().publicKey
    static var x: [UInt8] { Array(key.rawRepresentation.prefix(32)) }
    static var y: [UInt8] { Array(key.rawRepresentation.suffix(32)) }

    /// `{kty: 2, alg, crv: 1, x, y}` with its five entries written in `order` (labels 1, 3, -1, -2, -3), by hand:
    /// ``CBOREncoder`` always sorts keys canonically.
    static func ec2Key(algorithm: Int = COSEAlgorithm.es256.rawValue, order: [Int] = [1, 3, -1, -2, -3]) -> [UInt8] {
        let values: [Int: CBORValue] = [
            1: .int(2), 3: .int(algorithm), -1: .int(1), -2: .byteString(x), -3: .byteString(y),
        ]
        return [0xa5]
            + order.flatMap { label in CBOREncoder.encode(.int(label)) + CBOREncoder.encode(values[label] ?? .null) }
    }

    static func generalDecode(_ bytes: [UInt8]) throws -> COSEKey {
        try COSEKey(cbor: try CBORDecoder().decode(bytes), rawBytes: bytes)
    }

    @Test("a canonical ES256 key takes the fast path and equals what the general decoder makes of it")
    func canonicalMatchesGeneral() throws {
        let bytes = Self.ec2Key()
        #expect(bytes.count == COSEKey.canonicalES256Length)
        #expect(
            bytes
                == COSEKey(algorithm: .es256, parameters: .ec2(curve: COSEKey.Curve.p256, x: Self.x, y: Self.y))
                .rawBytes)
        let fast = try #require(COSEKey.canonicalES256(prefixOf: bytes[...]))
        let parsed = try COSEKey(bytes: bytes)
        #expect(parsed == fast)
        #expect(parsed == (try Self.generalDecode(bytes)))
        #expect(parsed.parameters == .ec2(curve: COSEKey.Curve.p256, x: Self.x, y: Self.y))
    }

    @Test(
        "a 77-byte EC2 key in another key order or with another algorithm takes the general path",
        arguments: [
            (COSEAlgorithm.es256.rawValue, [3, 1, -1, -2, -3]),
            (COSEAlgorithm.es256.rawValue, [1, 3, -1, -3, -2]),
            (-9, [1, 3, -1, -2, -3]),
        ])
    func otherLayoutsTakeTheGeneralPath(_ algorithm: Int, _ order: [Int]) throws {
        let bytes = Self.ec2Key(algorithm: algorithm, order: order)
        #expect(bytes.count == COSEKey.canonicalES256Length)
        #expect(COSEKey.canonicalES256(prefixOf: bytes[...]) == nil)
        let parsed = try COSEKey(bytes: bytes)
        #expect(parsed == (try Self.generalDecode(bytes)))
        #expect(parsed.algorithm == COSEAlgorithm(rawValue: algorithm))
        #expect(parsed.parameters == .ec2(curve: COSEKey.Curve.p256, x: Self.x, y: Self.y))
        #expect(parsed.rawBytes == bytes)
    }

    @Test("authenticator data with extensions (ED) after a canonical key parses both")
    func extensionsAfterCanonicalKey() throws {
        let key = Self.ec2Key()
        let credentialID: [UInt8] = [1, 2, 3, 4]
        let extensions = CBOREncoder.encode(.map(CBORMap([(.textString("credProtect"), .int(2))])))
        // rpIdHash, flags UP|AT|ED, counter 7, AAGUID, credential ID, key, extensions.
        let bytes =
            Array(repeating: 0, count: 32) + [0xc1, 0, 0, 0, 7] + Array(repeating: 0x2a, count: 16)
            + [0, UInt8(credentialID.count)] + credentialID + key + extensions
        let authData = try AuthenticatorData(bytes: bytes)
        let attested = try #require(authData.attestedCredentialData)
        #expect(attested.credentialID == credentialID)
        #expect(attested.publicKeyBytes == key)
        #expect(attested.publicKey == (try Self.generalDecode(key)))
        #expect(authData.extensions?[text: "credProtect"] == .int(2))
        #expect(authData.signCount == 7)
    }
}
