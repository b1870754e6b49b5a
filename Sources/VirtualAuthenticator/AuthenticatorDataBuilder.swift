import Crypto
import WebAuthn

/// Writes authenticator data (WebAuthn §6.1): `rpIdHash || flags || signCount (big-endian) ||
/// [aaguid || credentialIdLength || credentialId || credentialPublicKey]`.
struct AuthenticatorDataBuilder {
    /// The new credential, for registrations (sets the AT flag).
    struct AttestedCredential {
        var aaguid: AAGUID
        var credentialID: [UInt8]
        var publicKey: COSEKey
    }

    var rpID: String
    var flags: AuthenticatorFlags
    var signCount: UInt32
    var attestedCredential: AttestedCredential?

    func serialize() -> [UInt8] {
        var out = Array(SHA256.hash(data: Array(rpID.utf8)))
        var flags = flags
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        out.append(flags.rawValue)
        out += Self.bigEndian(signCount)
        if let credential = attestedCredential {
            out += credential.aaguid.bytes
            out += [
                UInt8(truncatingIfNeeded: credential.credentialID.count >> 8),
                UInt8(truncatingIfNeeded: credential.credentialID.count),
            ]
            out += credential.credentialID
            out += credential.publicKey.rawBytes
        }
        return out
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
