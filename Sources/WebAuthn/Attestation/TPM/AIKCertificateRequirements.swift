import SwiftASN1
import X509

/// WebAuthn §8.3.1: what a TPM attestation identity key (AIK) certificate must look like: version 3, an
/// empty subject, a subject alternative name naming the TPM (TPMv2 EK profile §3.2.9), the
/// tcg-kp-AIKCertificate extended key usage, and not a CA.
struct AIKCertificateRequirements: Sendable {
    /// tcg-kp-AIKCertificate.
    static let aikCertificateUsage: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]
    /// tcg-at-tpmManufacturer, tcg-at-tpmModel, tcg-at-tpmVersion.
    static let tpmManufacturer: ASN1ObjectIdentifier = [2, 23, 133, 2, 1]
    static let tpmModel: ASN1ObjectIdentifier = [2, 23, 133, 2, 2]
    static let tpmVersion: ASN1ObjectIdentifier = [2, 23, 133, 2, 3]
    /// id-ce-certificatePolicies.
    static let certificatePolicies: ASN1ObjectIdentifier = [2, 5, 29, 32]

    /// The critical extensions an AIK certificate carries that the path verifier must accept: the subject
    /// alternative name (critical because the subject is empty), checked by ``check(_:context:)``, and the
    /// certificate policies that TPM vendors mark critical. WebAuthn sets no requirement on an AIK's policies,
    /// so accepting them narrows nothing the specification asks for.
    static let handledCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.subjectAlternativeName, certificatePolicies,
    ]

    /// Fails with `attestation.tpm.certificateRequirements` naming the first requirement the certificate misses.
    func check(_ aik: Certificate, context: AttestationContext) throws(WebAuthnError) {
        func unmet(_ message: String) -> WebAuthnError {
            context.failure("certificateRequirements", "AIK certificate \(message)")
        }
        guard aik.version == .v3 else { throw unmet("must be X.509 version 3") }
        guard aik.subject.isEmpty else { throw unmet("subject must be empty (it is \(aik.subject))") }

        func read<Value>(_ name: String, _ value: () throws -> Value?) throws(WebAuthnError) -> Value? {
            do {
                return try value()
            } catch {
                throw unmet("\(name) extension is not valid")
            }
        }
        guard let names = try read("subject alternative name", { try aik.extensions.subjectAlternativeNames }) else {
            throw unmet("has no subject alternative name extension")
        }
        let attributes = names.flatMap { name -> [RelativeDistinguishedName.Attribute] in
            guard case .directoryName(let directory) = name else { return [] }
            return directory.flatMap { $0 }
        }
        for (oid, label) in [
            (Self.tpmManufacturer, "TPM manufacturer"), (Self.tpmModel, "TPM model"), (Self.tpmVersion, "TPM version"),
        ] {
            let values = attributes.filter { $0.type == oid }.compactMap { String($0.value) }
            guard let value = values.first, !value.isEmpty else {
                throw unmet("subject alternative name has no \(label) (\(oid)) in a directoryName")
            }
        }

        let usage = try read("extended key usage", { try aik.extensions.extendedKeyUsage })
        guard let usage, usage.contains(ExtendedKeyUsage.Usage(oid: Self.aikCertificateUsage)) else {
            throw unmet("extended key usage must contain tcg-kp-AIKCertificate (2.23.133.8.3)")
        }

        let constraints = try read("basic constraints", { try aik.extensions.basicConstraints })
        guard case .notCertificateAuthority = constraints else {
            throw unmet("basic constraints must be present with CA set to false")
        }
    }
}
