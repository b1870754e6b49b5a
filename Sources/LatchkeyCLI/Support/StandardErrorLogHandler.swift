import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The log handler of `latchkey serve`: the line `StreamLogHandler.standardError` writes, byte for byte
/// (`2026-11-24T07:20:05+0000 info latchkey.server: client=… http.method=POST … [LatchkeyServer] request`), made
/// with less work, since the server writes one for every request.
///
/// It formats the time once a second instead of on every line (`localtime` reads the time zone file each time), sorts
/// the metadata in one array instead of merging dictionaries, and writes each line with one `write(2)`, so lines from
/// several threads never interleave.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    /// Where the lines go: standard error, or another descriptor in tests.
    let fileDescriptor: Int32

    init(
        label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        fileDescriptor: Int32 = 2
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.fileDescriptor = fileDescriptor
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = Self.line(
            event, label: label, timestamp: Self.clock.timestamp(), base: metadata, provider: metadataProvider)
        line.withUTF8 { Self.writeAll(UnsafeRawBufferPointer($0), to: fileDescriptor) }
    }

    /// Writes `bytes` to `descriptor` with `write(2)`: a line is one call (standard error is unbuffered, so nothing
    /// else holds part of a line), retried after a signal or a short write.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return  // nowhere to report a failed log write
            }
        }
    }

    /// The line for `event`, as `StreamLogHandler` writes it.
    static func line(
        _ event: LogEvent, label: String, timestamp: String, base: Logger.Metadata, provider: Logger.MetadataProvider?
    ) -> String {
        var line = ""
        // A request's line is about 230 bytes: one allocation instead of one for each time the line outgrows itself.
        line.reserveCapacity(256)
        line += timestamp
        line += " "
        line += event.level.rawValue
        if !label.isEmpty { line += " " }
        line += label
        line += ":"
        for (key, value) in effectiveMetadata(event, base: base, provider: provider) {
            line += " "
            line += key
            line += "="
            line += value.description
        }
        line += " ["
        line += event.source
        line += "] "
        line += event.message.description
        line += "\n"
        return line
    }

    /// The handler's metadata, the provider's and the event's (later ones winning) and the error's fields, sorted by
    /// key as `StreamLogHandler` prints them.
    ///
    /// Collected into one array and sorted, rather than merged into a dictionary and then sorted: a request's line
    /// has the request ID as the handler's metadata and five fields of its own, and merging them grew and rehashed a
    /// dictionary for every line.
    private static func effectiveMetadata(
        _ event: LogEvent, base: Logger.Metadata, provider: Logger.MetadataProvider?
    ) -> [(key: String, value: Logger.MetadataValue)] {
        let provided = provider?.get() ?? [:]
        var fields: [(key: String, value: Logger.MetadataValue)] = []
        fields.reserveCapacity(
            base.count + provided.count + (event.metadata?.count ?? 0) + (event.error == nil ? 0 : 2))
        for (key, value) in base { fields.append((key, value)) }
        for (key, value) in provided { fields.append((key, value)) }
        if let explicit = event.metadata {
            for (key, value) in explicit { fields.append((key, value)) }
        }
        if let error = event.error {
            fields.append(("error.message", "\(error)"))
            fields.append(("error.type", "\(String(reflecting: type(of: error)))"))
        }
        // Swift's sort is stable, so of fields with one key the last added (the winner) is the last of its run.
        fields.sort { $0.key < $1.key }
        var kept = 0
        for index in fields.indices where index == fields.count - 1 || fields[index + 1].key != fields[index].key {
            fields.swapAt(kept, index)
            kept += 1
        }
        fields.removeLast(fields.count - kept)
        return fields
    }

    private static let clock = SecondClock()

    /// The local time as `strftime("%Y-%m-%dT%H:%M:%S%z")` writes it, formatted once per second.
    final class SecondClock: Sendable {
        private let cached = Mutex<(second: time_t, text: String)>((-1, ""))

        func timestamp() -> String {
            var now = time(nil)
            if let text = cached.withLock({ $0.second == now ? $0.text : nil }) { return text }
            var local = tm()
            guard localtime_r(&now, &local) != nil else { return "<unknown>" }
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            cached.withLock { $0 = (now, text) }
            return text
        }
    }
}
