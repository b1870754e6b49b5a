import Foundation

// iOS 26 / macOS 26 additions: the WebAuthn Signal API (ASCredentialUpdater) and passkey account creation.
// These are declared in the Swift overlay (`final class`, `@objc class`, Swift enums and structs).

/// `final class ASCredentialUpdater` — not documented as Sendable or as an NSObject subclass, so neither here.
/// https://developer.apple.com/documentation/authenticationservices/ascredentialupdater
@available(iOS 26.0, macOS 26.0, *)
public final class ASCredentialUpdater {
    /// `init()`
    public init() { fatalError("stand-in") }

    /// `final func reportAllAcceptedPublicKeyCredentials(relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]) async throws`
    public func reportAllAcceptedPublicKeyCredentials(
        relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]
    ) async throws { fatalError("stand-in") }

    /// `final func reportPublicKeyCredentialUpdate(relyingPartyIdentifier: String, userHandle: Data, newName: String) async throws`
    public func reportPublicKeyCredentialUpdate(
        relyingPartyIdentifier: String, userHandle: Data, newName: String
    ) async throws { fatalError("stand-in") }

    /// `final func reportUnusedPasswordCredential(domain: String, userName: String) async throws`
    public func reportUnusedPasswordCredential(domain: String, userName: String) async throws { fatalError("stand-in") }

    /// `final func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws`
    public func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws {
        fatalError("stand-in")
    }
}

/// `@objc class ASAuthorizationAccountCreationProvider` (NSObject, ASAuthorizationProvider) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationaccountcreationprovider
@available(iOS 26.0, macOS 26.0, *)
public class ASAuthorizationAccountCreationProvider: NSObject, ASAuthorizationProvider {
    /// `override dynamic init()`
    public override init() { fatalError("stand-in") }

    /// `func createPlatformPublicKeyCredentialRegistrationRequest(acceptedContactIdentifiers: [ASContactIdentifierRequest], shouldRequestName: Bool, relyingPartyIdentifier: String, challenge: Data, userID: Data) -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest`
    public func createPlatformPublicKeyCredentialRegistrationRequest(
        acceptedContactIdentifiers: [ASContactIdentifierRequest], shouldRequestName: Bool,
        relyingPartyIdentifier: String, challenge: Data, userID: Data
    ) -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest { fatalError("stand-in") }
}

/// `@objc class ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest` (ASAuthorizationRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationaccountcreationplatformpublickeycredentialrequest
/// Its documented Codable conformance is not modelled.
@available(iOS 26.0, macOS 26.0, *)
public class ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest: ASAuthorizationRequest {
    /// `let acceptedContactIdentifiers: [ASContactIdentifierRequest]`
    public var acceptedContactIdentifiers: [ASContactIdentifierRequest] { fatalError("stand-in") }
    /// `let challenge: Data`
    public var challenge: Data { fatalError("stand-in") }
    /// `let relyingPartyIdentifier: String`
    public var relyingPartyIdentifier: String { fatalError("stand-in") }
    /// `let shouldRequestName: Bool`
    public var shouldRequestName: Bool { fatalError("stand-in") }
    /// `let userID: Data`
    public var userID: Data { fatalError("stand-in") }
}

/// `@objc class ASAuthorizationAccountCreationPlatformPublicKeyCredential` (NSObject, ASAuthorizationCredential) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationaccountcreationplatformpublickeycredential
@available(iOS 26.0, macOS 26.0, *)
public class ASAuthorizationAccountCreationPlatformPublicKeyCredential: NSObject, ASAuthorizationCredential {
    /// `var contactIdentifier: ASContactIdentifier`
    public var contactIdentifier: ASContactIdentifier { fatalError("stand-in") }
    /// `var credentialRegistration: ASAuthorizationPlatformPublicKeyCredentialRegistration`
    public var credentialRegistration: ASAuthorizationPlatformPublicKeyCredentialRegistration { fatalError("stand-in") }
    /// `var name: PersonNameComponents?`
    public var name: PersonNameComponents? { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `enum ASContactIdentifierRequest` (Equatable, Hashable, Sendable; Codable not modelled) —
/// https://developer.apple.com/documentation/authenticationservices/ascontactidentifierrequest
@available(iOS 26.0, macOS 26.0, *)
public enum ASContactIdentifierRequest: Hashable, Sendable {
    case email
    case phoneNumber
}

/// `enum ASContactIdentifier` (Sendable) —
/// https://developer.apple.com/documentation/authenticationservices/ascontactidentifier
@available(iOS 26.0, macOS 26.0, *)
public enum ASContactIdentifier: Sendable {
    case email(ASEmailIdentifier)
    case phoneNumber(ASPhoneNumberIdentifier)
}

/// `struct ASEmailIdentifier` (Sendable) — https://developer.apple.com/documentation/authenticationservices/asemailidentifier
@available(iOS 26.0, macOS 26.0, *)
public struct ASEmailIdentifier: Sendable {
    /// `var value: String`
    public var value: String { fatalError("stand-in") }
}

/// `struct ASPhoneNumberIdentifier` (Sendable) — https://developer.apple.com/documentation/authenticationservices/asphonenumberidentifier
@available(iOS 26.0, macOS 26.0, *)
public struct ASPhoneNumberIdentifier: Sendable {
    /// `var value: String`
    public var value: String { fatalError("stand-in") }
}
