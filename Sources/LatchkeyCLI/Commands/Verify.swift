import ArgumentParser

/// `latchkey verify`: the relying party's two ceremonies, run on a credential JSON file.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a registration or authentication response as a relying party would.",
        subcommands: [VerifyRegistration.self, VerifyAuthentication.self]
    )
}
