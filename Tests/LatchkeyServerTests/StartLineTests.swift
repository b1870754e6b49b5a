import Testing

@testable import LatchkeyServer

@Suite("Start line")
struct StartLineTests {
    @Test("the start line names the socket, the page's origin to open, the RP ID, the database and the event loops")
    func startLine() throws {
        let line = ServerRunner.startLine(configuration: try ServerConfiguration(), port: 8080, eventLoops: 2)
        #expect(
            line.hasPrefix("Latchkey listening on http://127.0.0.1:8080; open http://localhost:8080/ (RP ID localhost"))
        #expect(line.contains("database sqlite://"))
        #expect(line.hasSuffix(", 2 event loops)"))
        #expect(
            ServerRunner.startLine(configuration: try ServerConfiguration(), port: 8080, eventLoops: 1).hasSuffix(
                ", 1 event loop)"))
    }

    @Test("a shared group of another size than configured is warned about, naming both and how to size it")
    func eventLoopWarning() {
        #expect(ServerRunner.eventLoopWarning(found: 2, configured: 2) == nil)
        let warning = ServerRunner.eventLoopWarning(found: 2, configured: 1)
        #expect(warning?.contains("has 2 loops, not the 1 configured") == true, "\(warning ?? "nil")")
        #expect(warning?.contains("NIOSingletons.groupLoopCountSuggestion") == true)
    }
}
