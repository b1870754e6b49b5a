import CBOR
import Foundation
import FuzzSupport

@testable import WebAuthn

/// One attestation statement format's verifier, fed a whole attestation object whatever its `fmt`.
///
/// Input: 8 bytes of verification time (big-endian seconds since 1970), the 32-byte client data hash, then the
/// attestation object, so the seeds (real registrations, scripts/fuzz-seeds.py) reach past the signature checks.
/// Certificate chains are evaluated against Latchkey's built-in roots, as a relying party with `.builtIn` trust does.
enum AttestationStatementTarget {
    static let packed = verify(with: PackedAttestation())
    static let fidoU2F = verify(with: FIDOU2FAttestation())
    static let apple = verify(with: AppleAttestation())
    static let tpm = verify(with: TPMAttestation())
    static let androidKey = verify(with: AndroidKeyAttestation())
    static let androidSafetyNet = verify(with: AndroidSafetyNetAttestation())
    static let compound = verify(with: CompoundAttestation(formats: .single))

    static func verify(with verifier: any AttestationStatementVerifier) -> @Sendable ([UInt8]) -> Void {
        { bytes in
            guard bytes.count > 40 else { return }
            let seconds = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let time = Date(timeIntervalSince1970: TimeInterval(seconds % 4_102_444_800))  // before 2100
            let clientDataHash = Array(bytes[8..<40])
            guard let object = try? AttestationObject(bytes: Array(bytes[40...])),
                let credential = object.authenticatorData.attestedCredentialData
            else { return }
            var options = AttestationOptions()
            options.safetyNetSkipTimestampCheck = seconds & 1 == 1
            let context = AttestationContext(
                format: verifier.format, statement: object.statement, rawStatement: object.rawStatement,
                authenticatorData: object.authenticatorData, clientDataHash: clientDataHash, credential: credential,
                verificationTime: time, trust: .builtIn, options: options,
                credentialKeyVerifier: try? SignatureVerifier(coseKey: credential.publicKey)
            )
            blocking { _ = try? await verifier.verify(context) }
        }
    }
}
