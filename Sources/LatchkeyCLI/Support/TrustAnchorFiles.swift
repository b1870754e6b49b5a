import Foundation
import SwiftASN1
import WebAuthn
import X509

/// Loads `--trust-anchor` PEM files into the attestation trust a relying party uses.
enum TrustAnchorFiles {
    /// Every certificate in the PEM files (each file may hold several).
    static func certificates(in paths: [String], io: CommandIO) throws(CommandError) -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            let bytes = try InputFile.read(path, io: io, what: "trust anchor")
            let documents: [PEMDocument]
            do {
                documents = try PEMDocument.parseMultiple(pemString: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw .io("invalidTrustAnchor", "\(path) is not PEM: \(error)")
            }
            let found = documents.filter { $0.discriminator == "CERTIFICATE" }
            guard !found.isEmpty else {
                throw .io("invalidTrustAnchor", "\(path) holds no PEM CERTIFICATE block")
            }
            for (index, document) in found.enumerated() {
                do {
                    certificates.append(try Certificate(pemDocument: document))
                } catch {
                    throw .io(
                        "invalidTrustAnchor",
                        "certificate \(index + 1) in \(path) is not a valid X.509 certificate: \(error)")
                }
            }
        }
        return certificates
    }

    /// The anchors for every format the relying party accepts, each format's path required to lead to them, or the
    /// built-in roots when there are none.
    static func trust(
        anchors: [Certificate], formats: AttestationFormats, requireTrustedAttestation: Bool
    ) -> AttestationTrust {
        var trust: AttestationTrust
        if anchors.isEmpty {
            trust = .builtIn
        } else {
            trust = AttestationTrust(
                anchorsByFormat: Dictionary(uniqueKeysWithValues: formats.identifiers.map { ($0, anchors) }),
                policy: AttestationPolicy(.any, anchoredFormats: Set(formats.identifiers)))
        }
        if requireTrustedAttestation { trust.policy = .trusted }
        return trust
    }
}
