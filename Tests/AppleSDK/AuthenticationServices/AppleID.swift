import Foundation

// Sign in with Apple and saved passwords.

/// `class ASAuthorizationAppleIDProvider` (NSObject, ASAuthorizationProvider) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDProvider: NSObject, ASAuthorizationProvider {
    public override init() { fatalError("stand-in") }

    /// `func createRequest() -> ASAuthorizationAppleIDRequest`
    public func createRequest() -> ASAuthorizationAppleIDRequest { fatalError("stand-in") }

    /// `func getCredentialState(forUserID userID: String, completion: @escaping @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void)` —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/getcredentialstate(foruserid:completion:)
    public func getCredentialState(
        forUserID userID: String,
        completion: @escaping @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void
    ) { fatalError("stand-in") }

    /// `func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState`
    /// (the async form Swift imports for the completion handler above, shown on the same page)
    public func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState
    {
        fatalError("stand-in")
    }

    /// `class let credentialRevokedNotification: NSNotification.Name` —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/credentialrevokednotification
    /// (Swift source cannot spell `class let`; a `static let` is the same to callers.)
    public static let credentialRevokedNotification =
        NSNotification.Name("ASAuthorizationAppleIDCredentialRevokedNotification")

    /// `enum CredentialState : Int` (NS_ENUM NSInteger) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/credentialstate
    public enum CredentialState: Int, Sendable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3
    }
}

/// `class ASAuthorizationOpenIDRequest` (ASAuthorizationRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    /// `var requestedScopes: [ASAuthorization.Scope]?`
    public var requestedScopes: [ASAuthorization.Scope]? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var state: String?`
    public var state: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var nonce: String?`
    public var nonce: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `var requestedOperation: ASAuthorization.OpenIDOperation`
    public var requestedOperation: ASAuthorization.OpenIDOperation {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationAppleIDRequest` (ASAuthorizationOpenIDRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidrequest
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {
    /// `var user: String?`
    public var user: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `class ASAuthorizationAppleIDCredential` (NSObject, ASAuthorizationCredential) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    /// `var user: String { get }`
    public var user: String { fatalError("stand-in") }
    /// `var state: String? { get }`
    public var state: String? { fatalError("stand-in") }
    /// `var authorizedScopes: [ASAuthorization.Scope] { get }`
    public var authorizedScopes: [ASAuthorization.Scope] { fatalError("stand-in") }
    /// `var authorizationCode: Data? { get }`
    public var authorizationCode: Data? { fatalError("stand-in") }
    /// `var identityToken: Data? { get }`
    public var identityToken: Data? { fatalError("stand-in") }
    /// `var email: String? { get }`
    public var email: String? { fatalError("stand-in") }
    /// `var fullName: PersonNameComponents? { get }`
    public var fullName: PersonNameComponents? { fatalError("stand-in") }
    /// `var realUserStatus: ASUserDetectionStatus { get }`
    public var realUserStatus: ASUserDetectionStatus { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `enum ASUserDetectionStatus : Int` (NS_ENUM NSInteger) —
/// https://developer.apple.com/documentation/authenticationservices/asuserdetectionstatus
@available(iOS 13.0, macOS 10.15, *)
public enum ASUserDetectionStatus: Int, Sendable {
    case unsupported = 0
    case unknown = 1
    case likelyReal = 2
}

/// `class ASAuthorizationPasswordProvider` (NSObject, ASAuthorizationProvider) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpasswordprovider
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordProvider: NSObject, ASAuthorizationProvider {
    public override init() { fatalError("stand-in") }
    /// `func createRequest() -> ASAuthorizationPasswordRequest`
    public func createRequest() -> ASAuthorizationPasswordRequest { fatalError("stand-in") }
}

/// `class ASAuthorizationPasswordRequest` (ASAuthorizationRequest) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpasswordrequest
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordRequest: ASAuthorizationRequest {}

/// `class ASPasswordCredential` (NSObject, ASAuthorizationCredential) —
/// https://developer.apple.com/documentation/authenticationservices/aspasswordcredential
@available(iOS 12.0, macOS 10.14, *)
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    /// `init(user: String, password: String)`
    public init(user: String, password: String) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    /// `var user: String { get }`
    public var user: String { fatalError("stand-in") }
    /// `var password: String { get }`
    public var password: String { fatalError("stand-in") }

    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}
