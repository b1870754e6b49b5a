import Foundation

// The public-key credential protocols and value types shared by passkeys and security keys.
// Properties are `{ get set }` where the header declares `@property (nonatomic, copy)`, `{ get }` where `readonly`.

/// `protocol ASPublicKeyCredential : ASAuthorizationCredential` —
/// https://developer.apple.com/documentation/authenticationservices/aspublickeycredential
@available(iOS 15.0, macOS 12.0, *)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    /// `var credentialID: Data { get }`
    var credentialID: Data { get }
    /// `var rawClientDataJSON: Data { get }`
    var rawClientDataJSON: Data { get }
}

/// `protocol ASAuthorizationPublicKeyCredentialRegistration : ASPublicKeyCredential` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistration
@available(iOS 15.0, macOS 12.0, *)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    /// `var rawAttestationObject: Data? { get }`
    var rawAttestationObject: Data? { get }
}

/// `protocol ASAuthorizationPublicKeyCredentialAssertion : ASPublicKeyCredential` — its three properties are
/// implicitly unwrapped (`Data!`), which does *not* satisfy a `Data` requirement.
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion
@available(iOS 15.0, macOS 12.0, *)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    /// `var rawAuthenticatorData: Data! { get }`
    var rawAuthenticatorData: Data! { get }
    /// `var userID: Data! { get }`
    var userID: Data! { get }
    /// `var signature: Data! { get }`
    var signature: Data! { get }
}

/// `protocol ASAuthorizationPublicKeyCredentialDescriptor : NSObjectProtocol, NSSecureCoding, NSCopying` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialdescriptor
@available(iOS 15.0, macOS 12.0, *)
public protocol ASAuthorizationPublicKeyCredentialDescriptor: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// `var credentialID: Data { get set }`
    var credentialID: Data { get set }
}

/// `protocol ASAuthorizationPublicKeyCredentialRegistrationRequest : NSObjectProtocol, NSSecureCoding, NSCopying` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistrationrequest
@available(iOS 15.0, macOS 12.0, *)
public protocol ASAuthorizationPublicKeyCredentialRegistrationRequest: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// `var relyingPartyIdentifier: String { get }`
    var relyingPartyIdentifier: String { get }
    /// `var userID: Data { get set }`
    var userID: Data { get set }
    /// `var name: String { get set }`
    var name: String { get set }
    /// `var displayName: String? { get set }`
    var displayName: String? { get set }
    /// `var challenge: Data { get set }`
    var challenge: Data { get set }
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }`
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
    /// `var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }`
    var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }
}

/// `protocol ASAuthorizationPublicKeyCredentialAssertionRequest : NSObjectProtocol, NSSecureCoding, NSCopying` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertionrequest
@available(iOS 15.0, macOS 12.0, *)
public protocol ASAuthorizationPublicKeyCredentialAssertionRequest: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// `var challenge: Data { get set }`
    var challenge: Data { get set }
    /// `var relyingPartyIdentifier: String { get set }`
    var relyingPartyIdentifier: String { get set }
    /// `var allowedCredentials: [any ASAuthorizationPublicKeyCredentialDescriptor] { get set }` — the concrete
    /// request classes redeclare it with their own descriptor type (an Objective-C covariant property); Swift
    /// source cannot, so the requirement is satisfied by the default below and the classes' typed property wins
    /// overload resolution on the concrete type, as it does on Apple platforms.
    var allowedCredentials: [any ASAuthorizationPublicKeyCredentialDescriptor] { get set }
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }`
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
}

@available(iOS 15.0, macOS 12.0, *)
extension ASAuthorizationPublicKeyCredentialAssertionRequest {
    public var allowedCredentials: [any ASAuthorizationPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `struct ASAuthorizationPublicKeyCredentialUserVerificationPreference` (NS_TYPED_EXTENSIBLE_ENUM) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, Equatable, RawRepresentable,
    Sendable
{
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
    public static let discouraged = Self(rawValue: "discouraged")
}

/// `struct ASAuthorizationPublicKeyCredentialAttestationKind` (NS_TYPED_EXTENSIBLE_ENUM) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialattestationkind
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialAttestationKind: Hashable, Equatable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let none = Self(rawValue: "none")
    public static let direct = Self(rawValue: "direct")
    public static let indirect = Self(rawValue: "indirect")
    public static let enterprise = Self(rawValue: "enterprise")
}

/// `struct ASAuthorizationPublicKeyCredentialResidentKeyPreference` (NS_TYPED_EXTENSIBLE_ENUM) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialresidentkeypreference
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialResidentKeyPreference: Hashable, Equatable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let discouraged = Self(rawValue: "discouraged")
    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
}

/// `enum ASAuthorizationPublicKeyCredentialAttachment : Int` (NS_ENUM NSInteger) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialattachment
@available(iOS 16.6, macOS 13.5, *)
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, Sendable {
    case platform = 0
    case crossPlatform = 1
}

/// `struct ASCOSEAlgorithmIdentifier` (NS_TYPED_EXTENSIBLE_ENUM over NSInteger; only ES256 is documented) —
/// https://developer.apple.com/documentation/authenticationservices/ascosealgorithmidentifier
@available(iOS 15.0, macOS 12.0, *)
public struct ASCOSEAlgorithmIdentifier: Hashable, Equatable, RawRepresentable, Sendable {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `static let ES256: ASCOSEAlgorithmIdentifier`
    public static let ES256 = ASCOSEAlgorithmIdentifier(rawValue: -7)
}

/// `class ASAuthorizationPublicKeyCredentialParameters` (NSObject, NSSecureCoding, NSCopying) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialparameters
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPublicKeyCredentialParameters: NSObject, NSSecureCoding, NSCopying {
    /// `init(algorithm: ASCOSEAlgorithmIdentifier)`
    public init(algorithm: ASCOSEAlgorithmIdentifier) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    /// `var algorithm: ASCOSEAlgorithmIdentifier { get }`
    public var algorithm: ASCOSEAlgorithmIdentifier { fatalError("stand-in") }

    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}
