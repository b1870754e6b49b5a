import ArgumentParser
import Foundation
import WebAuthn

/// `latchkey metadata lookup`: what is known about an authenticator model, from a verified BLOB and the
/// built-in passkey provider names.
struct MetadataLookup: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look an authenticator up by AAGUID: its name, metadata statement and status."
    )

    @Argument(help: ArgumentHelp("The authenticator's AAGUID (with or without hyphens).", valueName: "aaguid"))
    var aaguid: String

    @Option(
        help: ArgumentHelp(
            "A metadata BLOB file to look in (verified first); without it only the built-in names are consulted.",
            valueName: "blob-file"))
    var blob: String?

    @OptionGroup var options: MetadataBLOBOptions

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard let aaguid = AAGUID(string: aaguid) else {
            throw .usage("invalidAAGUID", "\"\(self.aaguid)\" is not an AAGUID (32 hex digits, hyphens optional)")
        }
        var entry: MetadataEntry?
        if let blob {
            entry = try await options.verifiedBLOB(blob, io: io).entry(for: aaguid)
        }
        io.emit(MetadataLookupReport(aaguid: aaguid, entry: entry, at: try options.time()))
    }
}

/// What `metadata lookup` prints.
struct MetadataLookupReport: Encodable {
    struct Status: Encodable {
        let status: String
        let effectiveDate: Date?
    }

    let aaguid: String
    let name: String?
    /// `metadata`, `built-in` or null: where ``name`` came from.
    let source: String?
    let protocolFamily: String?
    let authenticatorVersion: UInt32?
    let attestationTypes: [String]?
    let attestationRootCertificates: Int?
    let status: String?
    /// True when a report in effect says the authenticator is revoked or compromised.
    let compromised: Bool
    let statusReports: [Status]

    init(aaguid: AAGUID, entry: MetadataEntry?, at time: Date) {
        self.aaguid = aaguid.description
        name = AuthenticatorNames.name(for: aaguid, metadata: entry)
        source = entry?.description != nil ? "metadata" : (name != nil ? "built-in" : nil)
        let statement = entry?.metadataStatement
        protocolFamily = statement?.protocolFamily
        authenticatorVersion = statement?.authenticatorVersion
        attestationTypes = statement?.attestationTypes
        attestationRootCertificates = statement?.attestationRootCertificates.count
        status = entry?.currentStatus(at: time)?.rawValue
        compromised = entry?.compromiseReport(at: time) != nil
        statusReports = (entry?.statusReports ?? []).map {
            Status(status: $0.status.rawValue, effectiveDate: $0.effectiveDate)
        }
    }
}
