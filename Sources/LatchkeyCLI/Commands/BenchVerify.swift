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
struct BenchVerify: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Time raw P-256 verification against assertion and registration verification from JSON."
    )

    @Option(help: ArgumentHelp("Calls per timed round (3 rounds, best kept); by default about 0.4 s worth.", valueName: "n"))
    var iterations: Int?

    func execute(_ io: CommandIO) async throws(CommandError) {
        if let iterations, iterations < 1 {
            throw .usage("invalidIterations", "--iterations must be at least 1")
        }
        let fixtures: BenchFixtures
        do {
            fixtures = try BenchFixtures()
        } catch {
            throw CommandError(code: "internalError", message: "could not build the benchmark fixtures: \(error)", exitStatus: 1)
        }
        let clock = BenchClock(iterations: iterations)
        let rp = BenchFixtures.relyingParty
        let record = CredentialRecord(id: fixtures.credentialID, publicKey: fixtures.storedPublicKey, signCount: 0)

        #if DEBUG
        io.line("note: a debug build; numbers mean little. Run: swift run -c release latchkey bench verify")
        #endif

        let raw = try await clock.measure("raw P-256 verify (swift-crypto)") {
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: fixtures.assertionSignature) else { return false }
            return fixtures.publicKey.isValidSignature(signature, for: fixtures.assertionSignedData)
        }
        io.line(Self.line(raw))
        let assertion = try await clock.measure("ES256 assertion, finishAuthentication(json:)") {
            (try? rp.finishAuthentication(json: fixtures.assertionJSON, expectedChallenge: fixtures.challenge, credential: record)) != nil
        }
        io.line(Self.line(assertion))
        let none = try await clock.measure("registration none, parse + finishRegistration") {
            await Self.register(fixtures.noneRegistrationJSON, rp: rp, challenge: fixtures.challenge)
        }
        io.line(Self.line(none))
        let packedSelf = try await clock.measure("registration packed self ES256, parse + finishRegistration") {
            await Self.register(fixtures.packedSelfRegistrationJSON, rp: rp, challenge: fixtures.challenge)
        }
        io.line(Self.line(packedSelf))

        io.line("raw_verify_us=\(Self.format(raw.microsecondsPerOperation))")
        io.line("assertion_ratio=\(Self.format(assertion.microsecondsPerOperation / raw.microsecondsPerOperation))")
        io.line("registration_ratio=\(Self.format(packedSelf.microsecondsPerOperation / raw.microsecondsPerOperation))")
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
        return "\(name) \(format(measurement.microsecondsPerOperation)) µs/op  (best of \(measurement.rounds) × \(measurement.iterations))"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
