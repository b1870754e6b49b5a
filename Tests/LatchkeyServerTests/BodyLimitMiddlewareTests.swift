import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import LatchkeyServer

/// `BodyLimitMiddleware` on its own: what a route behind it receives. (The 413 answers of a whole server are in
/// `OperationsTests`.)
@Suite struct BodyLimitMiddlewareTests {
    /// A router whose one route reports what the middleware handed over, and what ``Request/bodyBytes(context:)`` reads.
    private func router(limit: Int) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.group().add(middleware: BodyLimitMiddleware(limit: limit)).post("/echo") { request, context -> String in
            let collected = context.collectedBody.map { String(buffer: $0) } ?? "none"
            let read = String(buffer: try await request.bodyBytes(context: context))
            return "collected=\(collected) read=\(read)"
        }
        return router
    }

    @Test func theRouteGetsTheCollectedBodyInItsContext() async throws {
        try await Application(router: router(limit: 64)).test(.live) { client in
            let body = #"{"username":"alice"}"#
            let response = try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "collected=\(body) read=\(body)")
        }
    }

    @Test func anEmptyBodyIsCollectedAsEmpty() async throws {
        try await Application(router: router(limit: 64)).test(.live) { client in
            let response = try await client.execute(uri: "/echo", method: .post)
            #expect(String(buffer: response.body) == "collected= read=")
        }
    }

    @Test("a route not behind the middleware still reads its body, collecting it itself")
    func bodyBytesCollectsWithoutTheMiddleware() async throws {
        let router = Router(context: ServerRequestContext.self)
        router.post("/echo") { request, context -> String in
            let collected = context.collectedBody.map { String(buffer: $0) } ?? "none"
            return "collected=\(collected) read=\(String(buffer: try await request.bodyBytes(context: context)))"
        }
        try await Application(router: router).test(.live) { client in
            let response = try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: "{}"))
            #expect(String(buffer: response.body) == "collected=none read={}")
        }
    }

    @Test func aBodyOverTheLimitNeverReachesTheRoute() async throws {
        try await Application(router: router(limit: 8)).test(.live) { client in
            let response = try await client.execute(
                uri: "/echo", method: .post, body: ByteBuffer(string: String(repeating: "a", count: 9)))
            #expect(response.status != .ok)
            #expect(!String(buffer: response.body).contains("collected="))
        }
    }
}
