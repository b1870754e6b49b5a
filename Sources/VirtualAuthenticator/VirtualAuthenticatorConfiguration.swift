import CryptoExtras
import WebAuthn

/// What kind of authenticator a ``VirtualAuthenticator`` pretends to be.
public struct VirtualAuthenticatorConfiguration: Sendable {
    /// When the authenticator makes discoverable (resident) credentials.
    public enum DiscoverableCredentials: Sendable, Hashable {
        /// Never: `residentKey: required` fails with ``VirtualAuthenticatorError/residentKeyUnavailable``.
        case unsupported
        /// When the relying party asks for `required` or `preferred` (a security key with storage).
        case whenRequestedOrPreferred
        /// Always, whatever the relying party asks (passkey providers).
        case always
    }

    /// Where RSA credential keys come from. Generating a 2048-bit key takes a noticeable time, so tests and
    /// load tests share one.
    public enum RSAKeySource: Sendable {
        /// A new 2048-bit key for every RSA credential.
        case freshPerCredential
        /// One 2048-bit key, made on first use, for every RSA credential in this process.
        case sharedPerProcess
        /// This key for every RSA credential.
        case fixed(_RSA.Signing.PrivateKey)
    }

    /// The authenticator model's AAGUID (`fido-u2f` always uses zeros).
    public var aaguid: AAGUID
    /// The attestation statement new credentials get (see ``honorsNoneAttestationPreference``).
    public var attestation: AttestationMode
    /// The algorithms the authenticator will make credentials for, in any order: it takes the first entry
    /// of the options' `pubKeyCredParams` that is listed here.
    public var algorithms: [COSEAlgorithm]
    /// When new credentials are discoverable.
    public var discoverableCredentials: DiscoverableCredentials
    /// Whether the authenticator can verify the user (PIN, biometrics). When true it does so unless the
    /// relying party says `discouraged`.
    public var supportsUserVerification: Bool
    /// The BE flag on every new credential.
    public var backupEligible: Bool
    /// The BS flag on every new, backup-eligible credential.
    public var backedUp: Bool
    /// Report a signature counter of 0 in every ceremony, as passkey providers do.
    public var counterAlwaysZero: Bool
    /// The `authenticatorAttachment` reported in responses.
    public var authenticatorAttachment: AuthenticatorAttachment
    /// The transports reported at registration (`getTransports()`).
    public var transports: [AuthenticatorTransport]
    /// The length of new credential IDs, in bytes.
    public var credentialIDLength: Int
    /// Where RSA credential keys come from.
    public var rsaKeySource: RSAKeySource
    /// Act as a browser does when the relying party asks for `attestation: "none"`: replace any statement
    /// but zero-AAGUID self attestation with `none` (WebAuthn L3 §5.1.3). When false the configured
    /// statement is always sent.
    public var honorsNoneAttestationPreference: Bool

    /// A configuration; the defaults describe a USB security key with a counter, UV and resident keys.
    public init(
        aaguid: AAGUID = VirtualAuthenticator.defaultAAGUID,
        attestation: AttestationMode = .none,
        algorithms: [COSEAlgorithm] = VirtualAuthenticator.supportedAlgorithms,
        discoverableCredentials: DiscoverableCredentials = .whenRequestedOrPreferred,
        supportsUserVerification: Bool = true,
        backupEligible: Bool = false,
        backedUp: Bool = false,
        counterAlwaysZero: Bool = false,
        authenticatorAttachment: AuthenticatorAttachment = .crossPlatform,
        transports: [AuthenticatorTransport] = [.usb],
        credentialIDLength: Int = 32,
        rsaKeySource: RSAKeySource = .freshPerCredential,
        honorsNoneAttestationPreference: Bool = true
    ) {
        self.aaguid = aaguid
        self.attestation = attestation
        self.algorithms = algorithms
        self.discoverableCredentials = discoverableCredentials
        self.supportsUserVerification = supportsUserVerification
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.counterAlwaysZero = counterAlwaysZero
        self.authenticatorAttachment = authenticatorAttachment
        self.transports = transports
        self.credentialIDLength = credentialIDLength
        self.rsaKeySource = rsaKeySource
        self.honorsNoneAttestationPreference = honorsNoneAttestationPreference
    }

    /// A roaming security key: cross-platform over USB and NFC, single-device credentials, a counter.
    public static var securityKey: Self {
        Self(transports: [.usb, .nfc])
    }

    /// A synced passkey provider (iCloud Keychain, Google Password Manager): platform attachment, every
    /// credential discoverable and backed up, counter always 0, no attestation.
    public static var passkeyProvider: Self {
        Self(
            aaguid: .zero, discoverableCredentials: .always, backupEligible: true, backedUp: true,
            counterAlwaysZero: true, authenticatorAttachment: .platform, transports: [.internal, .hybrid],
            credentialIDLength: 20
        )
    }
}
