import Foundation
import WebAuthn

/// The WebAuthn extension inputs that AuthenticationServices can carry, read from the server's options:
/// `largeBlob` (iOS 17 / macOS 14), `prf` (iOS 18 / macOS 15) and, for security keys, the FIDO U2F `appid`
/// (iOS 17.4 / macOS 14.4).
///
/// Inputs are read strictly: a malformed input fails the request with ``AuthenticatorError/Code/invalidOptions``
/// rather than being dropped, because a relying party that asked for an extension expects an answer to it.
/// Extensions AuthenticationServices has no API for are ignored, as a browser ignores extensions it does not know.
public enum PlatformExtensionInputs {
    /// `largeBlob.support` at registration: whether the passkey must be able to hold a large blob.
    public enum LargeBlobSupport: String, Sendable, Hashable {
        /// `required` fails the registration without large-blob support; `preferred` does not.
        case required, preferred
    }

    /// `largeBlob` at sign-in: read the blob, or replace it.
    public enum LargeBlobOperation: Sendable, Hashable {
        /// Read the credential's large blob.
        case read
        /// Write these bytes as the credential's large blob.
        case write(Data)
    }

    /// The one or two PRF salts (`prf.eval` or one entry of `prf.evalByCredential`).
    public struct PRFValues: Sendable, Hashable {
        /// The first PRF salt.
        public var first: Data
        /// An optional second PRF salt.
        public var second: Data?

        /// Salts as given.
        public init(first: Data, second: Data? = nil) {
            self.first = first
            self.second = second
        }
    }

    /// `prf` at registration: only ask whether PRF is supported, or evaluate it on the new credential.
    public enum PRFRegistration: Sendable, Hashable {
        /// Only ask whether the new credential supports PRF.
        case checkForSupport
        /// Evaluate PRF with these salts at registration.
        case evaluate(PRFValues)
    }

    /// `prf` at sign-in: salts for any credential and per credential ID.
    public struct PRFAssertion: Sendable, Hashable {
        /// The salts for any credential.
        public var values: PRFValues?
        /// Salts per credential ID, taking precedence over `values`.
        public var valuesByCredential: [Data: PRFValues]

        /// Inputs as given.
        public init(values: PRFValues?, valuesByCredential: [Data: PRFValues] = [:]) {
            self.values = values
            self.valuesByCredential = valuesByCredential
        }
    }

    static func largeBlobSupport(_ extensions: [String: JSONValue]?) throws(AuthenticatorError) -> LargeBlobSupport? {
        guard let input = extensions?["largeBlob"] else { return nil }
        guard case .object(let members) = input else { throw invalid("largeBlob must be an object") }
        guard let support = members["support"] else { return .preferred }
        guard case .string(let text) = support, let value = LargeBlobSupport(rawValue: text) else {
            throw invalid("largeBlob.support must be \"required\" or \"preferred\"")
        }
        return value
    }

    static func largeBlobOperation(_ extensions: [String: JSONValue]?) throws(AuthenticatorError) -> LargeBlobOperation?
    {
        guard let input = extensions?["largeBlob"] else { return nil }
        guard case .object(let members) = input else { throw invalid("largeBlob must be an object") }
        switch (members["read"], members["write"]) {
        case (.bool(true)?, nil): return .read
        case (nil, .some(let blob)), (.bool(false)?, .some(let blob)):
            return .write(try bytes(blob, at: "largeBlob.write"))
        case (.bool(false)?, nil): return nil
        default: throw invalid("largeBlob needs exactly one of read: true or write")
        }
    }

    static func prfRegistration(_ extensions: [String: JSONValue]?) throws(AuthenticatorError) -> PRFRegistration? {
        guard let input = extensions?["prf"] else { return nil }
        guard case .object(let members) = input else { throw invalid("prf must be an object") }
        guard let eval = members["eval"] else { return .checkForSupport }
        return .evaluate(try values(eval, at: "prf.eval"))
    }

    static func prfAssertion(_ extensions: [String: JSONValue]?) throws(AuthenticatorError) -> PRFAssertion? {
        guard let input = extensions?["prf"] else { return nil }
        guard case .object(let members) = input else { throw invalid("prf must be an object") }
        let values = try members["eval"].map { value throws(AuthenticatorError) in
            try Self.values(value, at: "prf.eval")
        }
        var byCredential: [Data: PRFValues] = [:]
        if let perCredential = members["evalByCredential"] {
            guard case .object(let entries) = perCredential else {
                throw invalid("prf.evalByCredential must be an object")
            }
            for (key, value) in entries {
                guard let id = Base64URL.decode(key), !id.isEmpty else {
                    throw invalid("prf.evalByCredential has a key that is not a base64url credential ID")
                }
                byCredential[Data(id)] = try Self.values(value, at: "prf.evalByCredential")
            }
        }
        guard values != nil || !byCredential.isEmpty else {
            throw invalid("prf at sign-in needs eval or evalByCredential")
        }
        return PRFAssertion(values: values, valuesByCredential: byCredential)
    }

    /// The FIDO AppID (`appid`) a credential registered through the U2F API was made under.
    static func appID(_ extensions: [String: JSONValue]?) throws(AuthenticatorError) -> String? {
        guard let input = extensions?["appid"] else { return nil }
        guard case .string(let appID) = input, !appID.isEmpty else { throw invalid("appid must be a non-empty string") }
        return appID
    }

    private static func values(_ value: JSONValue, at path: String) throws(AuthenticatorError) -> PRFValues {
        guard case .object(let members) = value, let first = members["first"] else {
            throw invalid("\(path) must be an object with first (and optionally second)")
        }
        let second = try members["second"].map { value throws(AuthenticatorError) in
            try bytes(value, at: "\(path).second")
        }
        return PRFValues(first: try bytes(first, at: "\(path).first"), second: second)
    }

    private static func bytes(_ value: JSONValue, at path: String) throws(AuthenticatorError) -> Data {
        guard case .string(let text) = value, let bytes = Base64URL.decode(text) else {
            throw invalid("\(path) must be base64url")
        }
        return Data(bytes)
    }

    private static func invalid(_ message: String) -> AuthenticatorError {
        AuthenticatorError(.invalidOptions, "extensions: \(message)")
    }
}
