import Foundation

// Passkeys: the platform (iCloud Keychain) public-key credential provider, its requests and its results.

/// `class ASAuthorizationPlatformPublicKeyCredentialProvider` (NSObject, ASAuthorizationProvider) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    /// `init(relyingPartyIdentifier: String)`
    public init(relyingPartyIdentifier: String) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }

    /// `var relyingPartyIdentifier: String { get }`
    public var relyingPartyIdentifier: String { fatalError("stand-in") }

    /// `func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { fatalError("stand-in") }

    /// `func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data, requestStyle: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`
    @available(iOS 18.0, macOS 15.0, *)
    public func createCredentialRegistrationRequest(
        challenge: Data, name: String, userID: Data,
        requestStyle: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest { fatalError("stand-in") }

    /// `func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`
    public func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { fatalError("stand-in") }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` (ASAuthorizationRequest,
/// ASAuthorizationPublicKeyCredentialRegistrationRequest; ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest
/// from iOS 17.4 / macOS 13.5, which is where `excludedCredentials` comes from) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistrationrequest
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialRegistrationRequest
{
    public var relyingPartyIdentifier: String { fatalError("stand-in") }
    public var userID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var name: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var displayName: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput?` (Swift-refined struct)
    @available(iOS 17.0, macOS 14.0, *)
    public var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var prf: ASAuthorizationPublicKeyCredentialPRFRegistrationInput?` (Swift-refined struct)
    @available(iOS 18.0, macOS 15.0, *)
    public var prf: ASAuthorizationPublicKeyCredentialPRFRegistrationInput? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var requestStyle: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle`
    @available(iOS 18.0, macOS 15.0, *)
    public var requestStyle: RequestStyle {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `enum RequestStyle : Int` (NS_ENUM NSInteger) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistrationrequest/requeststyle-swift.enum
    @available(iOS 18.0, macOS 15.0, *)
    public enum RequestStyle: Int, Sendable {
        case standard = 0
        case conditional = 1
    }
}

/// `protocol ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest` (iOS 17.4, macOS 13.5) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationwebbrowserplatformpublickeycredentialregistrationrequest
/// `clientData` (NS_REFINED_FOR_SWIFT, ASPublicKeyCredentialClientData) is not modelled.
@available(iOS 17.4, macOS 13.5, *)
public protocol ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest: AnyObject {
    /// `var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? { get set }`
    var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? { get set }
    /// `var shouldShowHybridTransport: Bool { get set }` — macOS 13.5 only (`API_UNAVAILABLE(ios, tvos, watchos)`).
    @available(iOS, unavailable)
    @available(macOS 13.5, *)
    var shouldShowHybridTransport: Bool { get set }
}

@available(iOS 17.4, macOS 13.5, *)
extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest:
    ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest
{
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    @available(iOS, unavailable)
    @available(macOS 13.5, *)
    public var shouldShowHybridTransport: Bool {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest` (ASAuthorizationRequest,
/// ASAuthorizationPublicKeyCredentialAssertionRequest; ASAuthorizationWebBrowserPlatformPublicKeyCredentialAssertionRequest
/// from iOS 17.4 / macOS 13.5) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertionrequest
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialAssertionRequest
{
    public var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var relyingPartyIdentifier: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]`
    public var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput?` (Swift-refined struct)
    @available(iOS 17.0, macOS 14.0, *)
    public var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `var prf: ASAuthorizationPublicKeyCredentialPRFAssertionInput?` (Swift-refined struct; the Objective-C
    /// class is `__ASAuthorizationPublicKeyCredentialPRFAssertionInput`, not modelled)
    @available(iOS 18.0, macOS 15.0, *)
    public var prf: ASAuthorizationPublicKeyCredentialPRFAssertionInput? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `protocol ASAuthorizationWebBrowserPlatformPublicKeyCredentialAssertionRequest` (iOS 17.4, macOS 13.5) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationwebbrowserplatformpublickeycredentialassertionrequest
/// `clientData` (NS_REFINED_FOR_SWIFT) is not modelled.
@available(iOS 17.4, macOS 13.5, *)
public protocol ASAuthorizationWebBrowserPlatformPublicKeyCredentialAssertionRequest: AnyObject {
    /// `var shouldShowHybridTransport: Bool { get set }`
    var shouldShowHybridTransport: Bool { get set }
}

@available(iOS 17.4, macOS 13.5, *)
extension ASAuthorizationPlatformPublicKeyCredentialAssertionRequest:
    ASAuthorizationWebBrowserPlatformPublicKeyCredentialAssertionRequest
{
    public var shouldShowHybridTransport: Bool {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialRegistration` (NSObject,
/// ASAuthorizationPublicKeyCredentialRegistration) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistration
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    public var credentialID: Data { fatalError("stand-in") }
    public var rawClientDataJSON: Data { fatalError("stand-in") }
    public var rawAttestationObject: Data? { fatalError("stand-in") }

    /// `var attachment: ASAuthorizationPublicKeyCredentialAttachment { get }`
    @available(iOS 16.6, macOS 13.5, *)
    public var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }
    /// `var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput? { get }`
    @available(iOS 17.0, macOS 14.0, *)
    public var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput? { fatalError("stand-in") }
    /// `var prf: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput? { get }`
    @available(iOS 18.0, macOS 15.0, *)
    public var prf: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput? { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialAssertion` (NSObject,
/// ASAuthorizationPublicKeyCredentialAssertion) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertion
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    public var credentialID: Data { fatalError("stand-in") }
    public var rawClientDataJSON: Data { fatalError("stand-in") }
    public var rawAuthenticatorData: Data! { fatalError("stand-in") }
    public var userID: Data! { fatalError("stand-in") }
    public var signature: Data! { fatalError("stand-in") }

    /// `var attachment: ASAuthorizationPublicKeyCredentialAttachment { get }`
    @available(iOS 16.6, macOS 13.5, *)
    public var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }
    /// `var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput? { get }`
    @available(iOS 17.0, macOS 14.0, *)
    public var largeBlob: ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput? { fatalError("stand-in") }
    /// `var prf: ASAuthorizationPublicKeyCredentialPRFAssertionOutput? { get }`
    @available(iOS 18.0, macOS 15.0, *)
    public var prf: ASAuthorizationPublicKeyCredentialPRFAssertionOutput? { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialDescriptor` (NSObject,
/// ASAuthorizationPublicKeyCredentialDescriptor) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialdescriptor
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor
{
    /// `init(credentialID: Data)`
    public init(credentialID: Data) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public var credentialID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}
