import ArgumentParser
import Foundation
import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// `latchkey passkey bridge`: the native side of a hybrid app, for developing and testing its pages. It reads
/// what a web view's message channel would deliver, one JSON line at a time, and answers each as
/// `PasskeyBridgeMessageHandler` does, with a virtual authenticator.
struct PasskeyBridgeHost: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Play the native side of a hybrid app's passkey bridge over standard input and output.",
        discussion: """
            Each input line is {"id": ID, "body": BODY, "frame": {"origin": ORIGIN, "isMainFrame": BOOL}}, where BODY \
            is what the page passed to window.webkit.messageHandlers.latchkey.postMessage and frame (optional; by \
            default the --origin main frame) is where it came from. Each answer is one line {"id": ID, "reply": \
            ENVELOPE}, ENVELOPE being the JSON text WebKit would hand back to the page. The authenticator is a \
            virtual passkey provider for --origin, its passkeys in --store or else in memory.
            """
    )

    @Option(
        help:
            "The page's origin, e.g. http://localhost:8080: what the authenticator signs for, and whose host (with subdomains) the bridge answers."
    )
    var origin: String?

    @Option(
        help:
            "The encrypted credential file, as `latchkey passkey` uses it (default: in memory, gone when the command ends)."
    )
    var store: String?

    @Option(help: "Whether the authenticator can verify the user: on or off.")
    var userVerification: Switch = .on

    @Option(
        help:
            "Answer every request with this error code (one of \(AuthenticatorError.Code.all.map(\.rawValue).joined(separator: ", ")))."
    )
    var failWith: String?

    @Option(
        name: .customLong("allowed-host"),
        help: "A host whose pages (and its subdomains') are answered (repeatable; default: the host of --origin).")
    var allowedHosts: [String] = []

    @Flag(help: "Answer iframes of allowed origins too, not only the main frame.")
    var allowSubframes = false

    @Flag(help: "Print the page script (window.latchkeyBridge) and exit.")
    var printScript = false

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    /// The process reads its input as it arrives, so each request is answered while the page waits.
    func run() async throws {
        let io = CommandIO.standard
        do {
            try await serve(io, lines: Self.standardInputLines)
        } catch {
            io.emit(error.report)
            throw ExitCode(error.exitStatus)
        }
    }

    /// Answers every line of the input at once (tests, and embedding through ``Latchkey/invoke(_:io:)``).
    func execute(_ io: CommandIO) async throws(CommandError) {
        try await serve(io) {
            let text = String(decoding: io.readStandardInput(), as: UTF8.self)
            return AsyncStream { continuation in
                for line in text.split(whereSeparator: \.isNewline) { continuation.yield(String(line)) }
                continuation.finish()
            }
        }
    }

    /// Checks the flags, then answers each line `lines()` gives, in order.
    private func serve(_ io: CommandIO, lines: () -> AsyncStream<String>) async throws(CommandError) {
        if printScript { return io.line(PasskeyBridge.script) }
        let responder = try Responder(self)
        for await line in lines() where !line.allSatisfy(\.isWhitespace) {
            io.line(await responder.answer(line))
        }
    }

    /// Standard input, a line at a time, read on its own thread.
    private static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
    }

    /// The bridge, its origin policy and the default frame, made from the flags.
    struct Responder: Sendable {
        let bridge: PasskeyBridge
        let policy: BridgeOriginPolicy
        let origin: String

        init(_ command: PasskeyBridgeHost) throws(CommandError) {
            guard let text = command.origin else {
                throw .usage("missingOrigin", "give the page's --origin, e.g. http://localhost:8080")
            }
            let server: ServerURL
            do {
                server = try ServerURL(text)
            } catch {
                throw .usage("badOrigin", "--origin must be an http or https URL, not \"\(text)\"")
            }
            origin = server.origin
            policy = BridgeOriginPolicy(
                allowedHosts: command.allowedHosts.isEmpty ? [server.host] : command.allowedHosts,
                allowsSubframes: command.allowSubframes
            )
            if let name = command.failWith {
                guard let code = AuthenticatorError.Code.all.first(where: { $0.rawValue == name }) else {
                    let known = AuthenticatorError.Code.all.map(\.rawValue).joined(separator: ", ")
                    throw .usage("badCode", "--fail-with \"\(name)\" is not an error code (known: \(known))")
                }
                bridge = PasskeyBridge(authenticator: FailingAuthenticator(code: code))
                return
            }
            var configuration = VirtualAuthenticatorConfiguration.passkeyProvider
            configuration.supportsUserVerification = command.userVerification == .on
            let authenticator = VirtualAuthenticator(configuration: configuration, store: try Self.store(command.store))
            bridge = PasskeyBridge(authenticator: VirtualAuthenticatorAdapter(authenticator, origin: origin))
        }

        private static func store(_ path: String?) throws(CommandError) -> any CredentialStore {
            guard let path else { return InMemoryCredentialStore() }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io("storeDirectory", "cannot create \(directory.path): \(error.localizedDescription)")
            }
            return EncryptedFileCredentialStore(path: path, keySource: .fromEnvironment(storePath: path))
        }

        /// The output line for one input line: the same reading (``BridgeMessage/receive(body:from:policy:)``)
        /// as the WebKit handler, of the body as JSONSerialization gives it.
        func answer(_ line: String) async -> String {
            let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let received: Result<BridgeMessage, AuthenticatorError>
            if let request {
                let frame = request["frame"] as? [String: Any]
                received = BridgeMessage.receive(
                    body: request["body"] ?? NSNull(),
                    from: BridgeFrame(
                        isMainFrame: frame?["isMainFrame"] as? Bool ?? true,
                        origin: frame?["origin"] as? String ?? origin),
                    policy: policy
                )
            } else {
                received = .failure(
                    AuthenticatorError(.invalidOptions, #"the line is not a JSON object {"id": …, "body": …}"#))
            }
            let reply: Any = await bridge.reply(to: received)
            let output: [String: Any] = ["id": request?["id"] ?? NSNull(), "reply": reply]
            guard
                let data = try? JSONSerialization.data(
                    withJSONObject: output, options: [.sortedKeys, .withoutEscapingSlashes])
            else {
                return
                    #"{"id":null,"reply":"{\"code\":\"failed\",\"errMsg\":\"the reply could not be encoded\",\"ok\":false}"}"#
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// An authenticator that refuses everything with one code (`--fail-with`), so a page's handling of every
/// code can be exercised.
private struct FailingAuthenticator: Authenticator {
    let code: AuthenticatorError.Code

    private var error: AuthenticatorError {
        AuthenticatorError(code, "latchkey passkey bridge --fail-with \(code) answers every request with \(code)")
    }

    func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        throw error
    }

    func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
        -> AuthenticationCredential
    {
        throw error
    }
}
