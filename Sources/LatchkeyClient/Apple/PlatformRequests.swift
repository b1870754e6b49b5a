import Foundation
import WebAuthn

/// Which AuthenticationServices provider a passkey request goes to.
public enum PlatformProvider: Sendable, Hashable, CaseIterable {
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider`: passkeys in the user's password manager, on this
    /// device or on a phone nearby (hybrid, through a QR code).
    case platform
    /// `ASAuthorizationSecurityKeyPublicKeyCredentialProvider`: a FIDO security key over USB, NFC or Bluetooth.
    case securityKey
}

/// A credential ID with the transports the server knows for it.
public struct PlatformCredentialDescriptor: Sendable, Hashable {
    /// The credential ID.
    public var id: Data
    /// The transports the server stored for it.
    public var transports: [AuthenticatorTransport]

    /// A descriptor as given.
    public init(id: Data, transports: [AuthenticatorTransport] = []) {
        self.id = id
        self.transports = transports
    }

    init(_ descriptor: PublicKeyCredentialDescriptor) {
        self.init(id: Data(descriptor.id.bytes), transports: descriptor.transports ?? [])
    }

    /// The raw values of `ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport` for this credential
    /// (`usb`, `nfc`, `ble`); empty when the server named none a security key has, which the adapter turns into
    /// `Transport.allSupported`.
    public var securityKeyTransports: [String] {
        transports.compactMap { transport in
            switch transport {
            case .usb, .nfc, .ble: transport.rawValue
            default: nil
            }
        }
    }

    /// Whether a platform passkey could answer for this credential: the server knows no transports, or one of
    /// them is `internal` or `hybrid`.
    var mayBePlatform: Bool { transports.isEmpty || transports.contains(.internal) || transports.contains(.hybrid) }
    /// Whether a security key could answer for this credential.
    var mayBeSecurityKey: Bool { transports.isEmpty || !securityKeyTransports.isEmpty }
}

/// Everything an AuthenticationServices registration is built from, read from the server's creation options:
/// one value per property of `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` and
/// `ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest`, and which of the two to make.
public struct PlatformRegistrationRequest: Sendable, Hashable {
    /// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle` (iOS 18 / macOS 15).
    public enum Style: Sendable, Hashable {
        /// The system sheet.
        case standard
        /// A conditional (automatic) upgrade: the password manager makes the passkey without a prompt when the
        /// user just signed in with a password it holds, and fails quietly otherwise.
        case conditional
    }

    /// The relying party ID.
    public var relyingPartyIdentifier: String
    /// The challenge from the server's options.
    public var challenge: Data
    /// The user handle from the server's options.
    public var userID: Data
    /// The account name shown in the sheet.
    public var userName: String
    /// `user.displayName`; the security key request's `displayName` (the platform request has none).
    public var userDisplayName: String
    /// The COSE algorithm identifiers of `pubKeyCredParams`, in the server's order of preference.
    public var algorithms: [Int]
    /// `none`, `indirect`, `direct` or `enterprise` (`ASAuthorizationPublicKeyCredentialAttestationKind`).
    public var attestationPreference: String
    /// `required`, `preferred` or `discouraged` (`ASAuthorizationPublicKeyCredentialUserVerificationPreference`).
    public var userVerificationPreference: String
    /// `required`, `preferred` or `discouraged` (`ASAuthorizationPublicKeyCredentialResidentKeyPreference`, security
    /// keys; platform passkeys are always discoverable).
    public var residentKeyPreference: String
    /// Credentials the new one must not duplicate (the platform request takes them from iOS 17.4 / macOS 14.4).
    public var excludedCredentials: [PlatformCredentialDescriptor]
    /// The large-blob support asked for, if any.
    public var largeBlob: PlatformExtensionInputs.LargeBlobSupport?
    /// The PRF input, if any.
    public var prf: PlatformExtensionInputs.PRFRegistration?
    /// A sheet (`standard`) or a silent conditional create (`conditional`).
    public var style: Style
    /// `timeout`, when the server gave one.
    public var timeout: Duration?
    /// The providers to ask, platform first.
    public var providers: [PlatformProvider]

    /// The request for `options`; the RP ID is the options' or else `defaultRelyingPartyIdentifier`.
    ///
    /// The platform provider makes ES256 passkeys only, so it is asked only when `pubKeyCredParams` lists ES256;
    /// `authenticatorSelection.authenticatorAttachment: "platform"` and a conditional request ask it alone.
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` without an RP ID, with an empty challenge or user ID, or
    ///   with a malformed extension input; ``AuthenticatorError/Code/unsupported`` when no provider can make a
    ///   credential with the requested algorithms.
    public init(
        options: PublicKeyCredentialCreationOptions, defaultRelyingPartyIdentifier: String? = nil,
        style: Style = .standard, allowsSecurityKeys: Bool = true
    ) throws(AuthenticatorError) {
        guard let rpID = options.rp.id ?? defaultRelyingPartyIdentifier, !rpID.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the creation options name no RP ID")
        }
        guard !options.challenge.bytes.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the challenge is empty")
        }
        guard (1...64).contains(options.user.id.bytes.count) else {
            throw AuthenticatorError(.invalidOptions, "user.id must be 1 to 64 bytes")
        }
        relyingPartyIdentifier = rpID
        challenge = Data(options.challenge.bytes)
        userID = Data(options.user.id.bytes)
        userName = options.user.name
        userDisplayName = options.user.displayName
        // WebAuthn: an empty pubKeyCredParams means ES256 and RS256.
        let params = options.pubKeyCredParams.filter { $0.type == .publicKey }.map(\.alg.rawValue)
        algorithms = options.pubKeyCredParams.isEmpty ? [COSEAlgorithm.es256.rawValue, -257] : params
        attestationPreference = (options.attestation ?? .none).rawValue
        let selection = options.authenticatorSelection
        userVerificationPreference = (selection?.userVerification ?? .preferred).rawValue
        residentKeyPreference =
            (selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : .discouraged)).rawValue
        excludedCredentials = (options.excludeCredentials ?? []).map(PlatformCredentialDescriptor.init)
        largeBlob = try PlatformExtensionInputs.largeBlobSupport(options.extensions)
        prf = try PlatformExtensionInputs.prfRegistration(options.extensions)
        self.style = style
        timeout = options.timeout.map { .milliseconds($0) }

        var providers: [PlatformProvider] = []
        if algorithms.contains(COSEAlgorithm.es256.rawValue) { providers.append(.platform) }
        if allowsSecurityKeys, style == .standard, selection?.authenticatorAttachment != .platform, !algorithms.isEmpty
        {
            providers.append(.securityKey)
        }
        guard !providers.isEmpty else {
            let requested = algorithms.map(String.init).joined(separator: ", ")
            throw AuthenticatorError(
                .unsupported,
                style == .conditional || selection?.authenticatorAttachment == .platform
                    ? "platform passkeys use ES256 (-7), which the options do not allow (they allow \(requested))"
                    : "no passkey provider here supports the requested algorithms (\(requested))")
        }
        self.providers = providers
    }
}

/// Everything an AuthenticationServices assertion is built from, read from the server's request options.
public struct PlatformAssertionRequest: Sendable, Hashable {
    /// The relying party ID.
    public var relyingPartyIdentifier: String
    /// The challenge from the server's options.
    public var challenge: Data
    /// Empty for a username-less (discoverable) request.
    public var allowedCredentials: [PlatformCredentialDescriptor]
    /// The user-verification preference from the options (`required`, `preferred`, `discouraged`).
    public var userVerificationPreference: String
    /// The large-blob operation, if any.
    public var largeBlob: PlatformExtensionInputs.LargeBlobOperation?
    /// The PRF input, if any.
    public var prf: PlatformExtensionInputs.PRFAssertion?
    /// The FIDO U2F AppID a security key credential may have been registered under.
    public var appID: String?
    /// How long the sheet may wait, from the options' timeout.
    public var timeout: Duration?
    /// The providers to ask, platform first.
    public var providers: [PlatformProvider]

    /// The request for `options`; the RP ID is the options' or else `defaultRelyingPartyIdentifier`.
    ///
    /// When the server lists credentials with transports, only the providers that could hold one of them are asked
    /// (a credential known to be `internal`/`hybrid` never needs the security key sheet, and one known to be `usb`
    /// never needs the passkey sheet).
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` without an RP ID, with an empty challenge or with a
    ///   malformed extension input.
    public init(
        options: PublicKeyCredentialRequestOptions, defaultRelyingPartyIdentifier: String? = nil,
        allowsSecurityKeys: Bool = true
    ) throws(AuthenticatorError) {
        guard let rpID = options.rpId ?? defaultRelyingPartyIdentifier, !rpID.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the request options name no RP ID")
        }
        guard !options.challenge.bytes.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the challenge is empty")
        }
        relyingPartyIdentifier = rpID
        challenge = Data(options.challenge.bytes)
        allowedCredentials = (options.allowCredentials ?? []).map(PlatformCredentialDescriptor.init)
        userVerificationPreference = (options.userVerification ?? .preferred).rawValue
        largeBlob = try PlatformExtensionInputs.largeBlobOperation(options.extensions)
        prf = try PlatformExtensionInputs.prfAssertion(options.extensions)
        appID = try PlatformExtensionInputs.appID(options.extensions)
        timeout = options.timeout.map { .milliseconds($0) }

        let anyCredential = allowedCredentials.isEmpty
        var providers: [PlatformProvider] = []
        if anyCredential || allowedCredentials.contains(where: \.mayBePlatform) { providers.append(.platform) }
        if allowsSecurityKeys, anyCredential || allowedCredentials.contains(where: \.mayBeSecurityKey) {
            providers.append(.securityKey)
        }
        // Security keys turned off and every listed credential is a security key's: still ask the platform,
        // whose sheet reports that no passkey matches.
        self.providers = providers.isEmpty ? [.platform] : providers
    }
}
