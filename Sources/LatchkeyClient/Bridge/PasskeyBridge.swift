import WebAuthn

/// The passkey calls a hybrid app (a web view, a mini-program) makes through its native side, with JSON
/// strings in and out so any JavaScript bridge can carry them.
///
/// ```swift
/// let bridge = PasskeyBridge(authenticator: authenticator)
/// let reply = await bridge.register(optionsJSON: optionsFromServer)
/// // {"ok":true,"data":{"id":"…","rawId":"…","type":"public-key","response":{…},"transports":["internal"]}}
/// // {"ok":false,"errMsg":"…","code":"excludedCredential"}
/// ```
///
/// The calls never throw: every outcome is an envelope, and failures carry a stable
/// ``AuthenticatorError/Code`` (one of ``AuthenticatorError/Code/all``).
///
/// In a web view, the page's `postMessage({action, options})` is read into a ``BridgeMessage`` (checked
/// against a ``BridgeOriginPolicy``) and answered by ``reply(to:)-(BridgeMessage)``; ``script`` is the
/// page-side shim (`window.latchkeyBridge`), and on Apple platforms `PasskeyBridgeMessageHandler` wires
/// both into a `WKUserContentController`.
public struct PasskeyBridge: Sendable {
    /// The authenticator that makes and uses the passkeys.
    public let authenticator: any Authenticator

    /// A bridge to `authenticator`.
    public init(authenticator: any Authenticator) {
        self.authenticator = authenticator
    }

    /// Creates a passkey for the server's creation options JSON and returns the envelope.
    public func register(optionsJSON: String) async -> String {
        do throws(AuthenticatorError) {
            let options = try BridgeOptions.decode(optionsJSON, as: PublicKeyCredentialCreationOptions.self)
            let credential = try await authenticator.register(options: options)
            return BridgeEnvelope.success(credential, transports: credential.response.transports)
        } catch {
            return BridgeEnvelope.failure(error)
        }
    }

    /// Signs in with a passkey for the server's request options JSON and returns the envelope.
    public func authenticate(optionsJSON: String) async -> String {
        do throws(AuthenticatorError) {
            let options = try BridgeOptions.decode(optionsJSON, as: PublicKeyCredentialRequestOptions.self)
            let credential = try await authenticator.authenticate(options: options)
            return BridgeEnvelope.success(credential, transports: nil)
        } catch {
            return BridgeEnvelope.failure(error)
        }
    }

    /// The envelope answering `message`.
    public func reply(to message: BridgeMessage) async -> String {
        switch message.action {
        case .register: await register(optionsJSON: message.optionsJSON)
        case .authenticate: await authenticate(optionsJSON: message.optionsJSON)
        }
    }

    /// The envelope answering what ``BridgeMessage/receive(body:from:policy:)`` made of a message: the
    /// failure envelope when it was refused or could not be read.
    public func reply(to received: Result<BridgeMessage, AuthenticatorError>) async -> String {
        switch received {
        case .success(let message): await reply(to: message)
        case .failure(let error): BridgeEnvelope.failure(error)
        }
    }
}
