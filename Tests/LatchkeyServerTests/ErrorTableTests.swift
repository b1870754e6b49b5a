import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import WebAuthn

@testable import LatchkeyServer

/// The one table from domain errors to what the client is told, the body shape chosen by route group, and the list of
/// codes in docs/SERVER.md.
@Suite("Error table")
struct ErrorTableTests {
    @Test("every ceremony error has its own status and stable code", arguments: CeremonyError.examples)
    func ceremonyErrors(_ error: CeremonyError) {
        let expected: (HTTPResponse.Status, String) =
            switch error {
            case .notFound: (.notFound, "ceremony.notFound")
            case .expired: (.gone, "ceremony.expired")
            case .nameTaken: (.conflict, "user.nameTaken")
            case .nameConfusable: (.conflict, "user.nameConfusable")
            case .credentialNotFound: (.notFound, "credential.notFound")
            case .concurrentSignIn: (.conflict, "credential.concurrentSignIn")
            case .sessionRequired: (.unauthorized, "session.required")
            case .wrongUser: (.forbidden, "session.wrongUser")
            }
        let mapped = APIError(error)
        #expect(mapped.status == expected.0)
        #expect(mapped.code == expected.1)
        #expect(!mapped.message.isEmpty)
        if case .credentialNotFound = error {
            #expect(mapped.credentialID == "AQ" && mapped.rpID == "example.com")
        }
    }

    @Test(
        "store errors map by code; an unexpected one is a 500 with no detail",
        arguments: [
            (StoreError(.notFound, "x"), 404, "store.notFound"), (StoreError(.conflict, "x"), 409, "store.conflict"),
            (StoreError(.expired, "x"), 410, "store.expired"),
            (StoreError(.invalidRecord, "x"), 400, "store.invalidRecord"),
            (StoreError(.unavailable, "secret detail"), 503, "store.unavailable"),
            (StoreError(.databaseError, "secret detail"), 500, "internalError"),
        ])
    func storeErrors(_ error: StoreError, status: Int, code: String) {
        let mapped = APIError(error)
        #expect(mapped.status.code == status)
        #expect(mapped.code == code)
        #expect(!mapped.message.contains("secret detail"))
    }

    @Test("WebAuthn errors are 400 with the library's code; an unknown error is 500 internalError")
    func libraryAndUnknownErrors() {
        let webAuthn = APIError(WebAuthnError(.challengeMismatch, "the challenge differs"))
        #expect(webAuthn.status == .badRequest && webAuthn.code == "challengeMismatch")
        struct Unexpected: Error {}
        let unknown = APIError(Unexpected())
        #expect(
            unknown.status == .internalServerError && unknown.code == "internalError"
                && unknown.message == "internal error")
    }

    @Test("the conformance group answers its own body shape; the rest of the router the native one")
    func bodyShapeByRouteGroup() async throws {
        try await withServer(.sqlite) { server in
            let conformance = try await server.app().send(.post, APIPaths.Conformance.assertionResult, text: "{}")
            #expect(conformance.status == .badRequest)
            #expect(conformance.serverResponse?.status == .failed)
            #expect(conformance.serverResponse?.errorCode == "ceremony.cookieMissing")

            let native = try await server.app().send(.post, APIPaths.Native.authenticationVerify, text: "{}")
            #expect(native.status == .badRequest)
            #expect(native.errorCode != nil, "\(native)")
            #expect(native.serverResponse?.status == nil)

            // The group's own middleware (cross-origin protection, the body limit) answers in the group's format too.
            let crossSite = try await server.app().send(
                .post, APIPaths.Conformance.assertionOptions, text: "{}",
                headers: [.secFetchSiteForTests: "cross-site", .origin: "https://evil.example"]
            )
            #expect(crossSite.status == .forbidden)
            #expect(crossSite.serverResponse?.errorCode == "request.originNotAllowed", "\(crossSite)")
            let nativeCrossSite = try await server.app().send(
                .post, APIPaths.Native.authenticationOptions, text: "{}",
                headers: [.secFetchSiteForTests: "cross-site", .origin: "https://evil.example"]
            )
            #expect(nativeCrossSite.errorCode == "request.originNotAllowed", "\(nativeCrossSite)")

            let unmatched = try await server.app().send(.get, "/no/such/route")
            #expect(unmatched.status == .notFound)
            #expect(unmatched.errorCode == "request.notFound")
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// SERVER.md's code tables: each row's codes (a cell may list several) and its status cell.
    static func documentedRows() throws -> [(codes: [String], status: String)] {
        let docs = try String(contentsOf: root.appendingPathComponent("docs/SERVER.md"), encoding: .utf8)
        let code = try Regex(#"`([a-zA-Z]+(?:\.[a-zA-Z*]+)?)`"#)
        return docs.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { return nil }
            let codes = cells[1].matches(of: code).compactMap { $0.output[1].substring.map(String.init) }
            return (codes, cells[2])
        }
    }

    @Test("the catalogue and docs/SERVER.md agree: every code listed, at the status the table gives it")
    func catalogueIsDocumented() throws {
        let rows = try Self.documentedRows()
        var documented: [String: String] = [:]
        for row in rows {
            for code in row.codes { documented[code] = row.codes.count == 1 ? row.status : "" }
        }
        var codes = Set(ServerErrorCode.allCases.map(\.rawValue))
        codes.formUnion(CeremonyError.examples.map { APIError($0).code })
        codes.formUnion(
            [StoreError.Code.notFound, .conflict, .expired, .invalidRecord, .unavailable, .busy].map(\.rawValue))
        #expect(codes.count > 50)
        let missing = codes.filter { documented[$0] == nil }.sorted()
        #expect(missing.isEmpty, "codes not listed in docs/SERVER.md: \(missing)")
        for code in ServerErrorCode.allCases {
            guard let status = documented[code.rawValue], !status.isEmpty else { continue }
            let expected = String(APIError.status(of: code).code)
            #expect(status.contains(expected), "\(code.rawValue): SERVER.md says \(status), the table \(expected)")
        }
    }

    /// The error boundary and the layering, as rules on the sources: a code is written once, in the catalogue (not as
    /// a string where an error is made), and routes call services, never the store.
    @Test("no code literal where an error is made, and no store call in Routes/")
    func boundaryRules() throws {
        let sources = Self.root.appendingPathComponent("Sources/LatchkeyServer")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        let literalCode = try Regex(#"(APIError|ServiceError|self\.init)\(\s*[^)]*code:\s*""#)
        let storeCall = try Regex(#"\bstore\.[a-z]"#)
        var literals: [String] = []
        var storeCalls: [String] = []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains(literalCode) { literals.append(file.lastPathComponent) }
            if file.deletingLastPathComponent().lastPathComponent == "Routes" {
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                {
                    if line.contains(storeCall) { storeCalls.append("\(file.lastPathComponent): \(line)") }
                }
            }
        }
        #expect(literals.isEmpty, "errors made with a literal code: \(literals)")
        #expect(storeCalls.isEmpty, "routes calling the store: \(storeCalls)")
    }
}
