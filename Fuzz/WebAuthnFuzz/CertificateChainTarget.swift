import CBOR
import Foundation
import FuzzSupport

@testable import WebAuthn

/// Certificate chains as the attestation verifiers read them: `x5c` (a CBOR array of DER certificates) parsed by
/// `AttestationContext.certificateChain()` and evaluated against anchors (the chain's last certificate and the
/// built-in roots) with validity periods and the RFC 5280 path checks.
///
/// Input: 8 bytes of verification time (big-endian seconds since 1970), then the `x5c` CBOR array.
enum CertificateChainTarget {
    static func run(_ bytes: [UInt8]) {
        guard bytes.count > 8, let x5c = try? CBORDecoder().decode(bytes[8...]) else { return }
        let seconds = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let time = Date(timeIntervalSince1970: TimeInterval(seconds % 4_102_444_800))
        let statement = CBORMap([(.textString("x5c"), x5c)])
        let credential = AttestedCredentialData.fuzzPlaceholder
        guard let credential else { return }
        let context = AttestationContext(
            format: "packed", statement: statement, authenticatorData: credential.0, clientDataHash: [],
            credential: credential.1, verificationTime: time, trust: .builtIn, options: AttestationOptions()
        )
        guard let chain = try? context.certificateChain(), let root = chain.last else { return }
        for extensions in [[], [AndroidKeyDescription.extensionOID]] {
            _ = try? context.checkAAGUIDExtension(of: chain[0])
            blocking {
                _ = try? await CertificatePath(chain: chain, format: "packed")
                    .evaluate(
                        at: time, anchors: seconds & 1 == 1 ? [root] : [],
                        extraCriticalExtensions: extensions)
                _ = try? await context.evaluateTrust(of: chain, extraCriticalExtensions: extensions)
            }
        }
    }
}

extension AttestedCredentialData {
    /// Authenticator data with an attested ES256 credential (the W3C none-attestation vector's), for contexts
    /// that need one.
    static let fuzzPlaceholder: (AuthenticatorData, AttestedCredentialData)? = {
        let authData = Base64URL.decode(
            "v6vDdDKViwYzYNOtZGHJxHNa5_jt1GWSpeDwFFKy5LVFAAAAAIg_T2AU8ZwJ2HqjgSO-SNAAIG4QUMDSyi8Hx1XLLGanTGT6QwZcGPk4NU2ZFdsr1c5XpQECAyYgASFYICIgCkc_kLEQeIUVUNA7TkSiJ5-MTsonsxU97f4D5Ol9Ilggy9C-ledGrW9agZG-EXVuTAQg5y9ltGbTm8VrixI6nG4"
        )
        guard let authData, let data = try? AuthenticatorData(bytes: authData),
            let credential = data.attestedCredentialData
        else { return nil }
        return (data, credential)
    }()
}
