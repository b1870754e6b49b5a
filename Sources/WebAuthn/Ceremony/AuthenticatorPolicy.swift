import Foundation

/// Which authenticators a relying party accepts new passkeys from, judged at registration after the attestation
/// (``RelyingParty/authenticatorPolicy``): AAGUID allow and deny lists, and whether a passkey may, or must, be backed
/// up (synced). Existing passkeys are not judged again.
///
/// An AAGUID is only as trustworthy as the attestation that carries it: with `none` attestation it is the
/// authenticator's word, and synced passkey providers often send all zeros. Pair an allow-list with an attestation
/// policy of ``AttestationPolicy/trusted`` where it must hold against a lying client.
public struct AuthenticatorPolicy: Sendable, Hashable {
    /// Whether a new passkey may be backed up.
    public enum Backup: String, Sendable, Hashable, CaseIterable {
        /// Synced and device-bound passkeys alike (the default).
        case any
        /// Device-bound only: a passkey whose BE flag is set is refused (`authenticator.backupNotAllowed`).
        case deviceBound = "device-bound"
        /// Synced only: a passkey whose BE flag is clear is refused (`authenticator.backupRequired`).
        case synced
    }

    /// When set, only these authenticator models (by AAGUID) may register (`authenticator.notAllowed` otherwise).
    public var allowed: Set<AAGUID>?
    /// These authenticator models may not register (`authenticator.notAllowed`).
    public var denied: Set<AAGUID>
    /// Whether a new passkey may, or must, be backed up.
    public var backup: Backup

    /// A policy as given; the default accepts every authenticator.
    public init(allowed: Set<AAGUID>? = nil, denied: Set<AAGUID> = [], backup: Backup = .any) {
        self.allowed = allowed
        self.denied = denied
        self.backup = backup
    }

    /// Every authenticator.
    public static let any = AuthenticatorPolicy()

    /// Checks a new passkey's authenticator model and backup eligibility; `name` words the refusal ("YubiKey 5 NFC").
    public func check(aaguid: AAGUID, backupEligible: Bool, name: String? = nil) throws(WebAuthnError) {
        let model = name.map { "\"\($0)\" (\(aaguid))" } ?? "the authenticator \(aaguid)"
        if denied.contains(aaguid) || allowed.map({ !$0.contains(aaguid) }) == true {
            throw WebAuthnError(.authenticatorNotAllowed, "\(model) is not accepted by this site")
        }
        switch backup {
        case .any: break
        case .deviceBound where backupEligible:
            throw WebAuthnError(
                .authenticatorBackupNotAllowed,
                "this site accepts device-bound passkeys only; \(model) makes synced ones")
        case .synced where !backupEligible:
            throw WebAuthnError(
                .authenticatorBackupRequired, "this site accepts synced passkeys only; \(model) makes device-bound ones"
            )
        default: break
        }
    }
}

/// What a sign-in does when the passkey's backup-eligible (BE) flag differs from the one stored at registration, which
/// WebAuthn says cannot change but some providers do change (an export, a provider migration).
public enum BackupEligibilityChangePolicy: String, Sendable, Hashable, CaseIterable {
    /// Fail with `backupStateInvalid` (the default, as the specification reads).
    case reject
    /// Succeed and set ``VerifiedAuthentication/backupEligibilityChanged``, so the caller stores the new flag and
    /// records the change.
    case acceptAndRecord = "accept-and-record"
}
