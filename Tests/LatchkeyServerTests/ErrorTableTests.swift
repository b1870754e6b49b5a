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

    @Test("every code the server answers is listed in docs/SERVER.md")
    func everyCodeIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/SERVER.md"), encoding: .utf8)
        var codes = Set(CeremonyError.examples.map { APIError($0).code })
        codes.formUnion([StoreError.Code.notFound, .conflict, .expired, .invalidRecord, .unavailable].map(\.rawValue))
        codes.insert("internalError")
        // Every code literal in the server's sources: "<area>.<name>", not followed by a colon (a log metadata key).
        let sources = root.appendingPathComponent("Sources/LatchkeyServer")
        let pattern = try Regex(
            #""((?:apple|ceremony|credential|passkey|password|request|session|user|metrics)\.[a-zA-Z]+)"(?!:)"#)
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let code = match.output[1].substring { codes.insert(String(code)) }
            }
        }
        #expect(codes.count > 30)
        let missing = codes.filter { !docs.contains("`\($0)`") }.sorted()
        #expect(missing.isEmpty, "codes not listed in docs/SERVER.md: \(missing)")
    }
}
