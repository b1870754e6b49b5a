import Foundation
import Logging
import Synchronization
import Testing

@testable import LatchkeyCLI

/// `serve`'s log handler writes the line swift-log's `StreamLogHandler` writes, byte for byte.
@Suite("Standard error log handler")
struct StandardErrorLogHandlerTests {
    /// Collects what a `StreamLogHandler` writes.
    final class Collected: TextOutputStream, @unchecked Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "it broke" }
    }

    private static let events: [LogEvent] = [
        LogEvent(
            level: .info, message: "request",
            metadata: [
                "http.method": "POST", "http.path": "/v1/passkeys/authentication/verify", "http.status": "200",
                "duration_ms": "0.812", "client": "127.0.0.1",
            ], source: "LatchkeyServer", file: #fileID, function: #function, line: #line),
        LogEvent(
            level: .warning, message: "no metadata", metadata: nil, source: "LatchkeyServer", file: #fileID,
            function: #function, line: #line),
        LogEvent(
            level: .error, message: "nested",
            metadata: [
                "list": ["a", "b"], "map": ["k": "v", "a": "1"], "z": "last", "a": .stringConvertible(42),
            ], source: "S", file: #fileID, function: #function, line: #line),
        LogEvent(
            level: .critical, message: "with an error", error: Failure(), metadata: ["error.code": "x"], source: "S",
            file: #fileID, function: #function, line: #line),
        LogEvent(
            level: .trace, message: "ünïcödé and spaces", metadata: ["key with space": "value\nwith newline"],
            source: "S",
            file: #fileID, function: #function, line: #line),
    ]

    @Test("the same line as StreamLogHandler, with and without handler metadata and a metadata provider")
    func matchesStreamLogHandler() {
        let provider = Logger.MetadataProvider { ["request.id": "r-1", "http.method": "provided"] }
        for (label, base, provider) in [
            ("latchkey.server", [:] as Logger.Metadata, nil as Logger.MetadataProvider?),
            ("", ["instance": "a"], nil),
            ("latchkey.server", ["instance": "a", "client": "base"], provider),
        ] {
            for event in Self.events {
                let collected = Collected()
                var reference = StreamLogHandler(label: label, stream: collected, metadataProvider: provider)
                reference.metadata = base
                reference.log(event: event)
                let expected = collected.text.withLock { $0 }
                let timestamp = String(expected.prefix { $0 != " " })
                let line = StandardErrorLogHandler.line(
                    event, label: label, timestamp: timestamp, base: base, provider: provider)
                #expect(line == expected)
            }
        }
    }

    @Test("a logged event arrives whole on the descriptor, at or above the level only, with the handler's metadata")
    func logWritesTheLine() throws {
        let pipe = Pipe()
        var logger = Logger(label: "latchkey.server") {
            StandardErrorLogHandler(
                label: $0, metadataProvider: nil, fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        }
        logger.logLevel = .info
        logger[metadataKey: "instance"] = "a"
        logger.debug("not written")
        logger.info("request", metadata: ["http.status": "200"])
        try pipe.fileHandleForWriting.close()
        let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines.last == "", "one line, ended: \(written)")
        #expect(
            written.hasSuffix(" info latchkey.server: http.status=200 instance=a [LatchkeyCLITests] request\n"),
            "\(written)")
        #expect(written.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4} .*\n/) != nil, "\(written)")
    }

    @Test("the timestamp is strftime's local time with its offset")
    func timestampShape() {
        let handler = StandardErrorLogHandler.SecondClock()
        let text = handler.timestamp()
        #expect(text.count == 24, "\(text)")
        #expect(text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}/) != nil, "\(text)")
        #expect(handler.timestamp() >= text)
    }
}
