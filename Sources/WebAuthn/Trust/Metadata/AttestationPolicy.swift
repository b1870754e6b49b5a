import Foundation

/// What a relying party demands of an attestation beyond a valid statement, judged with the authenticator's
/// metadata (``AttestationTrust/policy``). It is the one place an untrusted attestation fails, always with
/// `attestation.untrusted`: under ``Requirement/trusted`` and ``Requirement/certified`` for every format, and under
/// every requirement for the ``anchoredFormats`` (by default `apple` and `android-safetynet`, whose genuine
/// attestations all chain to the built-in roots).
///
/// Under every policy, an authenticator whose metadata has a status report in effect saying
/// ``AuthenticatorStatus/compromised`` (revoked, user-verification bypass, key compromise) is refused with
/// `metadata.authenticatorCompromised`.
public struct AttestationPolicy: Sendable, Hashable, CustomStringConvertible {
    /// How much the attestation must prove.
    public enum Requirement: String, Sendable, Hashable, CaseIterable {
        /// Accept any valid statement, `none` and `self` included.
        case any
        /// The certificate path must lead to a configured or metadata-provided anchor (`attestation.untrusted`).
        case trusted
        /// As `trusted`, and the metadata must show a FIDO certification (`metadata.notCertified`).
        case certified
    }

    /// How much the attestation must prove.
    public var requirement: Requirement
    /// For `certified`: the statuses that count as certified.
    public var certificationLevels: Set<AuthenticatorStatus>
    /// The attestation formats whose certificate path must lead to an anchor whatever the ``requirement``
    /// (a `compound` attestation's sub-statements included).
    public var anchoredFormats: Set<String>

    /// The formats every genuine attestation of which chains to a built-in root: `apple` and `android-safetynet`.
    public static let alwaysAnchoredFormats: Set<String> = ["apple", "android-safetynet"]

    /// A policy with `requirement`; `certificationLevels` matters for `certified` only.
    public init(
        _ requirement: Requirement,
        certificationLevels: Set<AuthenticatorStatus> = AuthenticatorStatus.certificationLevels,
        anchoredFormats: Set<String> = alwaysAnchoredFormats
    ) {
        self.requirement = requirement
        self.certificationLevels = certificationLevels
        self.anchoredFormats = anchoredFormats
    }

    /// Parses `any`, `trusted` or `certified` (the server's `--attestation-policy`).
    public init?(_ text: String) {
        guard let requirement = Requirement(rawValue: text) else { return nil }
        self.init(requirement)
    }

    /// Any valid statement (compromised authenticators are still refused).
    public static let any = Self(.any)
    /// A trusted certificate path.
    public static let trusted = Self(.trusted)
    /// Certified at any FIDO level.
    public static let certified = Self(.certified)

    /// A readable form.
    public var description: String { requirement.rawValue }

    /// Checks a verified attestation and the authenticator's metadata (nil when none matched) at `time`.
    public func check(_ attestation: VerifiedAttestation, metadata: MetadataEntry?, at time: Date) throws(WebAuthnError)
    {
        let name = metadata?.description.map { "\"\($0)\"" } ?? "the authenticator"
        if let report = metadata?.compromiseReport(at: time) {
            let since = report.effectiveDate.map { " since \($0)" } ?? ""
            throw WebAuthnError(
                .metadataAuthenticatorCompromised, "metadata reports \(name) as \(report.status)\(since)")
        }
        for statement in [attestation] + attestation.components
        where !statement.trust.isTrusted && anchoredFormats.contains(statement.format) {
            throw WebAuthnError(
                .untrustedAttestation,
                "\(statement.format) attestation must chain to a trust anchor: \(statement.trust.untrustedReason)")
        }
        guard requirement != .any else { return }
        guard attestation.trust.isTrusted else {
            throw WebAuthnError(
                .untrustedAttestation,
                "policy \(requirement.rawValue) requires a trusted attestation; this \(attestation.format) attestation (\(attestation.type.rawValue)) is not trusted: \(attestation.trust.untrustedReason)"
            )
        }
        guard requirement == .certified else { return }
        guard let metadata, metadata.certificationReport(at: time, levels: certificationLevels) != nil else {
            let levels = certificationLevels.map(\.rawValue).sorted().joined(separator: ", ")
            throw WebAuthnError(
                .metadataNotCertified,
                "policy certified requires \(name) to have one of [\(levels)] in its metadata status reports")
        }
    }
}
