import Foundation
import LatchkeyClient
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// Reading `WKScriptMessage.body` into a ``BridgeMessage``, the origin rule, and ``PasskeyBridge/reply(to:)``.
@Suite("PasskeyBridge messages")
struct BridgeMessageTests {
    static let origin = "https://example.com"
    static let page = BridgeFrame(isMainFrame: true, scheme: "https", host: "example.com")
    static let policy = BridgeOriginPolicy(allowedHosts: ["example.com"])

    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: [Self.origin])

    func bridge() -> PasskeyBridge {
        let authenticator = VirtualAuthenticator(configuration: .passkeyProvider, store: InMemoryCredentialStore())
        return PasskeyBridge(authenticator: VirtualAuthenticatorAdapter(authenticator, origin: Self.origin))
    }

    func creationJSON() throws -> String {
        let options = relyingParty.beginRegistration(
            user: UserEntity(id: [1, 2, 3], name: "alice", displayName: "Alice"))
        return String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
    }

    /// The invalidOptions message `body` is refused with.
    func refusal(_ body: Any) -> String? {
        do {
            _ = try BridgeMessage(body: body)
            return nil
        } catch {
            return error.code == .invalidOptions ? error.message : "code \(error.code)"
        }
    }

    // MARK: Reading the body

    @Test("a body that is not an object is invalidOptions")
    func notAnObject() {
        let bodies: [Any] = [
            "register", NSString(string: #"{"action":"register","options":"{}"}"#), NSNumber(value: 1),
            NSNumber(value: true),
            NSNull(), NSArray(array: ["register", "{}"]),
        ]
        for body in bodies {
            #expect(refusal(body)?.contains("not an object") == true, "\(body)")
        }
    }

    @Test("a missing, non-string or unknown action is invalidOptions")
    func badAction() {
        #expect(refusal(["options": "{}"])?.contains("no action") == true)
        #expect(refusal(["action": NSNumber(value: 1), "options": "{}"])?.contains("no action") == true)
        #expect(refusal(["action": NSNull(), "options": "{}"])?.contains("no action") == true)
        #expect(refusal(["action": "delete", "options": "{}"])?.contains(#"unknown action "delete""#) == true)
        #expect(
            refusal(["action": "Register", "options": "{}"])?.contains("unknown action") == true,
            "actions are case-sensitive")
    }

    @Test("missing or null options are invalidOptions")
    func missingOptions() {
        #expect(refusal(["action": "register"])?.contains("no options") == true)
        #expect(refusal(["action": "authenticate", "options": NSNull()])?.contains("no options") == true)
    }

    @Test("options that are neither JSON text nor an object are invalidOptions")
    func badOptions() {
        for options: Any in [
            NSNumber(value: 3), NSNumber(value: false), NSArray(array: [NSNumber(value: 1)]), ["challenge": Double.nan],
        ] {
            #expect(
                refusal(["action": "register", "options": options])?.contains("neither JSON text nor a JSON object")
                    == true, "\(options)")
        }
    }

    @Test("options text is kept as it is, even when it is not JSON (the bridge then says invalidOptions)")
    func optionsText() throws {
        let message = try BridgeMessage(body: ["action": "authenticate", "options": "not json"] as [String: Any])
        #expect(message == BridgeMessage(action: .authenticate, optionsJSON: "not json"))
    }

    @Test("an options object, as WebKit delivers it (NSDictionary, NSArray, NSNumber, NSNull), is serialised again")
    func optionsObject() throws {
        let options = NSDictionary(dictionary: [
            "challenge": NSString(string: "AAAA"),
            "rpId": NSString(string: "example.com"),
            "timeout": NSNumber(value: 60000),
            "allowCredentials": NSArray(array: [NSDictionary(dictionary: ["type": "public-key", "id": "AQID"])]),
            "hints": NSArray(array: []),
            "extensions": NSNull(),
        ])
        let body = NSDictionary(dictionary: [
            "action": NSString(string: "authenticate"), "options": options, "extra": NSNumber(value: 1),
        ])
        let message = try BridgeMessage(body: body)
        #expect(message.action == .authenticate)
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(message.optionsJSON.utf8)) as? NSDictionary)
        #expect(decoded == options)
    }

    @Test("both actions are read")
    func actions() throws {
        for action in BridgeMessage.Action.allCases {
            #expect(
                try BridgeMessage(body: ["action": action.rawValue, "options": "{}"] as [String: Any]).action == action)
        }
    }

    // MARK: The origin rule

    func allows(_ frame: BridgeFrame, _ policy: BridgeOriginPolicy = Self.policy) -> Bool {
        (try? policy.check(frame)) != nil
    }

    @Test("https pages on an allowed host or its subdomains are answered, on any port, whatever the case")
    func allowedOrigins() {
        #expect(allows(Self.page))
        #expect(allows(BridgeFrame(isMainFrame: true, scheme: "https", host: "login.example.com")))
        #expect(allows(BridgeFrame(isMainFrame: true, scheme: "https", host: "a.b.example.com", port: 8443)))
        #expect(allows(BridgeFrame(isMainFrame: true, scheme: "HTTPS", host: "Login.Example.COM")))
        #expect(
            allows(BridgeFrame(isMainFrame: true, scheme: "https", host: "example.com.")), "the fully qualified name")
        #expect(allows(Self.page, BridgeOriginPolicy(allowedHosts: ["other.org", "EXAMPLE.com"])))
    }

    @Test("other hosts are refused, including look-alikes that only end with the allowed host")
    func foreignHosts() {
        for host in ["evil.com", "evilexample.com", "example.com.evil.com", "example.co", "com", ""] {
            #expect(!allows(BridgeFrame(isMainFrame: true, scheme: "https", host: host)), "\(host)")
        }
        #expect(!allows(Self.page, BridgeOriginPolicy(allowedHosts: [])))
        #expect(!allows(Self.page, BridgeOriginPolicy(allowedHosts: [""])))
    }

    @Test("http is answered only on localhost; other schemes never")
    func schemes() {
        #expect(!allows(BridgeFrame(isMainFrame: true, scheme: "http", host: "example.com")))
        #expect(!allows(BridgeFrame(isMainFrame: true, scheme: "http", host: "login.example.com")))
        for scheme in ["file", "about", "data", "app", "ws", "wss", ""] {
            #expect(!allows(BridgeFrame(isMainFrame: true, scheme: scheme, host: "example.com")), "\(scheme)")
        }
        let local = BridgeOriginPolicy(allowedHosts: ["localhost", "127.0.0.1", "::1"])
        for host in ["localhost", "app.localhost", "127.0.0.1", "::1"] {
            #expect(allows(BridgeFrame(isMainFrame: true, scheme: "http", host: host, port: 8080), local), "\(host)")
        }
        #expect(
            !allows(BridgeFrame(isMainFrame: true, scheme: "http", host: "localhost"), Self.policy),
            "localhost is not example.com")
    }

    @Test("iframes are refused unless the policy allows subframes")
    func subframes() {
        let iframe = BridgeFrame(isMainFrame: false, scheme: "https", host: "example.com")
        #expect(!allows(iframe))
        #expect(allows(iframe, BridgeOriginPolicy(allowedHosts: ["example.com"], allowsSubframes: true)))
        let foreignIframe = BridgeFrame(isMainFrame: false, scheme: "https", host: "ads.net")
        #expect(!allows(foreignIframe, BridgeOriginPolicy(allowedHosts: ["example.com"], allowsSubframes: true)))
    }

    @Test("a frame read from origin text: scheme, host and port; anything unparsable is opaque and refused")
    func frameFromOriginText() {
        #expect(
            BridgeFrame(isMainFrame: true, origin: "http://localhost:8080")
                == BridgeFrame(isMainFrame: true, scheme: "http", host: "localhost", port: 8080))
        #expect(
            BridgeFrame(isMainFrame: false, origin: "https://example.com")
                == BridgeFrame(isMainFrame: false, scheme: "https", host: "example.com"))
        #expect(BridgeFrame(isMainFrame: true, origin: "https://example.com:8443").origin == "https://example.com:8443")
        for opaque in ["null", "", "example.com", "https://"] {
            let frame = BridgeFrame(isMainFrame: true, origin: opaque)
            #expect(frame.origin == "null", "\(opaque)")
            #expect(!allows(frame), "\(opaque)")
        }
    }

    @Test("the refusal names the frame's origin and says why, with the notAllowed code")
    func refusalMessages() {
        let cases: [(BridgeFrame, String)] = [
            (BridgeFrame(isMainFrame: false, scheme: "https", host: "example.com"), "only the main frame"),
            (BridgeFrame(isMainFrame: true, scheme: "http", host: "example.com", port: 80), "only https pages"),
            (
                BridgeFrame(isMainFrame: true, scheme: "https", host: "evil.com"),
                "does not answer pages from https://evil.com"
            ),
        ]
        for (frame, text) in cases {
            do {
                try Self.policy.check(frame)
                Issue.record("\(frame) was allowed")
            } catch {
                #expect(error.code == .notAllowed)
                #expect(error.message.contains(text), "\(error.message)")
            }
        }
    }

    // MARK: receive and reply

    @Test("receive checks the frame before the body: a refused frame gets notAllowed even for a malformed body")
    func receiveChecksTheFrameFirst() {
        let foreign = BridgeFrame(isMainFrame: true, scheme: "https", host: "evil.com")
        #expect(BridgeMessage.receive(body: "garbage", from: foreign, policy: Self.policy).failureCode == .notAllowed)
        #expect(
            BridgeMessage.receive(body: "garbage", from: Self.page, policy: Self.policy).failureCode == .invalidOptions)
        let received = BridgeMessage.receive(
            body: ["action": "register", "options": "{}"] as [String: Any], from: Self.page, policy: Self.policy)
        #expect(received == .success(BridgeMessage(action: .register, optionsJSON: "{}")))
    }

    @Test("reply(to:) registers and authenticates; a refused message gets its failure envelope")
    func reply() async throws {
        let bridge = bridge()
        let registered = try Envelope(
            await bridge.reply(to: BridgeMessage(action: .register, optionsJSON: try creationJSON())))
        #expect(registered.ok)
        #expect(registered.data?["transports"] as? [String] == ["internal", "hybrid"])

        let request = #"{"challenge":"AAAAAAAAAAAAAAAAAAAAAA","rpId":"example.com"}"#
        let body: [String: Any] = ["action": "authenticate", "options": request]
        let signedIn = try Envelope(
            await bridge.reply(to: BridgeMessage.receive(body: body, from: Self.page, policy: Self.policy)))
        #expect(signedIn.ok)
        #expect(signedIn.data?["id"] as? String == registered.data?["id"] as? String)

        let foreign = BridgeFrame(isMainFrame: true, scheme: "https", host: "evil.com")
        let refused = try Envelope(
            await bridge.reply(to: BridgeMessage.receive(body: body, from: foreign, policy: Self.policy)))
        #expect(refused.failure == "notAllowed")
        #expect(refused.message?.contains("evil.com") == true)

        let unknown = try Envelope(
            await bridge.reply(
                to: BridgeMessage.receive(
                    body: ["action": "delete", "options": request] as [String: Any], from: Self.page,
                    policy: Self.policy
                )))
        #expect(unknown.failure == "invalidOptions")
        #expect(
            try Envelope(await bridge.reply(to: BridgeMessage(action: .authenticate, optionsJSON: "{"))).failure
                == "invalidOptions")
    }

    @Test("the page script names the channel and every code that has its own DOMException name")
    func script() {
        let script = PasskeyBridge.script
        #expect(script.contains(#"webkit.messageHandlers["\#(PasskeyBridge.messageHandlerName)"]"#))
        #expect(script.contains("window.latchkeyBridge") || script.contains(#""latchkeyBridge""#))
        for code in [
            "cancelled", "notAllowed", "timedOut", "noCredentials", "excludedCredential", "unsupported",
            "deviceNotConfigured", "invalidOptions",
        ] {
            #expect(
                AuthenticatorError.Code.all.contains(AuthenticatorError.Code(rawValue: code)),
                "\(code) is no longer a code")
            #expect(script.contains(code), "\(code)")
        }
        #expect(!script.contains("?.") && !script.contains("??"), "ES2017: no optional chaining or nullish coalescing")
    }
}

extension Result where Failure == AuthenticatorError {
    var failureCode: AuthenticatorError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
