// CryptoKit's ML-DSA as the iOS 26 / macOS 26 SDK declares it (developer.apple.com/documentation/cryptokit/mldsa65,
// /mldsa87: every symbol "iOS 26.0+, macOS 26.0+"; Sendable). scripts/apple-sdk-check.sh adds this file to the CryptoKit
// stand-in of its "Xcode 26" configuration (the rest of that stand-in is swift-crypto's own API, which mirrors CryptoKit's),
// and compiles it alone, in Embedded Swift for arm64-apple-ios, where availability is checked against a deployment target.
#if canImport(Foundation)
import Foundation
#else
// Embedded Swift has no Foundation: the two names the declarations below use, as Foundation shapes them.
public protocol DataProtocol: RandomAccessCollection where Element == UInt8 {}
extension Array: DataProtocol where Element == UInt8 {}
public struct Data: DataProtocol {
    public var startIndex: Int { fatalError("stand-in") }
    public var endIndex: Int { fatalError("stand-in") }
    public subscript(position: Int) -> UInt8 { fatalError("stand-in") }
}
#endif

@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, macCatalyst 26, *)
public enum MLDSA65: Sendable {}

@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, macCatalyst 26, *)
extension MLDSA65 {
    public struct PublicKey: Sendable {
        public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("stand-in") }
        public var rawRepresentation: Data { fatalError("stand-in") }
        public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
            fatalError("stand-in")
        }
        public func isValidSignature<S: DataProtocol, D: DataProtocol, C: DataProtocol>(
            _ signature: S, for data: D, context: C
        ) -> Bool { fatalError("stand-in") }
    }

    public struct PrivateKey: Sendable {
        public init() throws { fatalError("stand-in") }
        public init<D: DataProtocol>(seedRepresentation: D, publicKey: MLDSA65.PublicKey?) throws {
            fatalError("stand-in")
        }
        public init<D: DataProtocol>(integrityCheckedRepresentation: D) throws { fatalError("stand-in") }
        public var seedRepresentation: Data { fatalError("stand-in") }
        public var integrityCheckedRepresentation: Data { fatalError("stand-in") }
        public var publicKey: MLDSA65.PublicKey { fatalError("stand-in") }
        public func signature<D: DataProtocol>(for data: D) throws -> Data { fatalError("stand-in") }
        public func signature<D: DataProtocol, C: DataProtocol>(for data: D, context: C) throws -> Data {
            fatalError("stand-in")
        }
    }
}

@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, macCatalyst 26, *)
public enum MLDSA87: Sendable {}

@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, macCatalyst 26, *)
extension MLDSA87 {
    public struct PublicKey: Sendable {
        public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("stand-in") }
        public var rawRepresentation: Data { fatalError("stand-in") }
        public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
            fatalError("stand-in")
        }
        public func isValidSignature<S: DataProtocol, D: DataProtocol, C: DataProtocol>(
            _ signature: S, for data: D, context: C
        ) -> Bool { fatalError("stand-in") }
    }

    public struct PrivateKey: Sendable {
        public init() throws { fatalError("stand-in") }
        public init<D: DataProtocol>(seedRepresentation: D, publicKey: MLDSA87.PublicKey?) throws {
            fatalError("stand-in")
        }
        public init<D: DataProtocol>(integrityCheckedRepresentation: D) throws { fatalError("stand-in") }
        public var seedRepresentation: Data { fatalError("stand-in") }
        public var integrityCheckedRepresentation: Data { fatalError("stand-in") }
        public var publicKey: MLDSA87.PublicKey { fatalError("stand-in") }
        public func signature<D: DataProtocol>(for data: D) throws -> Data { fatalError("stand-in") }
        public func signature<D: DataProtocol, C: DataProtocol>(for data: D, context: C) throws -> Data {
            fatalError("stand-in")
        }
    }
}
