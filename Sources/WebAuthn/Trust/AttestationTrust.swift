import Foundation
import X509

/// Which certificates a relying party trusts for attestation, per statement format, and what a registration must
/// prove: one ``policy`` (any valid statement, a trusted path, or a certified authenticator, with the formats whose
/// path must be trusted under every requirement). A path that leads to none of its format's anchors is reported
/// ``TrustStatus/untrusted(reason:)``; the policy alone decides whether that fails the registration.
public struct AttestationTrust: Sendable {
    /// Trusted root certificates per attestation format identifier.
    public var anchorsByFormat: [String: [Certificate]]
    /// Authenticator metadata (FIDO MDS3), consulted per registration: the matched statement's attestation roots
    /// are added to the format's anchors, and its status reports are judged by ``policy``.
    public var metadata: (any AuthenticatorMetadataSource)?
    /// What the registration must prove, judged after the statement verifies (``AttestationPolicy``):
    /// ``AttestationPolicy/trusted`` refuses `none`, `self` and unanchored paths with `attestation.untrusted`.
    public var policy: AttestationPolicy

    /// Trust as given.
    public init(
        anchorsByFormat: [String: [Certificate]] = [:], metadata: (any AuthenticatorMetadataSource)? = nil,
        policy: AttestationPolicy = .any
    ) {
        self.anchorsByFormat = anchorsByFormat
        self.metadata = metadata
        self.policy = policy
    }

    /// The anchors for a format, if any.
    public func anchors(for format: String) -> [Certificate]? { anchorsByFormat[format] }

    /// No anchors and no format that must be anchored: every certificate path verifies as "untrusted".
    public static let empty = AttestationTrust(policy: AttestationPolicy(.any, anchoredFormats: []))

    /// The public roots that real authenticators chain to. `apple` and `android-safetynet` attestations must
    /// chain to theirs (every genuine one does: ``AttestationPolicy/alwaysAnchoredFormats``); `android-key` and
    /// `tpm` are trusted when they chain to Google's or Microsoft's roots and reported untrusted otherwise
    /// (software keystores, vendor TPM roots).
    public static let builtIn: AttestationTrust = {
        func load(_ pems: [String]) -> [Certificate] {
            pems.compactMap { try? Certificate(pemEncoded: $0) }
        }
        return AttestationTrust(anchorsByFormat: [
            "apple": load([BuiltInRoots.appleWebAuthnRoot]),
            "android-safetynet": load([BuiltInRoots.globalSignRootR1, BuiltInRoots.globalSignRootR2]),
            "android-key": load([
                BuiltInRoots.googleHardwareAttestationRoot1, BuiltInRoots.googleHardwareAttestationRoot2,
                BuiltInRoots.googleHardwareAttestationRoot3, BuiltInRoots.googleHardwareAttestationRoot4,
            ]),
            "tpm": load([BuiltInRoots.microsoftTPMRoot2014]),
            "fido-u2f": load([BuiltInRoots.yubicoU2FRoot]),
            "packed": load([BuiltInRoots.yubicoU2FRoot]),
        ])
    }()
}
