import Crypto
import Foundation
import X509

/// `android-safetynet` (WebAuthn §8.5): Google Play services' SafetyNet attests the device, with a nonce
/// that binds the registration, in a JWS signed by `attest.android.com`. Type basic.
///
/// The SafetyNet API is retired; this verifies existing registrations and captures. Freshness and CTS
/// checks follow ``AttestationOptions``.
public struct AndroidSafetyNetAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "android-safetynet"
    /// The host name SafetyNet's signing certificate is issued to.
    public static let attestationHostname = "attest.android.com"

    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard let version = context.statement[text: "ver"]?.stringValue, !version.isEmpty else {
            throw context.failure("malformed", "android-safetynet attestation statement has no non-empty text \"ver\"")
        }
        let response = try SafetyNetResponse(compact: try context.bytes("response"))

        let expectedNonce = Array(SHA256.hash(data: context.signedData))
        guard let nonce = Base64URL.decode(response.payload.nonce), constantTimeEquals(nonce, expectedNonce) else {
            throw context.failure(
                "nonceMismatch", "android-safetynet nonce is not base64(SHA-256(authData || clientDataHash))")
        }

        guard let leaf = response.certificates.first else {
            throw context.failure("responseMalformed", "android-safetynet response has no signing certificate")
        }
        let verifier = try SignatureVerifier(certificateKey: leaf.publicKey, algorithm: response.algorithm)
        guard verifier.isValidSignature(response.signature, for: response.signingInput) else {
            throw context.failure(
                "badSignature", "android-safetynet JWS signature does not verify with its leaf certificate")
        }
        guard Self.isIssued(to: Self.attestationHostname, leaf) else {
            throw context.failure(
                "hostnameMismatch",
                "android-safetynet signing certificate is not issued to \(Self.attestationHostname) (it is \(leaf.subject))"
            )
        }

        let options = context.options
        if options.safetyNetEnforceCTSProfileMatch, !response.payload.ctsProfileMatch {
            throw context.failure(
                "ctsProfileMismatch",
                "android-safetynet ctsProfileMatch is false: the device failed the compatibility profile check")
        }
        if !options.safetyNetSkipTimestampCheck {
            let timestamp = Date(timeIntervalSince1970: Double(response.payload.timestampMs) / 1000)
            let earliest = context.verificationTime.addingTimeInterval(-options.safetyNetMaximumAge)
            let latest = context.verificationTime.addingTimeInterval(options.safetyNetAllowedClockSkew)
            guard timestamp >= earliest, timestamp <= latest else {
                throw context.failure(
                    "timestampOutOfRange",
                    "android-safetynet timestampMs (\(timestamp)) is outside [\(earliest), \(latest)]")
            }
        }

        let trust = try await context.evaluateTrust(of: response.certificates)
        return VerifiedAttestation(format: format, type: .basic, trustPath: response.certificates, trust: trust)
    }

    /// Whether the certificate names `hostname` as a SAN dNSName or, lacking those, as its subject CN.
    static func isIssued(to hostname: String, _ certificate: Certificate) -> Bool {
        let names = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        let dnsNames =
            names?.compactMap { name -> String? in
                if case .dnsName(let dns) = name { return dns }
                return nil
            } ?? []
        if !dnsNames.isEmpty {
            return dnsNames.contains { $0.caseInsensitiveCompare(hostname) == .orderedSame }
        }
        return certificate.subject.flatMap { $0 }
            .filter { $0.type == .RDNAttributeType.commonName }
            .compactMap { String($0.value) }
            .contains { $0.caseInsensitiveCompare(hostname) == .orderedSame }
    }
}
