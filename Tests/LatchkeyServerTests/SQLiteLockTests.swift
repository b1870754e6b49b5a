import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import LatchkeyTestSupport
import Synchronization
import Testing
import VirtualAuthenticator

/// Another process holds a write transaction on the server's SQLite file for three seconds (a backup, the `sqlite3`
/// shell, a second server) while passkey sign-ins arrive. No SQLite call runs on an event loop, so the health check, the
/// web page and the well-known files answer promptly throughout, and each sign-in answers: after the lock, or
/// 503 `store.busy` once the store's bounded wait (2 s) has passed. Nothing is lost.
/// Timing-dependent: it runs in its own step of scripts/test.sh, with nothing else on the cores.
@Suite(
    "A locked SQLite file stalls no event loop", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct SQLiteLockTests {
    /// Holds `BEGIN IMMEDIATE` on `path` for `seconds` in a Python process (the standard library's sqlite3), after
    /// printing `locked`.
    static func holdLock(on path: String, seconds: Double) throws -> ChildProcess {
        let python = ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"] ?? "/usr/bin/python3"
        let script = """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            db.execute("COMMIT")
            """
        return try ChildProcess(python, arguments: ["-c", script, path, String(seconds)], mergingErrors: true)
    }

    @Test func healthChecksAndPagesAnswerWhileSignInsWaitOrAreRefusedBusy() async throws {
        var settings = ServerSettings.test
        settings.appleAppIDs = ["ABCDE12345.com.example.app"]
        try await withServer(.sqlite, settings: settings) { server in
            let store = try #require(server.store as? SQLiteStore)
            let authenticator = VirtualAuthenticator(configuration: .securityKey)
            let app = NativeClient(http: server.app())
            #expect(try await app.signUp("locked", with: authenticator).status == .created)

            let holder = try Self.holdLock(on: store.path, seconds: 3)
            let line = String(
                decoding: try await holder.readOutput(
                    until: { String(decoding: $0, as: UTF8.self).contains("locked") }, timeout: .seconds(30)),
                as: UTF8.self)
            try #require(line.contains("locked"), "the lock holder did not start: \(line)")
            let lockedAt = ContinuousClock.now

            // Four sign-ins, one after another on the test client's connection, while the lock is held.
            let signIns = Task {
                var outcomes: [(HTTPResponse.Status, String?, Duration)] = []
                for _ in 0..<4 {
                    let started = ContinuousClock.now
                    let reply = try await app.signIn("locked", with: authenticator)
                    outcomes.append((reply.status, reply.errorCode, ContinuousClock.now - started))
                }
                return outcomes
            }
            // Meanwhile, the health check, the web page and a well-known file, each on a new connection, for three seconds.
            var latencies: [Duration] = []
            let paths = [APIPaths.Operations.health, "/", "/.well-known/apple-app-site-association"]
            let port = try #require(server.client.port)
            while ContinuousClock.now - lockedAt < .seconds(3) {
                for path in paths {
                    let started = ContinuousClock.now
                    let connection = try await RawConnection.open(port: port)
                    var replies = try await connection.replies()
                    try await connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    var text = ""
                    while let chunk = await replies.next() { text += chunk }
                    latencies.append(ContinuousClock.now - started)
                    #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(path): \(text.prefix(80))")
                }
            }
            #expect(holder.waitUntilExit() == 0)
            let outcomes = try await signIns.value

            latencies.sort()
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            #expect(latencies.count > 30, "only \(latencies.count) answers in three seconds")
            #expect(p99 < .milliseconds(50), "p99 \(p99) over \(latencies.count) answers")
            for (status, code, elapsed) in outcomes {
                let answered = status == .ok || (status == .serviceUnavailable && code == "store.busy")
                #expect(answered, "\(status) \(code ?? "")")
                #expect(elapsed < .seconds(4.5), "a sign-in waited \(elapsed)")
            }

            #expect(outcomes.contains { $0.1 == "store.busy" }, "the first waited its 2 s and was refused: \(outcomes)")
            #expect(outcomes.contains { $0.0 == .ok }, "the ones after the lock went through: \(outcomes)")

            // Nothing was lost, nothing half-written: the lock's end lets sign-ins through, and the credential holds the
            // counter of the last one (a refused sign-in wrote nothing; its counter value was skipped).
            #expect(try await app.signIn("locked", with: authenticator).status == .ok)
            let user = try #require(try await store.user(named: "locked"))
            let credential = try #require(try await store.credentials(ofUser: user.id).first)
            #expect(credential.signCount == 5)
        }
    }
}
