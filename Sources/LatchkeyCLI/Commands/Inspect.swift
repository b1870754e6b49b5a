import ArgumentParser

/// `latchkey inspect`: a debugger for WebAuthn values people paste in.
struct Inspect: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Show what a WebAuthn value holds: credential JSON, attestation object, authenticator data, client data, COSE key or certificate.",
        discussion: """
            VALUE may be base64url, base64, hex, JSON text or PEM, or the path of a file holding any of those or \
            the raw bytes; - reads standard input. The kind is detected; the output names it under "kind".
            """
    )

    // Collected this way so that a base64url value starting with "-" is taken as the value, not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The value, a file path, or - for standard input.", valueName: "value"))
    var values: [String] = []

    func validate() throws {
        guard values.count == 1 else {
            throw ValidationError("give exactly one value to inspect (got \(values.count))")
        }
    }

    func execute(_ io: CommandIO) async throws(CommandError) {
        do {
            let input = try InspectInput.resolve(values.first ?? "", io: io)
            io.emit(try Inspector.inspect(input))
        } catch {
            // inspect reports every failure, unreadable input included, with status 1.
            throw error.exiting(with: 1)
        }
    }
}
