import Foundation

/// One request from a hybrid app's page, read from what its message channel delivers:
///
/// ```js
/// window.webkit.messageHandlers.latchkey.postMessage({action: "register", options: optionsJSONOrObject})
/// ```
///
/// WebKit hands the native side `WKScriptMessage.body` as `Any` (NSDictionary, NSString, NSNumber, NSArray,
/// NSNull); ``init(body:)`` reads that once, on the thread it arrives on, into this `Sendable` value.
public struct BridgeMessage: Sendable, Hashable {
    /// What the page asks for.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// `navigator.credentials.create()`: ``PasskeyBridge/register(optionsJSON:)``.
        case register
        /// `navigator.credentials.get()`: ``PasskeyBridge/authenticate(optionsJSON:)``.
        case authenticate
    }

    /// What the page asks for: a registration or an assertion.
    public var action: Action
    /// The relying party's options as JSON text (an options object the page sent is serialised again).
    public var optionsJSON: String

    /// A message as given.
    public init(action: Action, optionsJSON: String) {
        self.action = action
        self.optionsJSON = optionsJSON
    }

    /// Reads a message body: an object with a string `action` naming an ``Action`` and `options` that are
    /// either JSON text or a JSON object.
    /// - Throws: ``AuthenticatorError`` `invalidOptions` for anything else.
    public init(body: Any) throws(AuthenticatorError) {
        guard let object = body as? [String: Any] else {
            throw AuthenticatorError(.invalidOptions, "the message is not an object {action, options}")
        }
        guard let name = object["action"] as? String else {
            throw AuthenticatorError(.invalidOptions, "the message has no action (\"register\" or \"authenticate\")")
        }
        guard let action = Action(rawValue: name) else {
            throw AuthenticatorError(.invalidOptions, "unknown action \"\(name)\" (\"register\" or \"authenticate\")")
        }
        guard let options = object["options"], !(options is NSNull) else {
            throw AuthenticatorError(.invalidOptions, "the message has no options")
        }
        self.init(action: action, optionsJSON: try Self.json(options))
    }

    /// The options as JSON text: a string as it is, an object serialised.
    private static func json(_ options: Any) throws(AuthenticatorError) -> String {
        if let text = options as? String { return text }
        guard options is [String: Any], JSONSerialization.isValidJSONObject(options),
            let data = try? JSONSerialization.data(
                withJSONObject: options, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            throw AuthenticatorError(.invalidOptions, "the options are neither JSON text nor a JSON object")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The one way a channel turns what arrived into a message: the frame is checked against `policy` first
    /// (a refused frame gets `notAllowed` whatever it sent), then the body is read.
    public static func receive(body: Any, from frame: BridgeFrame, policy: BridgeOriginPolicy) -> Result<
        BridgeMessage, AuthenticatorError
    > {
        do throws(AuthenticatorError) {
            try policy.check(frame)
            return .success(try BridgeMessage(body: body))
        } catch {
            return .failure(error)
        }
    }
}
