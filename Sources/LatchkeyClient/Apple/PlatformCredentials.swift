import Foundation
import WebAuthn

/// `ASAuthorizationPublicKeyCredentialAttachment` (iOS 16.6 / macOS 13.5): where the authenticator that answered is.
public enum PlatformAttachment: Int, Sendable, Hashable {
    /// This device's password manager.
    case platform = 0
    /// Another device: a phone through a QR code (hybrid), or a security key.
    case crossPlatform = 1
}

/// The PRF outputs (`first`, and `second` when two salts were given), as raw key bytes.
public struct PlatformPRFOutput: Sendable, Hashable {
    /// The PRF output for the first salt.
    public var first: Data
    /// The PRF output for the second salt, when one was given.
    public var second: Data?

    /// Outputs as given.
    public init(first: Data, second: Data? = nil) {
        self.first = first
        self.second = second
    }
}

/// A passkey registration as AuthenticationServices returned it, copied out of
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` or `ASAuthorizationSecurityKeyPublicKeyCredentialRegistration`
/// on the main actor into a Sendable value.
public struct PlatformRegistrationResult: Sendable, Hashable {
    /// Which provider's request produced it.
    public var provider: PlatformProvider
    /// The new credential's ID.
    public var credentialID: Data
    /// The client data JSON the platform signed over, as bytes.
    public var rawClientDataJSON: Data
    /// The CBOR attestation object (nil when the platform withheld it).
    public var rawAttestationObject: Data?
    /// The platform registration's `attachment` (iOS 16.6 / macOS 13.5); nil where the system does not say.
    public var attachment: PlatformAttachment?
    /// The security key registration's `transports` raw values (`usb`, `nfc`, `ble`); empty when not reported.
    public var transports: [String]
    /// `largeBlob.isSupported`, when large blob support was requested.
    public var largeBlobSupported: Bool?
    /// `prf.isSupported`, when PRF was requested.
    public var prfSupported: Bool?
    /// `prf.first` / `prf.second`, when PRF was evaluated at registration.
    public var prfOutput: PlatformPRFOutput?

    /// A result as given (the adapters fill it from AuthenticationServices).
    public init(
        provider: PlatformProvider, credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?,
        attachment: PlatformAttachment? = nil, transports: [String] = [], largeBlobSupported: Bool? = nil,
        prfSupported: Bool? = nil, prfOutput: PlatformPRFOutput? = nil
    ) {
        self.provider = provider
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
        self.attachment = attachment
        self.transports = transports
        self.largeBlobSupported = largeBlobSupported
        self.prfSupported = prfSupported
        self.prfOutput = prfOutput
    }
}

/// A passkey assertion as AuthenticationServices returned it, copied out of
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion` or `ASAuthorizationSecurityKeyPublicKeyCredentialAssertion`.
public struct PlatformAssertionResult: Sendable, Hashable {
    /// Which provider answered: a platform passkey or a security key.
    public var provider: PlatformProvider
    /// The credential's ID.
    public var credentialID: Data
    /// The client data JSON the authenticator signed over, as bytes.
    public var rawClientDataJSON: Data
    /// `rawAuthenticatorData` (`Data!` in the SDK: nil becomes a failed ceremony, never a crash).
    public var rawAuthenticatorData: Data
    /// The assertion signature.
    public var signature: Data
    /// The user handle (`user.id` at registration); nil or empty when the authenticator returned none.
    public var userID: Data?
    /// How the authenticator is attached, when the platform says.
    public var attachment: PlatformAttachment?
    /// The security key assertion's `appID`: whether the FIDO AppID was used instead of the RP ID.
    public var appIDUsed: Bool?
    /// `largeBlob.readData`, after a read.
    public var largeBlobData: Data?
    /// `largeBlob.didWrite`, after a write.
    public var largeBlobWritten: Bool?
    /// The PRF outputs, when PRF was asked for.
    public var prfOutput: PlatformPRFOutput?

    /// A result as given (the adapters fill it from AuthenticationServices).
    public init(
        provider: PlatformProvider, credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data,
        signature: Data,
        userID: Data?, attachment: PlatformAttachment? = nil, appIDUsed: Bool? = nil, largeBlobData: Data? = nil,
        largeBlobWritten: Bool? = nil, prfOutput: PlatformPRFOutput? = nil
    ) {
        self.provider = provider
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
        self.attachment = attachment
        self.appIDUsed = appIDUsed
        self.largeBlobData = largeBlobData
        self.largeBlobWritten = largeBlobWritten
        self.prfOutput = prfOutput
    }
}

/// Turns platform results into the WebAuthn L3 JSON models the server takes (base64url everywhere), with the
/// attachment and transports the system really reported.
public enum PlatformCredentialMapping {
    /// The `RegistrationResponseJSON` for a platform registration.
    ///
    /// `authenticatorAttachment` is the system's `attachment` when it says (a phone used through a QR code is
    /// `cross-platform`), `cross-platform` for a security key, and absent otherwise. `transports` is what the security
    /// key reported; for a passkey, `hybrid` and `internal` (this device's password manager) or `hybrid` alone (a phone
    /// nearby); absent when unknown.
    /// - Throws: ``AuthenticatorError/Code/failed`` when the platform gave no attestation object.
    public static func registration(_ result: PlatformRegistrationResult) throws(AuthenticatorError)
        -> RegistrationCredential
    {
        guard let attestationObject = result.rawAttestationObject, !attestationObject.isEmpty else {
            throw AuthenticatorError(.failed, "the platform returned no attestation object")
        }
        guard !result.credentialID.isEmpty, !result.rawClientDataJSON.isEmpty else {
            throw AuthenticatorError(
                .failed, "the platform returned a registration without a credential ID or client data")
        }
        var extensions: [String: JSONValue] = [:]
        if let supported = result.largeBlobSupported {
            extensions["largeBlob"] = .object(["supported": .bool(supported)])
        }
        if result.prfSupported != nil || result.prfOutput != nil {
            var prf: [String: JSONValue] = ["enabled": .bool(result.prfSupported ?? true)]
            if let output = result.prfOutput { prf["results"] = prfResults(output) }
            extensions["prf"] = .object(prf)
        }
        return RegistrationCredential(
            rawId: Array(result.credentialID),
            response: AuthenticatorAttestationResponse(
                clientDataJSON: Array(result.rawClientDataJSON), attestationObject: Array(attestationObject),
                transports: transports(of: result)
            ),
            authenticatorAttachment: attachment(result.attachment, provider: result.provider),
            clientExtensionResults: extensions
        )
    }

    /// The `AuthenticationResponseJSON` for a platform assertion.
    /// - Throws: ``AuthenticatorError/Code/failed`` when the platform left out the authenticator data or the signature.
    public static func assertion(_ result: PlatformAssertionResult) throws(AuthenticatorError)
        -> AuthenticationCredential
    {
        guard !result.credentialID.isEmpty, !result.rawClientDataJSON.isEmpty, !result.rawAuthenticatorData.isEmpty,
            !result.signature.isEmpty
        else {
            throw AuthenticatorError(
                .failed, "the platform returned an assertion without authenticator data or signature")
        }
        var extensions: [String: JSONValue] = [:]
        if let used = result.appIDUsed { extensions["appid"] = .bool(used) }
        if let blob = result.largeBlobData {
            extensions["largeBlob"] = .object(["blob": .string(Base64URL.encode(Array(blob)))])
        } else if let written = result.largeBlobWritten {
            extensions["largeBlob"] = .object(["written": .bool(written)])
        }
        if let output = result.prfOutput { extensions["prf"] = .object(["results": prfResults(output)]) }
        let userHandle = result.userID.flatMap { $0.isEmpty ? nil : Array($0) }
        return AuthenticationCredential(
            rawId: Array(result.credentialID),
            response: AuthenticatorAssertionResponse(
                clientDataJSON: Array(result.rawClientDataJSON), authenticatorData: Array(result.rawAuthenticatorData),
                signature: Array(result.signature), userHandle: userHandle
            ),
            authenticatorAttachment: attachment(result.attachment, provider: result.provider),
            clientExtensionResults: extensions
        )
    }

    static func attachment(_ attachment: PlatformAttachment?, provider: PlatformProvider) -> AuthenticatorAttachment? {
        switch (attachment, provider) {
        case (.platform?, _): .platform
        case (.crossPlatform?, _), (nil, .securityKey): .crossPlatform
        case (nil, .platform): nil
        }
    }

    static func transports(of result: PlatformRegistrationResult) -> [AuthenticatorTransport]? {
        switch result.provider {
        case .securityKey:
            let reported = result.transports.map(AuthenticatorTransport.init(rawValue:))
            return reported.isEmpty ? nil : reported.sorted { $0.rawValue < $1.rawValue }
        case .platform:
            switch result.attachment {
            case .platform?: return [.hybrid, .internal]
            case .crossPlatform?: return [.hybrid]
            case nil: return nil
            }
        }
    }

    private static func prfResults(_ output: PlatformPRFOutput) -> JSONValue {
        var results: [String: JSONValue] = ["first": .string(Base64URL.encode(Array(output.first)))]
        if let second = output.second { results["second"] = .string(Base64URL.encode(Array(second))) }
        return .object(results)
    }
}
