// The PRF types use CryptoKit's `SymmetricKey`: the check's CryptoKit stand-in, built from swift-crypto's own API.
import CryptoKit
import Foundation

// WebAuthn extensions as the Swift overlay refines them (NS_REFINED_FOR_SWIFT: the Objective-C classes are hidden
// and these Swift structs are what the request and result properties traffic in). None of them is documented as
// Sendable, Equatable or Hashable, so none is declared so here.

// MARK: - largeBlob (iOS 17, macOS 14)

/// `struct ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentiallargeblobregistrationinput-swift.struct
@available(iOS 17.0, macOS 14.0, *)
public struct ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput {
    /// `var supportRequirement: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput.SupportRequirement`
    public var supportRequirement: SupportRequirement {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `static var supportPreferred: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput`
    public static var supportPreferred: Self { fatalError("stand-in") }
    /// `static var supportRequired: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationInput`
    public static var supportRequired: Self { fatalError("stand-in") }

    /// `enum SupportRequirement` (cases `required`, `preferred`)
    public enum SupportRequirement {
        case required
        case preferred
    }
}

/// `struct ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentiallargeblobregistrationoutput-swift.struct
@available(iOS 17.0, macOS 14.0, *)
public struct ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput {
    /// `var isSupported: Bool`
    public var isSupported: Bool {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `static var supported: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput`
    public static var supported: Self { fatalError("stand-in") }
    /// `static var unsupported: ASAuthorizationPublicKeyCredentialLargeBlobRegistrationOutput`
    public static var unsupported: Self { fatalError("stand-in") }
}

/// `struct ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentiallargeblobassertioninput-swift.struct
@available(iOS 17.0, macOS 14.0, *)
public struct ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput {
    /// `var operation: ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput.Operation`
    public var operation: Operation {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `static var read: ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput { get }`
    public static var read: Self { fatalError("stand-in") }
    /// `static func write(Data) -> ASAuthorizationPublicKeyCredentialLargeBlobAssertionInput`
    public static func write(_ data: Data) -> Self { fatalError("stand-in") }

    /// `enum Operation` (cases `read`, `write(Data)`)
    public enum Operation {
        case read
        case write(Data)
    }
}

/// `struct ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentiallargeblobassertionoutput-swift.struct
@available(iOS 17.0, macOS 14.0, *)
public struct ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput {
    /// `var result: ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput.OperationResult`
    public var result: OperationResult {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    /// `static func read(data: Data?) -> ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput`
    public static func read(data: Data?) -> Self { fatalError("stand-in") }
    /// `static func write(success: Bool) -> ASAuthorizationPublicKeyCredentialLargeBlobAssertionOutput`
    public static func write(success: Bool) -> Self { fatalError("stand-in") }

    /// `enum OperationResult` (cases `read(data: Data?)`, `write(success: Bool)`)
    public enum OperationResult {
        case read(data: Data?)
        case write(success: Bool)
    }
}

// MARK: - prf (iOS 18, macOS 15)

/// `struct ASAuthorizationPublicKeyCredentialPRFAssertionInput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialprfassertioninput-swift.struct
@available(iOS 18.0, macOS 15.0, *)
public struct ASAuthorizationPublicKeyCredentialPRFAssertionInput {
    /// `let inputValues: ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues?`
    public var inputValues: InputValues? { fatalError("stand-in") }
    /// `let perCredentialInputValues: [Data : ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues]?`
    public var perCredentialInputValues: [Data: InputValues]? { fatalError("stand-in") }

    /// `static func inputValues(_ inputValues: InputValues, perCredentialInputValues: [Data : InputValues]? = nil) -> ASAuthorizationPublicKeyCredentialPRFAssertionInput`
    public static func inputValues(_ inputValues: InputValues, perCredentialInputValues: [Data: InputValues]? = nil)
        -> ASAuthorizationPublicKeyCredentialPRFAssertionInput
    { fatalError("stand-in") }
    /// `static func perCredentialInputValues(_ perCredentialInputValues: [Data : InputValues]) -> ASAuthorizationPublicKeyCredentialPRFAssertionInput`
    public static func perCredentialInputValues(_ perCredentialInputValues: [Data: InputValues])
        -> ASAuthorizationPublicKeyCredentialPRFAssertionInput
    { fatalError("stand-in") }

    /// `struct InputValues` —
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialprfassertioninput-swift.struct/inputvalues-swift.struct
    public struct InputValues {
        /// `init(saltInput1: Data, saltInput2: Data? = nil)`
        public init(saltInput1: Data, saltInput2: Data? = nil) { fatalError("stand-in") }
        /// `var saltInput1: Data`
        public var saltInput1: Data {
            get { fatalError("stand-in") }
            set { fatalError("stand-in") }
        }
        /// `var saltInput2: Data?`
        public var saltInput2: Data? {
            get { fatalError("stand-in") }
            set { fatalError("stand-in") }
        }
        /// `static func saltInput1(_ saltInput1: Data, saltInput2: Data? = nil) -> ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues`
        public static func saltInput1(_ saltInput1: Data, saltInput2: Data? = nil) -> InputValues {
            fatalError("stand-in")
        }
    }
}

/// `struct ASAuthorizationPublicKeyCredentialPRFAssertionOutput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialprfassertionoutput-swift.struct
@available(iOS 18.0, macOS 15.0, *)
public struct ASAuthorizationPublicKeyCredentialPRFAssertionOutput {
    /// `init(first: SymmetricKey, second: SymmetricKey?)`
    public init(first: SymmetricKey, second: SymmetricKey?) { fatalError("stand-in") }
    /// `let first: SymmetricKey`
    public var first: SymmetricKey { fatalError("stand-in") }
    /// `let second: SymmetricKey?`
    public var second: SymmetricKey? { fatalError("stand-in") }
}

/// `struct ASAuthorizationPublicKeyCredentialPRFRegistrationInput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialprfregistrationinput-swift.struct
@available(iOS 18.0, macOS 15.0, *)
public struct ASAuthorizationPublicKeyCredentialPRFRegistrationInput {
    /// `typealias InputValues = ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues`
    public typealias InputValues = ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues

    /// `let inputValues: ASAuthorizationPublicKeyCredentialPRFRegistrationInput.InputValues?`
    public var inputValues: InputValues? { fatalError("stand-in") }
    /// `let shouldCheckForSupport: Bool`
    public var shouldCheckForSupport: Bool { fatalError("stand-in") }

    /// `static func inputValues(ASAuthorizationPublicKeyCredentialPRFRegistrationInput.InputValues) -> ASAuthorizationPublicKeyCredentialPRFRegistrationInput`
    public static func inputValues(_ inputValues: InputValues) -> ASAuthorizationPublicKeyCredentialPRFRegistrationInput
    {
        fatalError("stand-in")
    }
    /// `static var checkForSupport: ASAuthorizationPublicKeyCredentialPRFRegistrationInput`
    public static var checkForSupport: ASAuthorizationPublicKeyCredentialPRFRegistrationInput { fatalError("stand-in") }
}

/// `struct ASAuthorizationPublicKeyCredentialPRFRegistrationOutput` —
/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialprfregistrationoutput-swift.struct
@available(iOS 18.0, macOS 15.0, *)
public struct ASAuthorizationPublicKeyCredentialPRFRegistrationOutput {
    /// `init(first: SymmetricKey, second: SymmetricKey?)`
    public init(first: SymmetricKey, second: SymmetricKey?) { fatalError("stand-in") }
    /// `let isSupported: Bool`
    public var isSupported: Bool { fatalError("stand-in") }
    /// `let first: SymmetricKey?`
    public var first: SymmetricKey? { fatalError("stand-in") }
    /// `let second: SymmetricKey?`
    public var second: SymmetricKey? { fatalError("stand-in") }
    /// `static var supported: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput`
    public static var supported: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput { fatalError("stand-in") }
    /// `static var unsupported: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput`
    public static var unsupported: ASAuthorizationPublicKeyCredentialPRFRegistrationOutput { fatalError("stand-in") }
}
