import Foundation
import Testing

@testable import LatchkeyStore

@Suite("StoreURL parsing")
struct StoreURLTests {
    @Test(arguments: [
        ("sqlite:///var/lib/latchkey/store.sqlite", "/var/lib/latchkey/store.sqlite"),
        ("sqlite://data/store.sqlite", "data/store.sqlite"),
        ("SQLite://data/my%20store.sqlite", "data/my store.sqlite"),
        ("data/store.sqlite", "data/store.sqlite"),
        ("/tmp/store.sqlite", "/tmp/store.sqlite"),
        ("  ./store.sqlite\n", "./store.sqlite"),
    ])
    func sqliteForms(_ text: String, _ path: String) throws {
        #expect(try StoreURL(text) == .sqlite(path: path))
    }

    @Test func aSQLiteURLMaySayHowLongAWriteWaits() throws {
        let url = try StoreURL("sqlite:///var/lib/latchkey/store.sqlite?busy_timeout=5000")
        #expect(url == .sqlite(path: "/var/lib/latchkey/store.sqlite", busyTimeout: .seconds(5)))
        #expect(url.description == "sqlite:///var/lib/latchkey/store.sqlite?busy_timeout=5000")
        #expect(try StoreURL("sqlite://a.sqlite").description == "sqlite://a.sqlite")
    }

    @Test func postgresURL() throws {
        let url = try StoreURL(
            "postgres://latchkey:p%40ss%3Aword@db.example.com:6543/accounts?schema=tenant_1&sslmode=require")
        guard case .postgres(let configuration) = url else {
            Issue.record("expected a postgres URL, got \(url)")
            return
        }
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "latchkey")
        #expect(configuration.password == "p@ss:word")
        #expect(configuration.database == "accounts")
        #expect(configuration.schema == "tenant_1")
        #expect(configuration.tls == .require)
        #expect(!url.description.contains("p@ss"), "descriptions never show the password")
    }

    @Test func postgresqlSchemeAndDefaults() throws {
        let expected = PostgresStore.Configuration(host: "127.0.0.1", username: "postgres", database: "latchkey_test")
        #expect(try StoreURL("postgresql://postgres@127.0.0.1/latchkey_test") == .postgres(expected))
        #expect(expected.port == 5432)
        #expect(expected.tls == .prefer)
        #expect(expected.password == nil)
        #expect(expected.schema == nil)
    }

    @Test func tlsIsRequiredByDefaultExceptOnLoopback() throws {
        for (host, expected) in [
            ("db.example.com", PostgresStore.Configuration.TLSMode.require), ("10.0.0.5", .require),
            ("[2001:db8::1]", .require), ("127.0.0.1", .prefer), ("127.1.2.3", .prefer),
            ("localhost", .prefer), ("[::1]", .prefer), ("127.example.com", .require),
        ] {
            guard case .postgres(let configuration) = try StoreURL("postgres://u@\(host)/d") else {
                Issue.record("not a postgres URL")
                continue
            }
            #expect(configuration.tls == expected, "\(host)")
        }
        guard case .postgres(let explicit) = try StoreURL("postgres://u@db.example.com/d?sslmode=disable") else {
            return
        }
        #expect(explicit.tls == .disable, "an explicit sslmode wins")
    }

    @Test func sslModes() throws {
        for (mode, expected) in [
            ("disable", PostgresStore.Configuration.TLSMode.disable), ("allow", .prefer),
            ("prefer", .prefer), ("verify-ca", .require), ("verify-full", .require),
        ] {
            guard case .postgres(let configuration) = try StoreURL("postgres://u@h/d?sslmode=\(mode)") else {
                Issue.record("not a postgres URL")
                continue
            }
            #expect(configuration.tls == expected, "\(mode)")
        }
    }

    @Test("the pool: fixed at 20 connections with no keep-alive queries unless the URL says otherwise")
    func poolParameters() throws {
        guard case .postgres(let defaults) = try StoreURL("postgres://u@h/d") else {
            throw StoreError(.invalidConfiguration, "not postgres")
        }
        #expect(defaults.maximumConnections == 20)
        #expect(defaults.minimumConnections == nil)
        #expect(defaults.keepAliveInterval == nil)
        // What PostgresNIO is given: a fixed pool (no idle-timeout timers) and no keep-alive (no keep-alive timers).
        #expect(defaults.clientConfiguration.options.minimumConnections == 20)
        #expect(defaults.clientConfiguration.options.maximumConnections == 20)
        #expect(defaults.clientConfiguration.options.keepAliveBehavior == nil)

        let text = "postgres://u@h/d?pool_max_conns=8&pool_min_conns=2&pool_keepalive=30"
        guard case .postgres(let set) = try StoreURL(text) else {
            throw StoreError(.invalidConfiguration, "not postgres")
        }
        #expect(set.maximumConnections == 8)
        #expect(set.minimumConnections == 2)
        #expect(set.keepAliveInterval == .seconds(30))
        #expect(set.clientConfiguration.options.minimumConnections == 2)
        #expect(set.clientConfiguration.options.keepAliveBehavior?.frequency == .seconds(30))

        guard case .postgres(let off) = try StoreURL("postgres://u@h/d?pool_min_conns=0&pool_keepalive=0") else {
            throw StoreError(.invalidConfiguration, "not postgres")
        }
        #expect(off.minimumConnections == 0, "0: connections only on demand")
        #expect(off.keepAliveInterval == nil, "0: no keep-alive")
    }

    @Test("a pool parameter out of range names itself and the range")
    func poolParameterMessages() {
        #expect {
            try StoreURL("postgres://u@h/d?pool_min_conns=x")
        } throws: { error in
            "\(error)".contains("pool_min_conns must be a whole number from 0 to 100000, not 'x'")
        }
        #expect {
            try StoreURL("postgres://u@h/d?pool_max_conns=4&pool_min_conns=5")
        } throws: { error in
            "\(error)".contains("minimumConnections (5) must be from 0 to maximumConnections (4)")
        }
    }

    @Test(arguments: [
        "",
        "   ",
        "sqlite://",
        ":memory:",
        "sqlite://:memory:",
        "sqlite://data/store.sqlite?mode=ro",
        "sqlite://data/store.sqlite?busy_timeout=0",
        "sqlite://data/store.sqlite?busy_timeout=60001",
        "sqlite://data/store.sqlite?busy_timeout=5000#x",
        "mysql://root@localhost/db",
        "http://example.com/store",
        "postgres://",
        "postgres://localhost/db",
        "postgres://user@/db",
        "postgres://user@localhost",
        "postgres://user@localhost/",
        "postgres://user@localhost/db/extra",
        "postgres://user@localhost:0/db",
        "postgres://user@localhost/db?sslmode=sometimes",
        "postgres://user@localhost/db?application_name=x",
        "postgres://user@localhost/db?schema=Bad-Name",
        "postgres://user@localhost/db?schema=1abc",
        "postgres://user@localhost/db?pool_max_conns=0",
        "postgres://user@localhost/db?pool_max_conns=",
        "postgres://user@localhost/db?pool_max_conns=+5",
        "postgres://user@localhost/db?pool_min_conns=-1",
        "postgres://user@localhost/db?pool_min_conns=two",
        "postgres://user@localhost/db?pool_min_conns=21",
        "postgres://user@localhost/db?pool_max_conns=4&pool_min_conns=5",
        "postgres://user@localhost/db?pool_keepalive=1.5",
        "postgres://user@localhost/db?pool_keepalive=100001",
    ])
    func invalidURLs(_ text: String) {
        #expect {
            try StoreURL(text)
        } throws: { error in
            (error as? StoreError)?.code == .invalidConfiguration
        }
    }

    @Test func makeStoreOpensSQLite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-url-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/store.sqlite").path
        let store = try StoreURL("sqlite://\(path)").makeStore()
        #expect(store is SQLiteStore)
        #expect(FileManager.default.fileExists(atPath: path), "the directory and file are created")
    }

    @Test func unopenableSQLiteFileIsUnavailable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-url-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let notADatabase = directory.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: notADatabase)
        #expect {
            try SQLiteStore(path: notADatabase.path)
        } throws: { error in
            (error as? StoreError)?.code == .unavailable
        }
    }
}
