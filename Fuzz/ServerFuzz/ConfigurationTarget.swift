import Crypto
import Foundation

@testable import LatchkeyServer

/// The configuration file (`--config`, JSON) and `LATCHKEY_*` variables (the input read as `NAME=value` lines),
/// then the checks `latchkey serve` makes on the settings. The file's contents go straight to the parser that
/// `ServerSettings(configFile:)` hands them to, without a file write per input. Settings that name files are cleared
/// first, and a named Apple private key becomes a real .p8 file of the target's own, so the target reads nothing but
/// its input.
enum ConfigurationTarget {
    static let directory = FileManager.default.temporaryDirectory.path
    static let process = ProcessInfo.processInfo.processIdentifier
    static let applePrivateKeyPath: String = {
        let path = "\(directory)/latchkey-fuzz-apple-\(process).p8"
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(P256.Signing.PrivateKey().pemRepresentation.utf8))
        return path
    }()

    static func run(_ bytes: [UInt8]) {
        if let settings = try? ServerSettings(configJSON: Data(bytes), path: "config.json") {
            check(settings)
        }
        var environment: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
        }
        if let settings = try? ServerSettings(environment: environment) { check(settings) }
    }

    static func check(_ settings: ServerSettings) {
        var settings = settings
        settings.applePrivateKey = settings.applePrivateKey.map { _ in applePrivateKeyPath }
        settings.secretsKeyFile = nil
        settings.metadata = nil
        settings.metadataTrustRoot = nil
        settings.emailTemplates = nil
        settings.accessTokenClaims = nil
        settings.adminKeysFile = nil
        settings.webhooksFile = nil
        _ = try? ServerConfiguration(settings)
    }
}
