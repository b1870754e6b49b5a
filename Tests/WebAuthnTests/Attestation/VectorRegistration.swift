import CBOR
import Crypto
import Foundation
import WebAuthn

/// A registration vector from Fixtures/registration.json taken apart, so that a test can change one thing in
/// its attestation object and verify it again under the vector's relying party.
struct VectorRegistration {
    struct UnknownVector: Error { let id: String }

    let vector: Vector
    var format: String
    /// `attStmt`.
    var statement: CBORMap
    var authData: [UInt8]
    private let credential: RegistrationCredential

    init(_ id: String) throws {
        guard let vector = Fixtures.registration.first(where: { $0.id == id }) else { throw UnknownVector(id: id) }
        self.vector = vector
        credential = try RegistrationCredential.parse(vector.credentialJSON)
        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        format = object.format
        statement = object.statement
        authData = object.authenticatorData.rawValue
    }

    /// SHA-256 of the vector's clientDataJSON.
    var clientDataHash: [UInt8] { Array(SHA256.hash(data: credential.response.clientDataJSON.bytes)) }

    /// A byte-string field of the statement.
    func bytes(_ field: String) -> [UInt8] { statement[text: field]?.bytesValue ?? [] }

    /// Sets (or with nil removes) a statement field.
    mutating func set(_ field: String, _ value: CBORValue?) {
        var entries = statement.entries.filter { $0.key != .textString(field) }.map { ($0.key, $0.value) }
        if let value { entries.append((.textString(field), value)) }
        statement = CBORMap(entries)
    }

    /// Replaces one byte-string field by `change` applied to it.
    mutating func change(_ field: String, _ change: (inout [UInt8]) -> Void) {
        var value = bytes(field)
        change(&value)
        set(field, .byteString(value))
    }

    /// The `x5c` certificates' DER.
    var x5c: [[UInt8]] {
        get { statement[text: "x5c"]?.arrayValue?.compactMap(\.bytesValue) ?? [] }
        set { set("x5c", .array(newValue.map(CBORValue.byteString))) }
    }

    /// Runs the registration ceremony on the (changed) attestation object with the vector's relying party,
    /// at the vector's `verifyAt` moved by `timeShift` seconds.
    func verify(
        timeShift: TimeInterval = 0, _ configure: (inout RelyingParty) -> Void = { _ in }
    ) async throws -> Result<VerifiedRegistration, WebAuthnError> {
        var rp = try vector.relyingParty()
        configure(&rp)
        let attestationObject = CBOREncoder.encode(
            .map(
                CBORMap([
                    (.textString("fmt"), .textString(format)), (.textString("attStmt"), .map(statement)),
                    (.textString("authData"), .byteString(authData)),
                ])))
        var response = credential.response
        response.attestationObject = Base64URLBytes(attestationObject)
        let changed = RegistrationCredential(rawId: credential.rawId.bytes, response: response)
        do {
            return .success(
                try await rp.finishRegistration(
                    changed, expectedChallenge: vector.challenge,
                    requireUserVerification: vector.requireUserVerification ?? false,
                    at: vector.time.addingTimeInterval(timeShift)
                ))
        } catch {
            return .failure(error)
        }
    }

    /// The error code verification fails with, or nil when it succeeds.
    func failureCode(
        timeShift: TimeInterval = 0, _ configure: (inout RelyingParty) -> Void = { _ in }
    ) async throws -> WebAuthnError.Code? {
        if case .failure(let error) = try await verify(timeShift: timeShift, configure) { return error.code }
        return nil
    }
}

extension Array where Element == UInt8 {
    /// The first offset at which `pattern` occurs.
    func offset(of pattern: [UInt8]) -> Int? {
        guard !pattern.isEmpty, pattern.count <= count else { return nil }
        return (0...(count - pattern.count)).first { Array(self[$0..<$0 + pattern.count]) == pattern }
    }

    /// This array with `pattern` (which must occur) replaced, once, by `replacement`.
    func replacing(_ pattern: [UInt8], with replacement: [UInt8]) -> [UInt8]? {
        guard let start = offset(of: pattern) else { return nil }
        return Array(self[..<start]) + replacement + Array(self[(start + pattern.count)...])
    }
}
