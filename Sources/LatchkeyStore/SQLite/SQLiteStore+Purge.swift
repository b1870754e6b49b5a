import GRDB

extension SQLiteStore {
    /// The most rows one purge transaction deletes. A purge holds the writer, and every other write waits for it; in
    /// batches, the writes waiting go between two of them (docs/DESIGN.md, "SQLite purges delete a thousand rows per
    /// transaction", has the figures).
    static let purgeBatch = 1000

    /// Deletes the rows of `table` that `condition` (with `cutoff` as its one argument) selects, ``purgeBatch`` rows per
    /// transaction, yielding between transactions; returns how many were deleted. `key` names each row (its `rowid`,
    /// or the primary key's columns of a `WITHOUT ROWID` table), and an index should serve `condition`.
    ///
    /// Each batch commits on its own: a purge that fails part-way keeps what it deleted, and the next pass deletes the
    /// rest. Rows that expire while it runs may or may not be deleted by this pass.
    func purge(
        _ table: String, key: [String] = ["rowid"], where condition: String,
        _ cutoff: some DatabaseValueConvertible & Sendable
    ) async throws(StoreError) -> Int {
        let columns = key.joined(separator: ", ")
        let row = key.count == 1 ? columns : "(\(columns))"  // a row value for a key of several columns
        let sql =
            "DELETE FROM \(table) WHERE \(row) IN (SELECT \(columns) FROM \(table) WHERE \(condition) LIMIT \(Self.purgeBatch))"
        var deleted = 0
        while true {
            let batch = try await change(sql, [cutoff])
            deleted += batch
            guard batch == Self.purgeBatch else { return deleted }
            await Task.yield()
        }
    }
}
