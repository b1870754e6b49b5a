import Foundation

/// The dates of MDS3 (`nextUpdate`, `effectiveDate`, …): ISO 8601 full dates, `YYYY-MM-DD`, taken as
/// midnight UTC.
enum MetadataDate {
    /// The Gregorian calendar in UTC.
    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// Parses `YYYY-MM-DD`; nil for anything else.
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            fields.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = utcCalendar.date(from: components),
            utcCalendar.component(.day, from: date) == day
        else { return nil }  // rejects 2021-02-30
        return date
    }

    /// Decodes a `YYYY-MM-DD` string from a Codable container.
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\"\(text)\" is not a YYYY-MM-DD date")
        }
        return date
    }
}
