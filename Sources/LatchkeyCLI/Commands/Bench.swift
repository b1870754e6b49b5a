import ArgumentParser

/// `latchkey bench`: microbenchmarks of the verification paths.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure verification speed (build with -c release).",
        subcommands: [BenchVerify.self, BenchPassword.self]
    )
}
