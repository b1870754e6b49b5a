import Foundation
import Testing

@testable import LatchkeyStore

/// Reading a credential from the columns of an account's row on PostgreSQL (a `LEFT JOIN`, so all of them may be NULL).
@Suite("PostgreSQL credential columns")
struct PostgresRecordsTests {
    private static let full: StoredCredential.PostgresColumns = (
        Data([1, 2]), UUID(), Data([3]), -7, 4, UUID(), ["usb"], true, false, "none", true, nil, nil,
        Date(timeIntervalSince1970: 10), nil
    )

    @Test("a row whose credential columns are all NULL (an account without credentials) has no credential")
    func allNullIsNoCredential() throws {
        let none: StoredCredential.PostgresColumns = (
            nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil
        )
        #expect(try StoredCredential(postgresColumns: none) == nil)
    }

    @Test("the columns read back as the credential, optional ones absent")
    func fullColumnsAreTheCredential() throws {
        let credential = try #require(try StoredCredential(postgresColumns: Self.full))
        #expect(credential.id == Data([1, 2]) && credential.signCount == 4 && credential.algorithm == -7)
        #expect(credential.discoverable == nil && credential.label == nil && credential.lastUsedAt == nil)
    }

    @Test("a credential with a required column NULL, or a count out of range, is a corrupt record")
    func missingRequiredColumnIsCorrupt() {
        var noUser = Self.full
        noUser.1 = nil
        var noCreatedAt = Self.full
        noCreatedAt.13 = nil
        var badCount = Self.full
        badCount.4 = -1
        for columns in [noUser, noCreatedAt, badCount] {
            #expect {
                _ = try StoredCredential(postgresColumns: columns)
            } throws: { error in
                (error as? StoreError)?.code == .corruptRecord
            }
        }
    }
}
