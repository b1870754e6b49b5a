import Foundation

// Security keys: the cross-platform (USB / NFC / Bluetooth) public-key credential provider, requests and results.
// None of these exist on tvOS or watchOS.

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialProvider` (NSObject, ASAuthorizationProvider) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialprovider
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    /// `init(relyingPartyIdentifier: String)`
    public init(relyingPartyIdentifier: String) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }

    /// `var relyingPartyIdentifier: String { get }`
    public var relyingPartyIdentifier: String { fatalError("stand-in") }

    /// `func createCredentialRegistrationRequest(challenge: Data, displayName: String, name: String, userID: Data) -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest`
    public func createCredentialRegistrationRequest(challenge: Data, displayName: String, name: String, userID: Data)
        -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest
    { fatalError("stand-in") }

    /// `func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest`
    public func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest
    { fatalError("stand-in") }
}

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest` (ASAuthorizationRequest,
/// ASAuthorizationPublicKeyCredentialRegistrationRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialregistrationrequest
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
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

    /// `var credentialParameters: [ASAuthorizationPublicKeyCredentialParameters]`
    public var credentialParameters: [ASAuthorizationPublicKeyCredentialParameters] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var excludedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor]`
    public var excludedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var residentKeyPreference: ASAuthorizationPublicKeyCredentialResidentKeyPreference`
    public var residentKeyPreference: ASAuthorizationPublicKeyCredentialResidentKeyPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest` (ASAuthorizationRequest,
/// ASAuthorizationPublicKeyCredentialAssertionRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialassertionrequest
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
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

    /// `var allowedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor]`
    public var allowedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var appID: String?` (the header's availability for it was not found; the class's is used)
    public var appID: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialRegistration` (NSObject,
/// ASAuthorizationPublicKeyCredentialRegistration) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialregistration
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    public var credentialID: Data { fatalError("stand-in") }
    public var rawClientDataJSON: Data { fatalError("stand-in") }
    public var rawAttestationObject: Data? { fatalError("stand-in") }

    /// `var transports: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport] { get }`
    @available(iOS 17.5, macOS 14.5, *)
    public var transports: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport] {
        fatalError("stand-in")
    }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialAssertion` (NSObject,
/// ASAuthorizationPublicKeyCredentialAssertion) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialassertion
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion
{
    public var credentialID: Data { fatalError("stand-in") }
    public var rawClientDataJSON: Data { fatalError("stand-in") }
    public var rawAuthenticatorData: Data! { fatalError("stand-in") }
    public var userID: Data! { fatalError("stand-in") }
    public var signature: Data! { fatalError("stand-in") }

    /// `var appID: Bool { get }`
    @available(iOS 17.5, macOS 14.5, *)
    public var appID: Bool { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `class ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor` (NSObject,
/// ASAuthorizationPublicKeyCredentialDescriptor) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialdescriptor
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor: NSObject,
    ASAuthorizationPublicKeyCredentialDescriptor
{
    /// `init(credentialID: Data, transports: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport])`
    public init(credentialID: Data, transports: [Transport]) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }

    public var credentialID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var transports: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport]`
    public var transports: [Transport] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }

    /// `struct Transport` (NS_TYPED_EXTENSIBLE_ENUM) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationsecuritykeypublickeycredentialdescriptor/transport
    public struct Transport: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let usb = Transport(rawValue: "usb")
        public static let nfc = Transport(rawValue: "nfc")
        public static let bluetooth = Transport(rawValue: "ble")

        /// `static var allSupported: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport] { get }`
        public static var allSupported: [Transport] { fatalError("stand-in") }
    }
}
