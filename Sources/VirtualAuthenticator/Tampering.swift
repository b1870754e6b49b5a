/// Deliberate faults for negative tests: each field, when set, makes one part of the response wrong in
/// exactly the way a broken or malicious client or authenticator would. The default, ``none``, changes
/// nothing; the normal path never needs it.
///
/// Faults in signed data (client data, authenticator data) are made before signing, so the signature
/// stays valid and only the targeted relying-party check fails.
public struct Tampering: Sendable, Hashable {
    /// Write this origin into client data instead of the real one.
    public var origin: String?
    /// Write this `type` into client data instead of `webauthn.create` / `webauthn.get`.
    public var clientDataType: String?
    /// Sign over these challenge bytes instead of the options' challenge.
    public var challenge: [UInt8]?
    /// Write the challenge in the compatibility form some iOS SDKs use:
    /// `base64url(utf8(base64url(challenge)))`.
    public var challengeAsBase64URLText: Bool
    /// Write this `crossOrigin` value into client data.
    public var crossOrigin: Bool?
    /// Hash this RP ID into authenticator data instead of the real one.
    public var rpID: String?
    /// Clear the UP flag.
    public var clearUserPresence: Bool
    /// Clear the UV flag.
    public var clearUserVerification: Bool
    /// Set BS and clear BE.
    public var backedUpWithoutBackupEligibility: Bool
    /// Put this signature counter in authenticator data (the stored counter is not changed).
    public var signCount: UInt32?
    /// Flip a bit of the signature (the assertion signature, or the attestation statement's `sig`).
    public var corruptSignature: Bool
    /// Put this credential ID in the response's `id` and `rawId`.
    public var rawID: [UInt8]?

    /// Faults as given; every one is off by default.
    public init(
        origin: String? = nil, clientDataType: String? = nil, challenge: [UInt8]? = nil,
        challengeAsBase64URLText: Bool = false, crossOrigin: Bool? = nil, rpID: String? = nil,
        clearUserPresence: Bool = false, clearUserVerification: Bool = false,
        backedUpWithoutBackupEligibility: Bool = false, signCount: UInt32? = nil, corruptSignature: Bool = false,
        rawID: [UInt8]? = nil
    ) {
        self.origin = origin
        self.clientDataType = clientDataType
        self.challenge = challenge
        self.challengeAsBase64URLText = challengeAsBase64URLText
        self.crossOrigin = crossOrigin
        self.rpID = rpID
        self.clearUserPresence = clearUserPresence
        self.clearUserVerification = clearUserVerification
        self.backedUpWithoutBackupEligibility = backedUpWithoutBackupEligibility
        self.signCount = signCount
        self.corruptSignature = corruptSignature
        self.rawID = rawID
    }

    /// No faults.
    public static let none = Tampering()

    /// Flips the low bit of the last byte when ``corruptSignature`` is set.
    func applied(toSignature signature: [UInt8]) -> [UInt8] {
        guard corruptSignature, let last = signature.last else { return signature }
        var corrupted = signature
        corrupted[corrupted.count - 1] = last ^ 0x01
        return corrupted
    }
}
