import Crypto
import Foundation

/// A WebAuthn relying party: its identity, the origins it serves, and its verification policies.
///
/// A `RelyingParty` is a value: configure it once and share it. It holds no state; challenges come in
/// from the caller, which stores them between `begin…` and `finish…` (``generateChallenge(byteCount:)``
/// makes them).
///
/// ```swift
/// var rp = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
/// let options = rp.beginRegistration(user: user)
/// // … send options, store options.challenge, receive the credential JSON …
/// let registration = try await rp.finishRegistration(credential, expectedChallenge: challenge)
/// ```
public struct RelyingParty: Sendable {
    /// The RP ID: a registrable domain suffix of the origins (e.g. `example.com`).
    public var id: String {
        didSet { acceptRPIDs() }
    }
    /// The relying party's name, shown to users in registration options.
    public var name: String
    /// Origins accepted exactly as written in client data: `https://example.com`, `https://<rpId>` for iOS apps,
    /// `android:apk-key-hash:<base64url sha256>` for Android apps.
    public var origins: [String]
    /// Further RP IDs whose hash is accepted in authenticator data (for migrations between RP IDs).
    public var additionalRPIDs: [String] = [] {
        didSet { acceptRPIDs() }
    }
    /// All RP IDs whose hash is accepted: ``id``, then ``additionalRPIDs``.
    public private(set) var acceptedRPIDs: [String]
    /// SHA-256 of each accepted RP ID, kept with the configuration so no ceremony hashes them again.
    private(set) var acceptedRPIDHashes: [[UInt8]]
    /// Whether ceremonies in cross-origin frames are accepted (denied by default).
    public var crossOrigin: CrossOriginPolicy = .deny
    /// The user-verification requirement sent in options and enforced on responses (`required` enforces).
    public var userVerification: UserVerificationRequirement = .preferred
    /// Whether authenticator data must have UP set. WebAuthn requires it; turn off only for conformance tests.
    public var requireUserPresence: Bool = true
    /// The discoverable-credential requirement sent in registration options.
    public var residentKey: ResidentKeyRequirement = .preferred
    /// The attestation conveyance asked for in registration options.
    public var attestation: AttestationConveyancePreference = .none
    /// The attestation formats accepted (all by default).
    public var attestationFormats: AttestationFormats = .all
    /// The trust anchors, metadata and policy attestations are judged by.
    public var attestationTrust: AttestationTrust = .builtIn
    /// Format-specific attestation options (SafetyNet windows and CTS, android-key authorizations).
    public var attestationOptions = AttestationOptions()
    /// Algorithms offered in `pubKeyCredParams` and accepted for new credentials, most preferred first.
    public var algorithms: [COSEAlgorithm] = COSEAlgorithm.defaultOffered
    /// The ceremony timeout sent to clients, in milliseconds.
    public var timeoutMilliseconds: Int = 300_000
    /// What a counter that did not increase does: fail (the default) or report.
    public var signCountPolicy: SignCountPolicy = .reject
    /// What a changed backup-eligible flag does at sign-in: fail (the default) or accept and report.
    public var backupEligibilityChangePolicy: BackupEligibilityChangePolicy = .reject
    /// Which authenticators may register new passkeys (AAGUID lists, synced or device-bound); all by default.
    public var authenticatorPolicy: AuthenticatorPolicy = .any
    /// Compatibility, off by default: accept client data whose `challenge` is the base64url of the UTF-8 text of
    /// the base64url challenge (some iOS SDKs encode it so). It binds the same random value.
    public var acceptsBase64URLTextChallenge: Bool = false
    /// The `type` a registration's client data must carry: `webauthn.create` by default.
    public var registrationType: String = CollectedClientData.createType
    /// The `type` an authentication's client data must carry: `webauthn.get` by default; `payment.get` to verify
    /// Secure Payment Confirmation assertions.
    public var authenticationType: String = CollectedClientData.getType
    /// The FIDO AppID of credentials registered with the U2F API (WebAuthn §10.1.1, the `appid` extension), e.g.
    /// `https://example.com/u2f/appid.json`. When set, ``beginAuthentication(challenge:allowCredentials:userVerification:hints:extensions:)``
    /// asks for the extension, and an assertion whose client extension output says `appid: true` may carry the
    /// SHA-256 of this AppID as its rpIdHash instead of the RP ID's. Nil (the default) accepts only RP ID hashes.
    public var appID: String?

    /// A relying party for `id` serving `origins`, with the default policies.
    public init(id: String, name: String, origins: [String]) {
        self.id = id
        self.name = name
        self.origins = origins
        self.acceptedRPIDs = [id]
        self.acceptedRPIDHashes = Self.hashes(of: [id])
    }

    /// Keeps ``acceptedRPIDs`` and their hashes in step with ``id`` and ``additionalRPIDs``.
    private mutating func acceptRPIDs() {
        acceptedRPIDs = [id] + additionalRPIDs
        acceptedRPIDHashes = Self.hashes(of: acceptedRPIDs)
    }

    private static func hashes(of rpIDs: [String]) -> [[UInt8]] {
        rpIDs.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    /// Makes a random challenge (or any other random value: session tokens, salts, IDs) from the operating system's
    /// CSPRNG, with one system call for the whole value (`getrandom(2)` on Linux, `arc4random_buf` on Apple platforms).
    public static func generateChallenge(byteCount: Int = 32) -> [UInt8] {
        SecureRandom.bytes(count: byteCount)
    }
}

/// Whether ceremonies run inside cross-origin iframes are accepted.
public enum CrossOriginPolicy: Sendable, Hashable {
    /// `crossOrigin: true` in client data fails with `crossOriginNotAllowed`.
    case deny
    /// Cross-origin ceremonies are accepted when `topOrigin` is one of these.
    case allow(topOrigins: [String])
    /// Cross-origin ceremonies are accepted from any top-level origin.
    case allowAnyTopOrigin
}

/// What to do when an authenticator's signature counter does not increase.
public enum SignCountPolicy: Sendable, Hashable {
    /// Fail with `signCountRegression` (the default: a cloned authenticator is the likely cause).
    case reject
    /// Succeed and set ``VerifiedAuthentication/signCountRegressed`` so the caller can act on it.
    case report
}
