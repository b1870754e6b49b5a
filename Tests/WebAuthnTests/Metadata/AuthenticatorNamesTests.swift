import Foundation
import Testing
import WebAuthn

@Suite("Authenticator names")
struct AuthenticatorNamesTests {
    @Test(
        "known passkey providers are named",
        arguments: [
            ("fbfc3007-154e-4ecc-8c0b-6e020557d7bd", "iCloud Keychain"),
            ("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", "Google Password Manager"),
            ("08987058-cadc-4b81-b6e1-30de50dcbe96", "Windows Hello"),
            ("bada5566-a7aa-401f-bd96-45619a55120d", "1Password"),
            ("d548826e-79b4-db40-a3d8-11116f7e8349", "Bitwarden"),
            ("531126d6-e717-415c-9320-3d9aa6981239", "Dashlane"),
            ("adce0002-35bc-c60a-648b-0b25f1f05503", "Chrome on Mac"),
            ("53414d53-554e-4700-0000-000000000000", "Samsung Pass"),
            ("FDB141B2-5D84-443E-8A35-4698C205A502", "KeePassXC"),
        ])
    func known(aaguid: String, name: String) throws {
        #expect(AuthenticatorNames.name(for: try #require(AAGUID(string: aaguid))) == name)
    }

    @Test("unknown and zero AAGUIDs have no name")
    func unknown() throws {
        #expect(AuthenticatorNames.name(for: .zero) == nil)
        #expect(
            AuthenticatorNames.name(for: try #require(AAGUID(string: "01020304-0506-0708-090a-0b0c0d0e0f10"))) == nil)
    }

    @Test("the metadata statement's description wins over the table")
    func metadataFirst() async throws {
        let aaguid = try #require(AAGUID(string: "bada5566-a7aa-401f-bd96-45619a55120d"))
        let entry = MetadataEntry(
            aaguid: aaguid, metadataStatement: MetadataStatement(description: "1Password (metadata)"), statusReports: []
        )
        #expect(AuthenticatorNames.name(for: aaguid, metadata: entry) == "1Password (metadata)")
        let blob = MetadataBLOB(number: 1, nextUpdate: .distantFuture, entries: [entry])
        #expect(await AuthenticatorNames.name(for: aaguid, in: blob) == "1Password (metadata)")
        let other = try #require(AAGUID(string: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd"))
        #expect(await AuthenticatorNames.name(for: other, in: blob) == "iCloud Keychain")
    }
}
