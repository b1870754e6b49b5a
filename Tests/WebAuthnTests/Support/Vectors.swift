import Foundation
import Testing
import WebAuthn
import X509

/// One entry of Fixtures/registration.json or Fixtures/authentication.json (see Fixtures/VECTORS.md).
struct Vector: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let format: String?
    let credential: JSONValue
    let expectedChallenge: String
    let expectedOrigin: OneOrMany
    let expectedRpId: OneOrMany
    let expectedType: String?
    let verifyAt: String?
    let trustAnchors: [String]?
    let expect: String
    let expectedError: String?
    let requireUserVerification: Bool?
    let requireUserPresence: Bool?
    let allowedAlgorithms: [Int]?
    let verifierOptions: VerifierOptions?
    let credentialAlgorithm: String?
    let credentialPublicKey: String?
    let credentialCurrentSignCount: UInt32?
    let expectedCredentialId: String?
    let expectedAAGUID: String?
    let expectedSignCount: UInt32?
    let expectedNewSignCount: UInt32?
    let expectedBackedUp: Bool?
    let expectedUserVerified: Bool?

    struct VerifierOptions: Decodable, Sendable {
        let allowCrossOrigin: Bool?
        let topOrigins: [String]?
        let safetyNetTimestampCheck: String?
        let safetyNetEnforceCTSCheck: Bool?
    }

    enum OneOrMany: Decodable, Sendable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        var all: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    var testDescription: String { id }
    var mustPass: Bool { expect == "pass" }
    var credentialJSON: Data { (try? JSONEncoder().encode(credential)) ?? Data() }
    var challenge: [UInt8] { Base64URL.decode(expectedChallenge) ?? [] }

    var time: Date {
        guard let verifyAt else { return Date() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: verifyAt) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: verifyAt) ?? Date()
    }

    /// The relying party the vector's `expected*` fields and options describe.
    func relyingParty() throws -> RelyingParty {
        let rpIDs = expectedRpId.all
        var rp = RelyingParty(id: rpIDs[0], name: "Vectors", origins: expectedOrigin.all)
        rp.additionalRPIDs = Array(rpIDs.dropFirst())
        rp.algorithms = allowedAlgorithms.map { $0.map(COSEAlgorithm.init(rawValue:)) } ?? COSEAlgorithm.known
        rp.requireUserPresence = requireUserPresence ?? true
        if verifierOptions?.allowCrossOrigin == true {
            rp.crossOrigin = verifierOptions?.topOrigins.map { .allow(topOrigins: $0) } ?? .allowAnyTopOrigin
        }
        if let enforce = verifierOptions?.safetyNetEnforceCTSCheck {
            rp.attestationOptions.safetyNetEnforceCTSProfileMatch = enforce
        }
        rp.attestationOptions.safetyNetSkipTimestampCheck = verifierOptions?.safetyNetTimestampCheck == "skip"
        let anchors = try (trustAnchors ?? []).map { name in try Certificate(pemEncoded: Fixtures.root(named: name)) }
        if let format, !anchors.isEmpty {
            rp.attestationTrust = AttestationTrust(
                anchorsByFormat: [format: anchors], policy: AttestationPolicy(.any, anchoredFormats: [format]))
        } else {
            rp.attestationTrust = .empty
        }
        return rp
    }
}

enum Fixtures {
    static func url(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures")
    }

    static func load<T: Decodable>(_ name: String, as type: T.Type) -> T? {
        guard let url = url(name), let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    static let registration: [Vector] = load("registration", as: [Vector].self) ?? []
    static let authentication: [Vector] = load("authentication", as: [Vector].self) ?? []
    static let roots: [String: String] = load("roots", as: [String: String].self) ?? [:]

    struct MissingRoot: Error { let name: String }

    static func root(named name: String) throws -> String {
        guard let pem = roots[name] else { throw MissingRoot(name: name) }
        return pem
    }
}
