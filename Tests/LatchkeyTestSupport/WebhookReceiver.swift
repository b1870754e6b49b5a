import Foundation
import Testing

/// A real webhook receiver for a test: Tests/Interop/webhook_receiver.py on a loopback port, which checks each
/// delivery's signature with the standardwebhooks package from PyPI. Its path steers its answers (`/flaky` answers
/// 503 once per webhook, `/gone` 410).
public final class WebhookReceiver: Sendable {
    /// One delivery as the receiver got it.
    public struct Delivery: Sendable, Decodable {
        public let id: String?
        public let path: String
        /// Whether the standardwebhooks library verified the signature.
        public let verified: Bool
        public let error: String?
        /// The body, as the library returned it once verified.
        public let payload: Payload?

        public struct Payload: Sendable, Decodable {
            public let type: String
            public let data: [String: String?]?

            enum CodingKeys: String, CodingKey { case type, data }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                type = try container.decode(String.self, forKey: .type)
                // Only the text members: a test reads the user, the detail and the like.
                let data = try? container.decode([String: LossyText].self, forKey: .data)
                self.data = data?.mapValues(\.text)
            }
        }

        struct LossyText: Decodable {
            let text: String?
            init(from decoder: any Decoder) throws { text = try? decoder.singleValueContainer().decode(String.self) }
        }
    }

    /// The trait that skips a test when there is no Python with standardwebhooks.
    public static var required: ConditionTrait {
        .enabled(
            "set \(SMTPTestServer.pythonVariable) to the python of scripts/python-env.sh (it has standardwebhooks)"
        ) {
            SMTPTestServer.python != nil
        }
    }

    /// A Standard Webhooks secret for the endpoint.
    public static let secret = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()

    public let port: Int
    private let directory: ScratchDirectory
    private let process: ChildProcess

    /// A receiver on a free port, or on `port` (one a stopped receiver had: the same endpoint back from an outage).
    public init(port fixed: Int? = nil) async throws {
        let python = try #require(SMTPTestServer.python, "LATCHKEY_TEST_PYTHON is not set")
        directory = ScratchDirectory(prefix: "latchkey-webhooks")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/webhook_receiver.py").path
        (process, port) = try await PythonHelper.start(
            script, arguments: [directory.url.path, Self.secret] + (fixed.map { [String($0)] } ?? []), python: python)
    }

    /// A receiver on a free port below Linux's ephemeral range (32768 and up), for a test that stops it and starts it
    /// again on the same port: a port from the ephemeral range may meanwhile become another connection's local port.
    public static func belowEphemeralPorts() async throws -> WebhookReceiver {
        var failure: (any Error)?
        for _ in 0..<20 {
            do {
                return try await WebhookReceiver(port: Int.random(in: 20_000..<32_000))
            } catch {
                failure = error
            }
        }
        throw failure ?? CancellationError()
    }

    /// Stops the receiver (its port then refuses connections).
    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The URL of `path` on this receiver.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The deliveries so far, in order.
    public func deliveries() -> [Delivery] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            FileManager.default.contents(atPath: directory.path(name)).flatMap {
                try? JSONDecoder().decode(Delivery.self, from: $0)
            }
        }
    }

    /// Waits (up to `timeout`) until `matching` holds for the deliveries so far, and returns them.
    public func wait(
        timeout: Duration = .seconds(30), until matching: ([Delivery]) -> Bool
    ) async throws -> [Delivery] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let deliveries = deliveries()
            if matching(deliveries) { return deliveries }
            try await Task.sleep(for: .milliseconds(100))
        }
        return deliveries()
    }
}
