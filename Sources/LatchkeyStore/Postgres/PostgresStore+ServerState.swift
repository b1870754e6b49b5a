import Foundation
import PostgresNIO

// The shared server state of ``PostgresStore``: its secrets.

extension PostgresStore {
    public func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data {
        try await write { [self] client in
            try await client.execute(
                "INSERT INTO server_secrets (name, value) VALUES (\(name), \(candidate)) ON CONFLICT (name) DO NOTHING",
                logger: logger
            )
            return try await client.first("SELECT value FROM server_secrets WHERE name = \(name)", logger: logger) {
                try $0.decode(Data.self)
            } ?? candidate
        }
    }
}
