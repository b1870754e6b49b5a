import Foundation
import LatchkeyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `latchkey serve --admin-port`: the admin API on a listener of its own, with the keys from a file, beside the
/// public one, which does not serve it.
@Suite("The admin listener")
struct AdminListenerTests {
    let scratch = ScratchDirectory(prefix: "latchkey-admin")

    @Test(.timeLimit(.minutes(2)))
    func servesOnItsOwnPort() async throws {
        let keys = scratch.path("admin-keys")
        let secret = String(repeating: "s", count: 40)
        try "# operators\nops:\(secret)\n".write(toFile: keys, atomically: true, encoding: .utf8)
        let serve = try await ServeProcess(
            database: "sqlite://" + scratch.path("db.sqlite"), ["--admin-port", "0", "--admin-keys-file", keys],
            waitingFor: ["Admin API listening"])
        defer { serve.stop() }
        let admin = try serve.port(after: "Admin API listening on http://127.0.0.1:")
        let main = try serve.port(after: ServeProcess.listening)
        func get(_ port: Int, _ path: String, key: String?) async throws -> Int {
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
            if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        #expect(try await get(admin, "/admin/v1/users?name=alice", key: secret) == 200)
        #expect(try await get(admin, "/admin/v1/users?name=alice", key: nil) == 401)
        #expect(try await get(main, "/admin/v1/users?name=alice", key: secret) == 404, "not on the public listener")

        // `latchkey admin` calls it with the key from the same file.
        let found = try await ChildProcess.run(
            try BinaryTests.executable().path,
            arguments: ["admin", "--url", "http://127.0.0.1:\(admin)", "--key-file", keys, "find", "--name", "alice"])
        #expect(found.status == 0, "\(String(decoding: found.output, as: UTF8.self))")
        #expect(String(decoding: found.output, as: UTF8.self).contains(#""users" : ["#))
        let missing = try await ChildProcess.run(
            try BinaryTests.executable().path,
            arguments: ["admin", "--url", "http://127.0.0.1:\(admin)", "--key-file", keys, "show", UUID().uuidString])
        #expect(missing.status == 1 && String(decoding: missing.output, as: UTF8.self).contains("admin.userNotFound"))
        let audit = try await ChildProcess.run(
            try BinaryTests.executable().path,
            arguments: ["admin", "--url", "http://127.0.0.1:\(admin)", "--key-file", keys, "audit", "--limit", "5"])
        let auditText = String(decoding: audit.output, as: UTF8.self)
        #expect(audit.status == 0 && auditText.contains(#""events" : ["#), "\(auditText)")
        let badLimit = try await ChildProcess.run(
            try BinaryTests.executable().path,
            arguments: ["admin", "--url", "http://127.0.0.1:\(admin)", "--key-file", keys, "audit", "--limit", "0"])
        #expect(badLimit.status == 1 && String(decoding: badLimit.output, as: UTF8.self).contains("admin.invalidQuery"))
    }
}
