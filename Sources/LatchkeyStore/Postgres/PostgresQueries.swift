import Logging
import PostgresNIO

/// Something that runs one statement: the pool (`PostgresClient`, a connection per statement) or a connection
/// inside a transaction (`PostgresConnection`).
protocol PostgresQueryRunner: Sendable {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence
}

extension PostgresClient: PostgresQueryRunner {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}

extension PostgresConnection: PostgresQueryRunner {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}

extension PostgresQueryRunner {
    /// Every row the statement returns, decoded.
    func all<T>(_ query: PostgresQuery, logger: Logger, _ decode: (PostgresRow) throws -> T) async throws -> [T] {
        var values: [T] = []
        for try await row in try await rows(query, logger: logger) {
            values.append(try decode(row))
        }
        return values
    }

    /// The first row the statement returns, decoded; nil if it returns none.
    func first<T>(_ query: PostgresQuery, logger: Logger, _ decode: (PostgresRow) throws -> T) async throws -> T? {
        try await all(query, logger: logger, decode).first
    }

    /// Runs the statement to its end; returns how many rows it returned (use `RETURNING 1` to count changed rows).
    @discardableResult
    func execute(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        var count = 0
        for try await _ in try await rows(query, logger: logger) {
            count += 1
        }
        return count
    }
}
