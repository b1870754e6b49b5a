import Foundation
import X509

/// Which certificates a relying party trusts for attestation, per statement format, and what a registration must
/// prove: one ``policy`` (any valid statement, a trusted path, or a certified authenticator). An anchor set can
/// also be ``Anchors/required`` for its format, which makes that format's certificate path itself fail when it leads
/// elsewhere (the built-in `apple` and `android-safetynet` roots: every genuine attestation of those formats chains
/// to them).
public struct AttestationTrust: Sendable {
    /// The anchors for one format.
    public struct Anchors: Sendable {
        /// The trusted root certificates.
        public var certificates: [Certificate]
        /// When true, a chain that does not lead to one of ``certificates`` fails the registration
        /// (`certificate.untrusted`). When false the registration succeeds and reports the path untrusted.
        public var required: Bool

        /// Anchors as given; `required` makes a chain that does not lead to them fail.
        public init(_ certificates: [Certificate], required: Bool) {
            self.certificates = certificates
            self.required = required
        }
    }

    /// Trust anchors per attestation format identifier.
    public var anchorsByFormat: [String: Anchors]
    /// Authenticator metadata (FIDO MDS3), consulted per registration: the matched statement's attestation roots
    /// are added to the format's anchors, and its status reports are judged by ``policy``.
    public var metadata: (any AuthenticatorMetadataSource)?
    /// What the registration must prove, judged after the statement verifies (``AttestationPolicy``):
    /// ``AttestationPolicy/trusted`` refuses `none`, `self` and unanchored paths with `attestation.untrusted`.
    public var policy: AttestationPolicy

    /// Trust as given.
    public init(
        anchorsByFormat: [String: Anchors] = [:], metadata: (any AuthenticatorMetadataSource)? = nil,
        policy: AttestationPolicy = .any
    ) {
        self.anchorsByFormat = anchorsByFormat
        self.metadata = metadata
        self.policy = policy
    }

    /// The anchors for a format, if any.
    public func anchors(for format: String) -> Anchors? { anchorsByFormat[format] }

    /// No anchors: every certificate path verifies as "untrusted".
    public static let empty = AttestationTrust()

    /// The public roots that real authenticators chain to. `apple` and `android-safetynet` attestations must
    /// chain to theirs (every genuine one does); `android-key` and `tpm` are trusted when they chain to Google's
    /// or Microsoft's roots and reported untrusted otherwise (software keystores, vendor TPM roots).
    public static let builtIn: AttestationTrust = {
        func load(_ pems: [String]) -> [Certificate] {
            pems.compactMap { try? Certificate(pemEncoded: $0) }
        }
        return AttestationTrust(anchorsByFormat: [
            "apple": Anchors(load([BuiltInRoots.appleWebAuthnRoot]), required: true),
            "android-safetynet": Anchors(
                load([BuiltInRoots.globalSignRootR1, BuiltInRoots.globalSignRootR2]), required: true),
            "android-key": Anchors(
                load([
                    BuiltInRoots.googleHardwareAttestationRoot1, BuiltInRoots.googleHardwareAttestationRoot2,
                    BuiltInRoots.googleHardwareAttestationRoot3, BuiltInRoots.googleHardwareAttestationRoot4,
                ]), required: false),
            "tpm": Anchors(load([BuiltInRoots.microsoftTPMRoot2014]), required: false),
            "fido-u2f": Anchors(load([BuiltInRoots.yubicoU2FRoot]), required: false),
            "packed": Anchors(load([BuiltInRoots.yubicoU2FRoot]), required: false),
        ])
    }()
}
