import ArgumentParser
import Foundation
import SwiftASN1
import WebAuthn

/// The flags that say how to verify a metadata BLOB: its trust root, the moment, and CRLs.
struct MetadataBLOBOptions: ParsableArguments {
    @Option(
        name: .customLong("trust-root"),
        help: ArgumentHelp(
            "A PEM file of roots the BLOB's chain may lead to (repeatable); the FIDO service's root (GlobalSign Root CA - R3) by default.",
            valueName: "pem-file"))
    var trustRoots: [String] = []

    @Option(
        help: ArgumentHelp(
            "The moment at which the chain and nextUpdate are judged, ISO 8601; now by default.", valueName: "iso8601"))
    var at: String?

    @Option(
        name: .customLong("crl"),
        help: ArgumentHelp(
            "A CRL (DER or PEM) for a certificate in the BLOB's chain (repeatable); a listed certificate fails the BLOB.",
            valueName: "crl-file"))
    var revocationLists: [String] = []

    /// Reads and verifies the BLOB in `path` (`-` for standard input).
    func verifiedBLOB(_ path: String, io: CommandIO) async throws(CommandError) -> MetadataBLOB {
        let bytes = try InputFile.read(path, io: io, what: "metadata BLOB")
        let roots = try TrustAnchorFiles.certificates(in: trustRoots, io: io)
        let time = try time()
        var lists: [CertificateRevocationList] = []
        for path in revocationLists {
            lists.append(try revocationList(path, io: io))
        }
        let verifier = MetadataBLOBVerifier(
            trustRoots: roots.isEmpty ? MetadataBLOBVerifier.fidoRoots : roots, revocationLists: lists)
        do {
            return try await verifier.verify(bytes, at: time)
        } catch {
            throw CommandError(error)
        }
    }

    /// `--at`, or now.
    func time() throws(CommandError) -> Date {
        try at.map { text throws(CommandError) in try ArgumentValues.date(text, flag: "--at") } ?? .now
    }

    /// A CRL file, DER or PEM (`-----BEGIN X509 CRL-----`).
    private func revocationList(_ path: String, io: CommandIO) throws(CommandError) -> CertificateRevocationList {
        var bytes = try InputFile.read(path, io: io, what: "CRL")
        if bytes.starts(with: Array("-----BEGIN".utf8)) {
            guard let document = try? PEMDocument(pemString: String(decoding: bytes, as: UTF8.self)) else {
                throw .io("invalidCRL", "\(path) is not a PEM document")
            }
            bytes = document.derBytes
        }
        do {
            return try CertificateRevocationList(derEncoded: bytes)
        } catch {
            throw .io("invalidCRL", "\(path): \(error.message)")
        }
    }
}
