import Logging
import PostgresNIO

/// Something that runs one statement: the pool (`PostgresClient`, a connection per statement) or a connection
/// inside a transaction (`PostgresConnection`).
protocol PostgresQueryRunner: Sendable {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence
    func rows<Statement: PreparedQuery>(_ statement: Statement, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
}

/// A statement PostgreSQL prepares once per connection, for the statements every sign-in makes: it is parsed and
/// planned once, and each use sends only its parameters (PostgresNIO prepares it on a connection's first use).
/// The parameters' types are given, so a first use with a NULL does not leave one to be guessed, and so is the name
/// (the default is made by reflection on every use).
protocol PreparedQuery: PostgresPreparedStatement where Row == PostgresRow {}

extension PreparedQuery {
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresClient: PostgresQueryRunner {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }

    func rows<Statement: PreparedQuery>(_ statement: Statement, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        try await execute(statement, logger: logger)
    }
}

extension PostgresConnection: PostgresQueryRunner {
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }

    func rows<Statement: PreparedQuery>(_ statement: Statement, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        try await execute(statement, logger: logger)
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

    /// Every row the prepared statement returns, decoded.
    func all<T>(_ statement: some PreparedQuery, logger: Logger, _ decode: (PostgresRow) throws -> T) async throws
        -> [T]
    {
        var values: [T] = []
        for try await row in try await rows(statement, logger: logger) {
            values.append(try decode(row))
        }
        return values
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
