import ArgumentParser
import Foundation
import WebAuthn

/// `latchkey metadata verify`: checks an MDS3 BLOB's signature, chain, CRLs and freshness and summarises it.
struct MetadataVerify: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a FIDO MDS3 BLOB (JWS) and print its number, nextUpdate and entry count."
    )

    @Argument(
        help: ArgumentHelp(
            "The BLOB file as downloaded from the metadata service; - for standard input.", valueName: "blob-file"))
    var blobFile: String

    @OptionGroup var options: MetadataBLOBOptions

    func execute(_ io: CommandIO) async throws(CommandError) {
        io.emit(MetadataSummary(try await options.verifiedBLOB(blobFile, io: io)))
    }
}

/// What `metadata verify` prints.
struct MetadataSummary: Encodable {
    let number: Int
    let nextUpdate: Date
    let entries: Int
    /// Entries by protocol family (`fido2`, `u2f`, `uaf`).
    let protocolFamilies: [String: Int]
    let legalHeader: String?

    init(_ blob: MetadataBLOB) {
        number = blob.number
        nextUpdate = blob.nextUpdate
        entries = blob.entries.count
        protocolFamilies = blob.entries.reduce(into: [:]) { counts, entry in
            counts[entry.metadataStatement?.protocolFamily ?? "unknown", default: 0] += 1
        }
        legalHeader = blob.legalHeader
    }
}
