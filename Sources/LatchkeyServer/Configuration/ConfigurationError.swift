/// A configuration the server refuses to start with: which setting, and what is wrong with it.
///
/// `latchkey serve` prints ``description`` and exits with a non-zero status.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting as the operator writes it on the command line (`--origin`, `--port`, …).
    public let setting: String
    /// What is wrong with the setting's value.
    public let message: String

    /// An error for `setting` (its flag, e.g. `--port`) saying what is wrong with it.
    public init(_ setting: String, _ message: String) {
        self.setting = setting
        self.message = message
    }

    /// `invalid <setting>: <message>`.
    public var description: String { "invalid \(setting): \(message)" }
}
