import Foundation

/// `protocol ASAuthorizationProvider : NSObjectProtocol` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationprovider
@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationProvider: NSObjectProtocol {}

/// `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol` — not Sendable, so
/// `any ASAuthorizationCredential` is not either.
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcredential
@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationCredential: NSObjectProtocol, NSCopying, NSSecureCoding {}

/// `class ASAuthorizationRequest` (NSObject, NSCopying, NSSecureCoding) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationrequest
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationRequest: NSObject, NSCopying, NSSecureCoding {
    /// `var provider: any ASAuthorizationProvider { get }`
    public var provider: any ASAuthorizationProvider { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { fatalError("stand-in") }
    public func encode(with coder: NSCoder) { fatalError("stand-in") }
    public class var supportsSecureCoding: Bool { fatalError("stand-in") }
    public func copy(with zone: NSZone? = nil) -> Any { fatalError("stand-in") }
}

/// `class ASAuthorization` — https://developer.apple.com/documentation/authenticationservices/asauthorization
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorization: NSObject {
    /// `var provider: any ASAuthorizationProvider { get }`
    public var provider: any ASAuthorizationProvider { fatalError("stand-in") }
    /// `var credential: any ASAuthorizationCredential { get }`
    public var credential: any ASAuthorizationCredential { fatalError("stand-in") }

    @available(*, unavailable) public override init() { fatalError("stand-in") }

    /// `struct ASAuthorization.Scope` (NS_TYPED_EXTENSIBLE_ENUM; Equatable, Hashable, RawRepresentable, Sendable) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/scope
    public struct Scope: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let fullName = Scope(rawValue: "full_name")
        public static let email = Scope(rawValue: "email")
    }

    /// `struct ASAuthorization.OpenIDOperation` (NS_TYPED_EXTENSIBLE_ENUM) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/openidoperation
    public struct OpenIDOperation: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let operationImplicit = OpenIDOperation(rawValue: "implicit")
        public static let operationLogin = OpenIDOperation(rawValue: "login")
        public static let operationRefresh = OpenIDOperation(rawValue: "refresh")
        public static let operationLogout = OpenIDOperation(rawValue: "logout")
    }
}

/// `class ASAuthorizationController` — not main-actor isolated (only its delegate protocols are).
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationController: NSObject {
    /// `init(authorizationRequests: [ASAuthorizationRequest])`
    public init(authorizationRequests: [ASAuthorizationRequest]) { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }

    /// `var authorizationRequests: [ASAuthorizationRequest] { get }`
    public var authorizationRequests: [ASAuthorizationRequest] { fatalError("stand-in") }
    /// `weak var delegate: (any ASAuthorizationControllerDelegate)? { get set }`
    public weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// `weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?`
    public weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    /// `func performRequests()`
    public func performRequests() { fatalError("stand-in") }

    /// `func performRequests(options: ASAuthorizationController.RequestOptions)`
    @available(iOS 16.0, macOS 13.0, *)
    public func performRequests(options: ASAuthorizationController.RequestOptions) { fatalError("stand-in") }

    /// `func performAutoFillAssistedRequests()` — iOS only: the header says
    /// `API_AVAILABLE(ios(16.0)) API_UNAVAILABLE(macos, macCatalyst, watchos, tvos)`.
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    public func performAutoFillAssistedRequests() { fatalError("stand-in") }

    /// `func cancel()`
    @available(iOS 16.0, macOS 13.0, *)
    public func cancel() { fatalError("stand-in") }

    /// `struct ASAuthorizationController.RequestOptions` (OptionSet, Sendable) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/requestoptions
    @available(iOS 16.0, macOS 13.0, *)
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// `static var preferImmediatelyAvailableCredentials: ASAuthorizationController.RequestOptions`
        public static var preferImmediatelyAvailableCredentials: RequestOptions { RequestOptions(rawValue: 1 << 0) }
    }
}

/// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate
@available(iOS 13.0, macOS 10.15, *)
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// `optional func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)`
    /// (optional in the SDK; defaulted below)
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// `optional func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)`
    /// (optional in the SDK; defaulted below)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

@available(iOS 13.0, macOS 10.15, *)
@MainActor
extension ASAuthorizationControllerDelegate {
    // Stand-ins for "not implemented": the SDK's requirements are `optional`.
    public func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
@available(iOS 13.0, macOS 10.15, *)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// `func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor` (required)
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
