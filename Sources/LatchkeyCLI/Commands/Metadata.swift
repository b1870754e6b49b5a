import ArgumentParser

/// `latchkey metadata`: FIDO Metadata Service (MDS3) BLOBs and authenticator names.
struct Metadata: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a FIDO metadata BLOB, or look an authenticator up by AAGUID.",
        subcommands: [MetadataVerify.self, MetadataLookup.self]
    )
}
