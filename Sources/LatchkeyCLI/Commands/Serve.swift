import ArgumentParser
import Foundation
import LatchkeyServer
import Logging

/// `latchkey serve`: runs the relying-party server until SIGTERM or SIGINT.
///
/// Settings come from the flags, then the `LATCHKEY_*` environment, then a JSON config file (`--config` or
/// `LATCHKEY_CONFIG`), in that order of precedence. A bad setting prints `{"error": …}` (code
/// `usage.configuration`) and exits 2; a database that cannot be opened (`server.database`) or a metadata
/// BLOB that does not verify (`server.metadata`) exits 1.
struct Serve: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the passkey server (conformance profile and /v1 API) on SQLite or PostgreSQL.",
        discussion:
            "Every flag also reads from a LATCHKEY_ variable (e.g. LATCHKEY_RP_ID; repeatable flags take the plural, comma-separated: LATCHKEY_ORIGINS, LATCHKEY_TRUSTED_PROXIES) and from the JSON file given by --config."
    )

    @Option(help: "A JSON file of settings (keys as in docs/SERVER.md).")
    var config: String?

    @OptionGroup var flags: ServeFlags

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw .usage(
                "logLevel", "'\(logLevel)' is not a log level (trace, debug, info, notice, warning, error, critical)")
        }
        let configuration: ServerConfiguration
        do {
            let settings = try ServerSettings.load(
                flags: flags.settings, configFile: config, environment: ProcessInfo.processInfo.environment)
            configuration = try ServerConfiguration(settings)
        } catch {
            throw .usage("configuration", error.description)
        }
        var logger = Logger(label: "latchkey.server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        for warning in flags.warnings { logger.warning("\(warning)") }
        do {
            try await ServerRunner.run(configuration: configuration, logger: logger) { line in io.line(line) }
        } catch let error as ConfigurationError {
            throw CommandError(code: Self.code(for: error), message: error.description, exitStatus: 1)
        } catch {
            throw CommandError(code: "server.failed", message: "the server stopped: \(error)", exitStatus: 1)
        }
    }

    /// `server.<setting>` for a setting that failed at start, in camel case: `--database` → `server.database`,
    /// `--metadata` → `server.metadata`.
    static func code(for error: ConfigurationError) -> String {
        let words = error.setting.drop { $0 == "-" }.split(separator: "-")
        return "server."
            + words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }
}
