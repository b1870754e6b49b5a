import ArgumentParser
import Crypto
import Foundation
import WebAuthn

/// `latchkey bench verify`: how much a WebAuthn verification costs over the bare signature check it contains.
///
/// Phases: (a) swift-crypto's P-256 verification of an assertion's signed bytes (DER parse inside the
/// loop, key built once); (b) an ES256 assertion verified from its JSON text with `finishAuthentication(json:)`;
/// (c) registrations verified from JSON with `none` and `packed` self attestation. The last three lines are
/// `raw_verify_us=`, `assertion_ratio=` (b ÷ a) and `registration_ratio=` (packed self ÷ a).
/// Each phase runs about 1.2 s by default (0.2 s warm-up, 200 rounds of about 5 ms).
struct BenchVerify: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Time raw P-256 verification against assertion and registration verification from JSON."
    )

    @Option(help: ArgumentHelp("Calls per timed round; by default about 5 ms worth.", valueName: "n"))
    var iterations: Int?

    @Option(help: ArgumentHelp("Timed rounds per phase, the fastest kept.", valueName: "n"))
    var rounds = 200

    @Flag(help: "Also time each step of the assertion and registration paths on its own, to show where the time goes.")
    var breakdown = false

    func execute(_ io: CommandIO) async throws(CommandError) {
        if let iterations, iterations < 1 {
            throw .usage("invalidIterations", "--iterations must be at least 1")
        }
        guard rounds >= 1 else {
            throw .usage("invalidRounds", "--rounds must be at least 1")
        }
        let fixtures: BenchFixtures
        do {
            fixtures = try BenchFixtures()
        } catch {
            throw CommandError(
                code: "internalError", message: "could not build the benchmark fixtures: \(error)", exitStatus: 1)
        }
        let clock = BenchClock(iterations: iterations, rounds: rounds)
        let rp = BenchFixtures.relyingParty
        let record = CredentialRecord(id: fixtures.credentialID, publicKey: fixtures.storedPublicKey, signCount: 0)

        #if DEBUG
        io.line("note: a debug build; numbers mean little. Run: swift run -c release latchkey bench verify")
        #endif

        let measurements = try await clock.measure([
            BenchFixtures.rawVerifyPhase(fixtures),
            BenchClock.Phase("ES256 assertion, finishAuthentication(json:)") {
                (try? rp.finishAuthentication(
                    json: fixtures.assertionJSON, expectedChallenge: fixtures.challenge, credential: record)) != nil
            },
            BenchClock.Phase("registration none, parse + finishRegistration") {
                await Self.register(fixtures.noneRegistrationJSON, rp: rp, challenge: fixtures.challenge)
            },
            BenchClock.Phase("registration packed self ES256, parse + finishRegistration") {
                await Self.register(fixtures.packedSelfRegistrationJSON, rp: rp, challenge: fixtures.challenge)
            },
        ])
        for measurement in measurements { io.line(Self.line(measurement)) }
        if breakdown {
            for step in try await clock.measure(BenchBreakdown(fixtures: fixtures).phases()) {
                io.line(Self.line(step))
            }
        }

        let raw = measurements[0].microsecondsPerOperation
        io.line("raw_verify_us=\(Self.format(raw))")
        io.line("assertion_ratio=\(Self.format(measurements[1].microsecondsPerOperation / raw))")
        io.line("registration_ratio=\(Self.format(measurements[3].microsecondsPerOperation / raw))")
    }

    private static func register(_ json: [UInt8], rp: RelyingParty, challenge: [UInt8]) async -> Bool {
        do {
            let credential = try RegistrationCredential.parse(json)
            _ = try await rp.finishRegistration(credential, expectedChallenge: challenge)
            return true
        } catch {
            return false
        }
    }

    private static func line(_ measurement: BenchClock.Measurement) -> String {
        let name = measurement.name.padding(toLength: 62, withPad: " ", startingAt: 0)
        return
            "\(name) \(format(measurement.microsecondsPerOperation)) µs/op  (best of \(measurement.rounds) × \(measurement.iterations))"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
