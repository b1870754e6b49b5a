import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

/// Names under PRECIS UsernameCaseMapped, bounded in bytes, and no look-alike of an existing account (issue 14, finding 5).
@Suite("Look-alike names")
struct LookAlikeNameTests {
    private func startSignUp(_ server: ServerHarness, _ name: String) async throws -> Reply {
        try await server.app().send(
            .post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: name))
    }

    @Test func invisibleAndControlCharactersAreRefused() async throws {
        try await withServer(.sqlite) { server throws in
            for name in [
                "al\u{200B}ice", "alice\u{202E}", "\u{2066}alice", "al\u{00AD}ice", "ali\u{0007}ce",
                "al\u{3000}\u{3000}ice", "al\u{E000}ice",
            ] {
                let reply = try await startSignUp(server, name)
                #expect(
                    reply.errorCode == "user.invalidName",
                    "\(name.unicodeScalars.map { String($0.value, radix: 16) }): \(reply)")
            }
            #expect(
                try await startSignUp(server, "José Müller").status == .ok, "letters, marks and single spaces are fine")
            #expect(try await startSignUp(server, "grace.hopper+1@example.com").status == .ok)
        }
    }

    /// The review's finding 5: beside `victim`, each of these became a new account that renders as "victim".
    @Test func defaultIgnorableCodePointsAreRefused() async throws {
        try await withServer(.sqlite) { server throws in
            #expect(
                try await NativeClient(http: server.app()).signUp("victim", with: VirtualAuthenticator()).status
                    == .created)
            for name in [
                "vic\u{034F}tim", "victim\u{FE0F}", "vic\u{180B}tim", "vic\u{17B4}tim", "\u{115F}victim",
                "victim\u{1160}", "victim\u{E0100}", "vic\u{3164}tim", "victim\u{FFA0}",
            ] {
                let reply = try await startSignUp(server, name)
                #expect(
                    reply.errorCode == "user.invalidName",
                    "\(name.unicodeScalars.map { String($0.value, radix: 16) }): \(reply)")
            }
        }
    }

    @Test func lengthIsCountedInBytes() async throws {
        try await withServer(.sqlite) { server throws in
            let oneGrapheme = "a" + String(repeating: "\u{0301}", count: 15_000)
            #expect(oneGrapheme.count == 1)
            #expect(try await startSignUp(server, oneGrapheme).errorCode == "user.invalidName")
            #expect(
                try await startSignUp(server, String(repeating: "é", count: 129)).errorCode == "user.invalidName",
                "258 bytes")
            #expect(try await startSignUp(server, String(repeating: "é", count: 128)).status == .ok, "256 bytes")
            let display = try await server.app().send(
                .post, APIPaths.Native.registrationOptions,
                json: RegistrationOptionsRequest(
                    username: "carol", displayName: "C" + String(repeating: "\u{0301}", count: 300))
            )
            #expect(display.errorCode == "user.invalidDisplayName")
        }
    }

    @Test(arguments: Backend.available)
    func aLookAlikeOfAnExistingNameIsRefused(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            #expect(
                try await NativeClient(http: server.app()).signUp("alice", with: VirtualAuthenticator()).status
                    == .created)
            for name in ["\u{430}lice", "aIice", "\u{430}l\u{456}ce"] {
                let reply = try await startSignUp(server, name)
                #expect(reply.status == .conflict, "\(name): \(reply)")
                #expect(reply.errorCode == "user.nameConfusable", "\(name)")
            }
            let fullwidth = try await startSignUp(server, "\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}")
            #expect(fullwidth.errorCode == "user.nameTaken", "width-mapped, it is the same name")
            let password = try await server.app().send(
                .post, APIPaths.Native.passwordRegister,
                json: PasswordRegisterRequest(username: "\u{430}lice", password: "correct horse battery staple")
            )
            #expect(password.errorCode == "user.nameConfusable")
            let conformance = try await server.app().send(
                .post, APIPaths.Conformance.attestationOptions,
                json: ServerCreationOptionsRequest(username: "\u{430}lice", displayName: "A")
            )
            #expect(
                conformance.serverResponse?.errorCode == "user.nameConfusable"
                    || conformance.errorCode == "user.nameConfusable", "\(conformance)")
            #expect(try await startSignUp(server, "bob").status == .ok)
        }
    }

    @Test func aWidthVariantSignsInToTheAccount() async throws {
        try await withServer(.sqlite) { server throws in
            let phone = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("alice", with: phone).status == .created)
            let reply = try await NativeClient(http: server.app()).signIn("\u{FF41}lice", with: phone)
            #expect(reply.status == .ok, "\(reply)")
        }
    }
}
