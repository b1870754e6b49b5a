import CBOR
import Foundation
import SwiftASN1
import WebAuthn
import X509

/// Works out what an inspected value is and builds its report.
///
/// Each reading of the input (JSON, PEM, hex, base64url, raw bytes) is tried in turn against the WebAuthn
/// structures: credential JSON, client data, attestation object, COSE key, X.509 certificate, authenticator
/// data. When none fits, any CBOR is shown generically. A value recognised by its shape but broken inside
/// (an attestation object with bad authenticator data) is reported as that structure's error.
enum Inspector {
    static func inspect(_ input: InspectInput) throws(CommandError) -> InspectReport {
        for reading in input.readings {
            if let report = try recognize(reading, source: input.source) { return report }
        }
        for case .bytes(let bytes, let encoding) in input.readings {
            if let value = try? CBORDecoder(allowTags: true).decode(bytes) {
                return report(
                    .cbor, CBORRendering.json(value), source: input.source, encoding: encoding, length: bytes.count)
            }
        }
        throw unrecognized(input)
    }

    private static func recognize(_ reading: InspectInput.Reading, source: InspectInput.Source) throws(CommandError)
        -> InspectReport?
    {
        switch reading {
        case .json(let bytes):
            guard let report = try json(bytes, source: source, encoding: "json") else {
                throw CommandError(
                    code: "inspect.invalidJSON", message: "the value starts with { but is not a JSON object",
                    exitStatus: 1)
            }
            return report
        case .pem(let text):
            return try pem(text, source: source)
        case .bytes(let bytes, let encoding):
            // Decoded bytes that are JSON (base64url client data); otherwise a binary structure.
            if bytes.first == UInt8(ascii: "{"), let report = try json(bytes, source: source, encoding: encoding) {
                return report
            }
            return try binary(bytes, source: source, encoding: encoding)
        }
    }

    /// Nil when the bytes are not a JSON object.
    private static func json(_ bytes: [UInt8], source: InspectInput.Source, encoding: String) throws(CommandError)
        -> InspectReport?
    {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes)) else { return nil }
        func make(_ kind: InspectReport.Kind, _ body: any Encodable) -> InspectReport {
            report(kind, body, source: source, encoding: encoding, length: bytes.count)
        }
        do {
            if let response = object["response"] {
                if response["attestationObject"] != nil {
                    return make(.registrationCredential, CredentialReport(try RegistrationCredential.parse(bytes)))
                }
                if response["authenticatorData"] != nil {
                    return make(.authenticationCredential, CredentialReport(try AuthenticationCredential.parse(bytes)))
                }
            }
            if ClientDataReport.matches(object) {
                return make(.clientDataJSON, try ClientDataReport(bytes: bytes))
            }
        } catch {
            throw CommandError(error)
        }
        return make(.json, JSONValue.object(object))
    }

    private static func pem(_ text: String, source: InspectInput.Source) throws(CommandError) -> InspectReport {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw CommandError(.init(.certificateMalformed, "the PEM text does not parse: \(error)"))
        }
        let reports = documents.enumerated().map { index, document in
            Parsed { () throws(WebAuthnError) in
                let der = Array(document.derBytes)
                do {
                    return CertificateReport.detailed(try Certificate(derEncoded: der), der: der)
                } catch {
                    throw WebAuthnError(
                        .certificateMalformed,
                        "PEM block \(index + 1) (\(document.discriminator)) is not an X.509 certificate: \(error)")
                }
            }
        }
        let length = text.utf8.count
        if reports.count == 1, let only = reports.first {
            if case .failure(let error) = only { throw error }
            return report(.certificate, only, source: source, encoding: "pem", length: length)
        }
        return report(.certificates, reports, source: source, encoding: "pem", length: length)
    }

    private static func binary(_ bytes: [UInt8], source: InspectInput.Source, encoding: String) throws(CommandError)
        -> InspectReport?
    {
        func make(_ kind: InspectReport.Kind, _ body: any Encodable) -> InspectReport {
            report(kind, body, source: source, encoding: encoding, length: bytes.count)
        }
        do {
            if let map = (try? CBORDecoder().decode(bytes))?.mapValue {
                if AttestationObjectReport.matches(map) {
                    return make(.attestationObject, AttestationObjectReport(try AttestationObject(bytes: bytes)))
                }
                if map[int: 1]?.intValue != nil, map[int: 3]?.intValue != nil {
                    return make(.coseKey, COSEKeyReport(try COSEKey(bytes: bytes)))
                }
            }
        } catch {
            throw CommandError(error)
        }
        if bytes.first == 0x30, let certificate = try? Certificate(derEncoded: bytes) {
            return make(.certificate, CertificateReport.detailed(certificate, der: bytes))
        }
        if let authData = try? AuthenticatorData(bytes: bytes) {
            return make(.authenticatorData, AuthenticatorDataReport(authData))
        }
        return nil
    }

    private static func report(
        _ kind: InspectReport.Kind, _ body: any Encodable, source: InspectInput.Source, encoding: String, length: Int
    ) -> InspectReport {
        InspectReport(kind: kind, input: .init(source: source, encoding: encoding, length: length), body: body)
    }

    /// Says what was tried; for bytes long enough to be authenticator data, why they are not.
    private static func unrecognized(_ input: InspectInput) -> CommandError {
        var message =
            "the value is not a credential JSON, client data, attestation object, authenticator data, COSE key, certificate or CBOR"
        if input.readings.isEmpty {
            message = "the value is empty or not JSON, PEM, hex, base64url or base64"
        }
        for case .bytes(let bytes, let encoding) in input.readings where bytes.count >= 37 {
            do {
                _ = try AuthenticatorData(bytes: bytes)
            } catch {
                message += "; read as \(encoding) authenticator data: \(error.message)"
                break
            }
        }
        return CommandError(code: "inspect.unrecognized", message: message, exitStatus: 1)
    }
}
