import GRDB

extension SQLiteStore {
    /// The most rows one purge transaction deletes.
    ///
    /// A purge runs on the writer, and under `latchkey serve` on an event loop, while every other write (also in place
    /// on its loop) waits for it. A server signing in 2,500 users a second has about 150,000 spent tickets to delete each
    /// minute: one statement held the writer for about a second. A thousand rows hold it for about 11 ms (measured on
    /// a copy, docs/PERFORMANCE.md), and the requests waiting go between two batches. With random keys
    /// that costs more writing in all (2.2 s instead of 0.9 s for those 150,000: each batch rewrites most of the leaves
    /// it touches, where one statement rewrote each leaf once); spent tickets are keyed by expiry first (migration v8;
    /// before it, the server's IDs sorted by expiry), so their batches take about a millisecond each (0.17 s in all).
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
