import CBOR
import WebAuthn

/// Makes the attestation statement (`fmt` and `attStmt`) for a new credential.
enum AttestationStatementBuilder {
    case none
    case packedSelf
    case packed(AttestationIdentity)
    case fidoU2F(AttestationIdentity)

    /// What the statement signs over, besides the keys.
    struct Input {
        var authenticatorData: [UInt8]
        var clientDataHash: [UInt8]
        var credentialID: [UInt8]
        var credentialKey: SigningKey
        var credentialPublicKey: COSEKey
    }

    var format: String {
        switch self {
        case .none: "none"
        case .packedSelf, .packed: "packed"
        case .fidoU2F: "fido-u2f"
        }
    }

    func statement(for input: Input, tampering: Tampering) throws(VirtualAuthenticatorError) -> CBORMap {
        switch self {
        case .none:
            return CBORMap()
        case .packedSelf:
            let signature = try input.credentialKey.sign(input.authenticatorData + input.clientDataHash)
            return CBORMap([
                ("alg", .int(input.credentialKey.algorithm.rawValue)),
                ("sig", .byteString(tampering.applied(toSignature: signature))),
            ])
        case .packed(let identity):
            let signature = try identity.key.sign(input.authenticatorData + input.clientDataHash)
            return CBORMap([
                ("alg", .int(identity.key.algorithm.rawValue)),
                ("sig", .byteString(tampering.applied(toSignature: signature))),
                ("x5c", .array(identity.x5c.map { .byteString($0) })),
            ])
        case .fidoU2F(let identity):
            let signature = try identity.key.sign(try Self.u2fSignedData(input))
            return CBORMap([
                ("sig", .byteString(tampering.applied(toSignature: signature))),
                ("x5c", .array(identity.x5c.map { .byteString($0) })),
            ])
        }
    }

    /// WebAuthn §8.6: `0x00 || rpIdHash || clientDataHash || credentialId || 0x04 || x || y`.
    private static func u2fSignedData(_ input: Input) throws(VirtualAuthenticatorError) -> [UInt8] {
        guard case .ec2(let curve, let x, let y) = input.credentialPublicKey.parameters, curve == COSEKey.Curve.p256
        else {
            throw .unsupportedAlgorithm(requested: [input.credentialPublicKey.algorithm])
        }
        let rpIDHash = input.authenticatorData.prefix(32)
        return [0x00] + rpIDHash + input.clientDataHash + input.credentialID + [0x04] + x + y
    }
}
