import AsyncHTTPClient
import Foundation
import NIOCore
import SwiftASN1
import WebAuthn
import X509

/// The server's FIDO metadata: where the MDS3 BLOB comes from (`--metadata FILE_OR_URL`) and the root it must
/// chain to (`--metadata-trust-root PEM_FILE`, the FIDO Alliance's root by default).
///
/// The ``service`` loads the BLOB on first use, keeps the verified copy, and loads a new one after its
/// `nextUpdate`; the server loads it once before it listens, so a BLOB that does not verify stops the start.
public struct MetadataConfiguration: Sendable {
    /// The file path or URL, as given.
    public let location: String
    /// The service that keeps the verified BLOB.
    public let service: MetadataService

    /// The largest BLOB accepted over HTTP (the production BLOB is a few MiB).
    static let maximumBLOBSize = 32 << 20

    /// Checks the location and reads the trust root; the BLOB itself is loaded by ``service``.
    init(location: String, trustRootFile: String?) throws(ConfigurationError) {
        self.location = location
        let roots = try trustRootFile.map(Self.certificates(in:)) ?? MetadataBLOBVerifier.fidoRoots
        let verifier = MetadataBLOBVerifier(trustRoots: roots)
        let source: MetadataService.Source
        if location.hasPrefix("https://") || location.hasPrefix("http://") {
            guard let url = URL(string: location), let host = url.host, !host.isEmpty else {
                throw ConfigurationError("--metadata", "'\(location)' is not a URL")
            }
            source = .custom(name: location) { try await Self.download(location) }
        } else {
            guard FileManager.default.isReadableFile(atPath: location) else {
                throw ConfigurationError("--metadata", "cannot read \(location) (give a BLOB file or an https URL)")
            }
            source = .file(location)
        }
        service = MetadataService(source: source, verifier: verifier)
    }

    /// Loads and verifies the BLOB now; the start-up check.
    public func load() async throws(ConfigurationError) -> MetadataBLOB {
        do {
            return try await service.refresh()
        } catch {
            throw ConfigurationError("--metadata", "\(location): \(error.message)")
        }
    }

    private static func certificates(in path: String) throws(ConfigurationError) -> [Certificate] {
        let text = try ServerConfiguration.readText(path, for: "--metadata-trust-root")
        guard let certificates = try? PEMDocument.parseMultiple(pemString: text).map(Certificate.init(pemDocument:)),
            !certificates.isEmpty
        else {
            throw ConfigurationError("--metadata-trust-root", "\(path) holds no PEM certificate")
        }
        return certificates
    }

    private static func download(_ url: String) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/jwt, */*")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        guard response.status == .ok else {
            throw WebAuthnError(.metadataUnavailable, "\(url) answered HTTP \(response.status.code)")
        }
        return Array(buffer: try await response.body.collect(upTo: maximumBLOBSize))
    }
}
