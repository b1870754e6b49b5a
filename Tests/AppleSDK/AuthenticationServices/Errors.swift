import Foundation

/// `let ASAuthorizationErrorDomain: String` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationerrordomain
@available(iOS 13.0, macOS 10.15, *)
public let ASAuthorizationErrorDomain: String = "com.apple.AuthenticationServices.AuthorizationError"

/// `struct ASAuthorizationError` (CustomNSError, Hashable, Error) —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct
///
/// Modelled like the Foundation overlay models every imported NSError domain (`_BridgedStoredNSError`, which
/// swift-corelibs-foundation also has), so `error.code`, `ASAuthorizationError(.canceled)`,
/// `catch ASAuthorizationError.canceled` and `ASAuthorizationError.errorDomain` type-check as on Apple platforms.
@available(iOS 13.0, macOS 10.15, *)
public struct ASAuthorizationError: _BridgedStoredNSError, @unchecked Sendable {
    public let _nsError: NSError

    public init(_nsError: NSError) {
        self._nsError = _nsError
    }

    public static var _nsErrorDomain: String { ASAuthorizationErrorDomain }

    /// `static var errorDomain: String`
    public static var errorDomain: String { ASAuthorizationErrorDomain }

    /// `enum Code` (NS_ERROR_ENUM(ASAuthorizationErrorDomain), NSInteger) —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct/code
    public enum Code: Int, _ErrorCodeProtocol, Sendable {
        public typealias _ErrorType = ASAuthorizationError

        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        @available(iOS 15.0, macOS 12.0, *)
        case notInteractive = 1005
        @available(iOS 18.0, macOS 15.0, *)
        case matchedExcludedCredential = 1006
        @available(iOS 18.2, macOS 15.2, *)
        case credentialImport = 1007
        @available(iOS 18.2, macOS 15.2, *)
        case credentialExport = 1008
        @available(iOS 26.0, macOS 26.0, *)
        case preferSignInWithApple = 1009
        @available(iOS 26.0, macOS 26.0, *)
        case deviceNotConfiguredForPasskeyCreation = 1010
    }

    public static var unknown: Code { .unknown }
    public static var canceled: Code { .canceled }
    public static var invalidResponse: Code { .invalidResponse }
    public static var notHandled: Code { .notHandled }
    public static var failed: Code { .failed }
    @available(iOS 15.0, macOS 12.0, *)
    public static var notInteractive: Code { .notInteractive }
    @available(iOS 18.0, macOS 15.0, *)
    public static var matchedExcludedCredential: Code { .matchedExcludedCredential }
    @available(iOS 18.2, macOS 15.2, *)
    public static var credentialImport: Code { .credentialImport }
    @available(iOS 18.2, macOS 15.2, *)
    public static var credentialExport: Code { .credentialExport }
    @available(iOS 26.0, macOS 26.0, *)
    public static var preferSignInWithApple: Code { .preferSignInWithApple }
    @available(iOS 26.0, macOS 26.0, *)
    public static var deviceNotConfiguredForPasskeyCreation: Code { .deviceNotConfiguredForPasskeyCreation }
}
