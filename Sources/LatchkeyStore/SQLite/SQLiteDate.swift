import Foundation
import GRDB
import GRDBSQLite

/// A `Date` in SQLite's column form, GRDB's text `yyyy-MM-dd HH:mm:ss.SSS` in UTC (what a `Date` argument writes),
/// written and read with integer arithmetic.
///
/// GRDB writes a `Date` through a `DateFormatter` and reads it through a `Calendar`, both ICU on Linux: five dates
/// written and a dozen read per sign-in were about 3 % of the server's CPU under the load test. This writes the same
/// text, so rows, comparisons in SQL (`expires_at <= ?`) and older databases are unchanged; text of any other form is
/// read by GRDB.
struct SQLiteDate: DatabaseValueConvertible, StatementColumnConvertible, Sendable {
    let date: Date

    init(_ date: Date) {
        self.date = date
    }

    /// Seconds from 1970 to 2001, the reference date of `Date`.
    private static let referenceDateOffset = 978_307_200.0
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The text GRDB's formatter writes: the nearest whole millisecond (a half rounded up, as Foundation's formatter
    /// does), UTC. Nil outside the years 1–9999, whose text has another width (GRDB's formatter writes those).
    var text: String? {
        // The same double arithmetic as Foundation's formatter (ICU's UDate is milliseconds since 1970).
        let milliseconds = Int64(
            ((date.timeIntervalSinceReferenceDate + Self.referenceDateOffset) * 1000 + 0.5).rounded(.down))
        let (days, inDay) = Self.floorDivision(milliseconds, Self.millisecondsPerDay)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        guard (1...9999).contains(year) else { return nil }
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let millisecond = inDay % 1000
        // One allocation, the string's own (the text is longer than a small string's 15 bytes).
        return String(unsafeUninitializedCapacity: Self.textLength) { buffer in
            var end = 0
            func put(_ value: Int64, digits: Int, then separator: UInt8?) {
                var rest = value
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[end + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += digits
                if let separator {
                    buffer[end] = separator
                    end += 1
                }
            }
            put(year, digits: 4, then: UInt8(ascii: "-"))
            put(month, digits: 2, then: UInt8(ascii: "-"))
            put(day, digits: 2, then: UInt8(ascii: " "))
            put(hour, digits: 2, then: UInt8(ascii: ":"))
            put(minute, digits: 2, then: UInt8(ascii: ":"))
            put(second, digits: 2, then: UInt8(ascii: "."))
            put(millisecond, digits: 3, then: nil)
            return end
        }
    }

    var databaseValue: DatabaseValue { text?.databaseValue ?? date.databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SQLiteDate? {
        if case .string(var text) = dbValue.storage, let date = text.withUTF8(parse) { return SQLiteDate(date) }
        return Date.fromDatabaseValue(dbValue).map(SQLiteDate.init)
    }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index)
        {
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            if let date = Self.parse(UnsafeBufferPointer(start: text, count: count)) {
                self.init(date)
                return
            }
        }
        guard let date = Date(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(date)
    }

    /// The length of `yyyy-MM-dd HH:mm:ss.SSS`.
    private static let textLength = 23

    /// The date of exactly `yyyy-MM-dd HH:mm:ss.SSS` (in range), or nil for any other text.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count == textLength else { return nil }
        var start = 0
        /// The field of `width` digits at `start` and, after it, `separator` (or the end of the text); nil otherwise.
        func field(_ width: Int, then separator: UInt8?) -> Int64? {
            var value: Int64 = 0
            for byte in text[start..<start + width] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            start += width
            if let separator {
                guard text[start] == separator else { return nil }
                start += 1
            }
            return value
        }
        guard let year = field(4, then: UInt8(ascii: "-")), let month = field(2, then: UInt8(ascii: "-")),
            let day = field(2, then: UInt8(ascii: " ")), let hour = field(2, then: UInt8(ascii: ":")),
            let minute = field(2, then: UInt8(ascii: ":")), let second = field(2, then: UInt8(ascii: ".")),
            let millisecond = field(3, then: nil)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + Double(millisecond) / 1000
        return Date(timeIntervalSince1970: seconds)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }
}
