import Foundation
import GRDB
import Testing

@testable import LatchkeyStore

/// ``SQLiteDate`` writes exactly the text GRDB writes for a `Date` and reads it back as GRDB does, so the rows,
/// the comparisons in SQL and databases written before it are unchanged.
@Suite("SQLite dates: GRDB's text form, without its formatter")
struct SQLiteDateTests {
    /// Dates across the range a server sees (and beyond), with fractions that test the rounding to milliseconds.
    static let dates: [Date] = {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: -0.0005),
            Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
            Date(timeIntervalSince1970: 4_107_542_399.9999),  // 2100-02-28 23:59:59.9999
            Date(timeIntervalSince1970: 1_795_000_000.9995), Date(timeIntervalSince1970: 1_795_000_000.0004),
            Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31 23:59:59.999
            Date(timeIntervalSinceReferenceDate: 0), Date(),
            // Years outside 1–9999 have text of another width: GRDB's formatter writes those.
            Date(timeIntervalSince1970: 253_402_300_800),  // 10000-01-01
            Date(timeIntervalSince1970: -62_135_596_801),  // 0000-12-31 23:59:59
        ]
        for _ in 0..<5_000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...8_000_000_000, using: &generator)))
        }
        for _ in 0..<1_000 {
            // Whole milliseconds, as dates read back from the database are.
            dates.append(
                Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000_000, using: &generator)) / 1000))
        }
        return dates
    }()

    @Test func writesTheTextGRDBWrites() {
        var mismatches: [String] = []
        for date in Self.dates where SQLiteDate(date).databaseValue != date.databaseValue {
            mismatches.append(
                "\(date.timeIntervalSince1970): \(SQLiteDate(date).databaseValue) ≠ \(date.databaseValue)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func readsTheDateGRDBReads() throws {
        for date in Self.dates where SQLiteDate(date).text != nil {
            let stored = date.databaseValue
            let ours = try #require(SQLiteDate.fromDatabaseValue(stored)?.date)
            let grdbs = try #require(Date.fromDatabaseValue(stored))
            #expect(abs(ours.timeIntervalSince(grdbs)) < 1e-6, "\(stored): \(ours) ≠ \(grdbs)")
        }
    }

    @Test func readsFromAStatementAsFromAValue() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            for text in ["2026-11-24 09:15:02.123", "2026-11-24", "2026-11-24 09:15", "2026-11-24T09:15:02.123Z"] {
                let row = try #require(try Row.fetchOne(db, sql: "SELECT ?", arguments: [text]))
                let fromStatement = try row.decode(SQLiteDate.self, atIndex: 0).date
                let grdbs = try #require(Date.fromDatabaseValue(text.databaseValue))
                #expect(abs(fromStatement.timeIntervalSince(grdbs)) < 1e-6, "\(text)")
            }
            let number = try #require(try Row.fetchOne(db, sql: "SELECT 1795000000.25"))
            #expect(
                try number.decode(SQLiteDate.self, atIndex: 0).date == Date(timeIntervalSince1970: 1_795_000_000.25))
            let null = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
            #expect(try null.decode(SQLiteDate?.self, atIndex: 0) == nil)
        }
    }

    @Test func yearsOutsideOneToNineThousandNineHundredNinetyNineAreLeftToGRDB() {
        #expect(SQLiteDate(Date(timeIntervalSince1970: 253_402_300_800)).text == nil)
        #expect(SQLiteDate(Date(timeIntervalSince1970: -62_135_596_801)).text == nil)
        #expect(SQLiteDate(Date(timeIntervalSince1970: 253_402_300_799)).text == "9999-12-31 23:59:59.000")
    }

    @Test func anyOtherTextIsLeftToGRDB() {
        for text in [
            "2026-13-01 00:00:00.000", "2026-02-30 00:00:00.000", "2026-11-24 24:00:00.000", "2026-11-24 09:15:02,123",
            "2026-11-24 09:15:02.12", "+026-11-24 09:15:02.123", "２026-11-24 09:15:02.123",
            "2026-11-24 09:15:02.1x3", "2026-11-2409:15:02.1234", "2026-11-24 09:15:02.123 ",
        ] {
            var text = text
            #expect(text.withUTF8(SQLiteDate.parse) == nil, "\(text)")
        }
    }
}
