import Crypto

/// The client-data checks both ceremonies share (WebAuthn §7.1 steps 7–12, §7.2 steps 10–15).
///
/// It keeps the relying party's settings it checks, not the relying party: a copy of a ``RelyingParty`` retains every
/// one of its references (names, origins, trust anchors, options), twice per ceremony.
struct ClientDataCheck {
    let origins: [String]
    let crossOrigin: CrossOriginPolicy
    let acceptsBase64URLTextChallenge: Bool
    let expectedType: String
    let expectedChallenge: [UInt8]

    /// `relyingParty` is borrowed: an initializer's parameters are otherwise passed owned, which copies it.
    init(relyingParty: borrowing RelyingParty, expectedType: String, expectedChallenge: [UInt8]) {
        origins = relyingParty.origins
        crossOrigin = relyingParty.crossOrigin
        acceptsBase64URLTextChallenge = relyingParty.acceptsBase64URLTextChallenge
        self.expectedType = expectedType
        self.expectedChallenge = expectedChallenge
    }

    /// Verifies type, challenge, origin, cross-origin and token binding; returns how the challenge matched.
    func verify(_ clientData: CollectedClientData) throws(WebAuthnError) -> ChallengeEncoding {
        guard clientData.type == expectedType else {
            throw WebAuthnError(
                .typeMismatch, "clientDataJSON.type is \"\(clientData.type)\", expected \"\(expectedType)\"")
        }
        let encoding = try matchChallenge(clientData.challenge)
        guard origins.contains(clientData.origin) else {
            throw WebAuthnError(
                .originNotAllowed, "origin \"\(clientData.origin)\" is not one of the relying party's origins")
        }
        if clientData.crossOrigin || clientData.topOrigin != nil {
            switch crossOrigin {
            case .deny:
                throw WebAuthnError(
                    .crossOriginNotAllowed,
                    "clientDataJSON.crossOrigin is true but cross-origin ceremonies are not allowed")
            case .allowAnyTopOrigin:
                break
            case .allow(let topOrigins):
                if let top = clientData.topOrigin, !topOrigins.contains(top) {
                    throw WebAuthnError(.topOriginNotAllowed, "topOrigin \"\(top)\" is not an allowed top-level origin")
                }
            }
        }
        if let status = clientData.tokenBindingStatus, status != "present", status != "supported" {
            throw WebAuthnError(
                .tokenBindingInvalid, "clientDataJSON.tokenBinding.status \"\(status)\" is not an allowed value")
        }
        return encoding
    }

    private func matchChallenge(_ received: [UInt8]) throws(WebAuthnError) -> ChallengeEncoding {
        if constantTimeEquals(received, expectedChallenge) { return .bytes }
        if acceptsBase64URLTextChallenge,
            constantTimeEquals(received, Array(Base64URL.encode(expectedChallenge).utf8))
        {
            return .base64URLText
        }
        throw WebAuthnError(.challengeMismatch, "clientDataJSON.challenge does not match the expected challenge")
    }
}

/// Which form of the challenge the client data carried.
public enum ChallengeEncoding: String, Sendable, Hashable, Codable {
    /// The standard form: base64url of the challenge bytes.
    case bytes
    /// The compatibility form: base64url of the UTF-8 text of the base64url challenge.
    case base64URLText
}

/// The authenticator-data checks both ceremonies share; like ``ClientDataCheck`` it keeps only the settings it checks.
struct AuthenticatorDataCheck {
    /// SHA-256 of each RP ID accepted, and the IDs themselves for the message when none matches.
    let acceptedRPIDHashes: [[UInt8]]
    let acceptedRPIDs: [String]
    let appID: String?
    let requireUserVerification: Bool
    /// Whether UP must be set: ``RelyingParty/requireUserPresence`` unless the ceremony says otherwise.
    var requireUserPresence: Bool
    /// SHA-256 of the AppID, accepted as the rpIdHash when the client used the `appid` extension.
    let appIDHash: [UInt8]?

    init(
        relyingParty: borrowing RelyingParty, requireUserVerification: Bool, requireUserPresence: Bool? = nil,
        appIDHash: [UInt8]? = nil
    ) {
        acceptedRPIDHashes = relyingParty.acceptedRPIDHashes
        acceptedRPIDs = relyingParty.acceptedRPIDs
        appID = relyingParty.appID
        self.requireUserVerification = requireUserVerification
        // Not `??`: its autoclosure would capture, and so copy, the borrowed relying party.
        let policyRequiresPresence = relyingParty.requireUserPresence
        self.requireUserPresence = requireUserPresence ?? policyRequiresPresence
        self.appIDHash = appIDHash
    }

    func verify(_ authData: AuthenticatorData) throws(WebAuthnError) {
        let matchesRPID =
            acceptedRPIDHashes.contains { constantTimeEquals($0, authData.rpIDHash) }
            || appIDHash.map { constantTimeEquals($0, authData.rpIDHash) } == true
        guard matchesRPID else {
            var list = acceptedRPIDs.joined(separator: ", ")
            if appIDHash != nil, let appID { list += ", AppID \(appID)" }
            throw WebAuthnError(.rpIdHashMismatch, "rpIdHash matches none of the expected RP IDs (\(list))")
        }
        if requireUserPresence, !authData.flags.userPresent {
            throw WebAuthnError(.userPresenceRequired, "user presence is required but the UP flag is not set")
        }
        if requireUserVerification, !authData.flags.userVerified {
            throw WebAuthnError(.userVerificationRequired, "user verification is required but the UV flag is not set")
        }
        if authData.flags.backedUp, !authData.flags.backupEligible {
            throw WebAuthnError(.backupStateInvalid, "the BS flag is set without the BE flag")
        }
    }
}
