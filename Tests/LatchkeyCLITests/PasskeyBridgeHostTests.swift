import Foundation
import LatchkeyTestSupport
import Testing
import WebAuthn

/// `latchkey passkey bridge`: the native side of a hybrid app over JSON lines.
@Suite("latchkey passkey bridge")
struct PasskeyBridgeHostTests {
    static let origin = "http://localhost:8080"
    let relyingParty = RelyingParty(id: "localhost", name: "Latchkey", origins: [Self.origin])
    /// Where a test's credential files go, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-bridge")

    /// One answer line: the echoed id and the envelope the reply string holds.
    struct Answer {
        let id: Any
        let envelope: [String: Any]

        var ok: Bool { envelope["ok"] as? Bool == true }
        var code: String? { envelope["code"] as? String }
        var errMsg: String? { envelope["errMsg"] as? String }
        var data: [String: Any]? { envelope["data"] as? [String: Any] }
    }

    /// Runs the command with `flags` on `lines` (JSON objects, or raw text) and reads every answer.
    func exchange(_ flags: [String], _ lines: [Any]) async throws -> [Answer] {
        let input = try lines.map { line in
            if let text = line as? String { return text }
            return String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self)
        }.joined(separator: "\n")
        let result = await CLIHarness.run(["passkey", "bridge"] + flags, stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result.output)")
        return try result.lines.map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys) == ["id", "reply"], "\(line)")
            let reply = try #require(object["reply"] as? String, "\(line)")
            let envelope = try #require(
                try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "\(reply)")
            return Answer(id: try #require(object["id"]), envelope: envelope)
        }
    }

    func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    func creation(userVerification: UserVerificationRequirement = .preferred) -> PublicKeyCredentialCreationOptions {
        relyingParty.beginRegistration(
            user: UserEntity(id: Array("alice".utf8), name: "alice", displayName: "Alice"),
            userVerification: userVerification
        )
    }

    func message(_ action: String, _ options: Any) -> [String: Any] {
        ["action": action, "options": options]
    }

    /// The error codes the command accepts for --fail-with, as its refusal of an unknown one lists them.
    static func knownCodes() async throws -> [String] {
        let result = await CLIHarness.run(["passkey", "bridge", "--origin", origin, "--fail-with", "bogus"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.badCode", "\(result.output)")
        let message = try #require(try result.json()["error"]?["message"]?.stringValue)
        let list = try #require(message.split(separator: "(known: ").last?.dropLast())
        return list.split(separator: ", ").map(String.init)
    }

    // MARK: Flags

    @Test("--print-script prints the page script and needs no origin")
    func printScript() async {
        let result = await CLIHarness.run(["passkey", "bridge", "--print-script"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("// Latchkey passkey bridge"))
        #expect(result.output.contains(#"webkit.messageHandlers["latchkey"]"#))
        #expect(result.output.contains(#"defineProperty(window, "latchkeyBridge""#))
    }

    @Test("without --origin: usage.missingOrigin")
    func missingOrigin() async {
        let result = await CLIHarness.run(["passkey", "bridge"], stdin: Array("{}\n".utf8))
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.missingOrigin", "\(result.output)")
    }

    @Test(
        "an --origin that is not an http(s) URL: usage.badOrigin",
        arguments: ["ftp://example.com", "localhost", "http://"])
    func badOrigin(_ origin: String) async {
        let result = await CLIHarness.run(["passkey", "bridge", "--origin", origin])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.badOrigin", "\(result.output)")
    }

    @Test("--fail-with takes exactly the stable codes; anything else is usage.badCode")
    func failWithCodes() async throws {
        #expect(
            try await Self.knownCodes() == [
                "cancelled", "notAllowed", "invalidOptions", "noCredentials", "excludedCredential", "unsupported",
                "timedOut",
                "preferSignInWithApple", "deviceNotConfigured", "credentialExchangeFailed", "failed",
            ])
    }

    @Test("--user-verification takes on or off")
    func userVerificationValues() async {
        let result = await CLIHarness.run([
            "passkey", "bridge", "--origin", Self.origin, "--user-verification", "maybe",
        ])
        #expect(result.status == 64, "\(result.output)")
    }

    @Test("--fail-with CODE answers every request, register and authenticate, with CODE")
    func failWith() async throws {
        for code in try await Self.knownCodes() {
            let answers = try await exchange(
                ["--origin", Self.origin, "--fail-with", code],
                [
                    ["id": 1, "body": message("register", try json(creation()))],
                    ["id": 2, "body": message("authenticate", try json(relyingParty.beginAuthentication()))],
                ])
            #expect(answers.count == 2)
            for answer in answers {
                #expect(!answer.ok && answer.code == code, "\(answer.envelope)")
                #expect(answer.errMsg?.contains("--fail-with \(code)") == true)
            }
        }
    }

    // MARK: The line exchange

    @Test("a registration and a sign-in the relying party verifies; ids come back as they were sent")
    func lineExchange() async throws {
        let creation = creation()
        let request = relyingParty.beginAuthentication()
        let answers = try await exchange(
            ["--origin", Self.origin],
            [
                ["id": 1, "body": message("register", try json(creation))],
                "",
                [
                    "id": "second", "body": message("authenticate", try json(request)),
                    "frame": ["origin": Self.origin, "isMainFrame": true],
                ],
            ])
        try #require(answers.count == 2)
        #expect(answers[0].id as? Int == 1)
        #expect(answers[1].id as? String == "second")
        let registration = try RegistrationCredential.parse(
            JSONSerialization.data(withJSONObject: try #require(answers[0].data)))
        let verified = try await relyingParty.finishRegistration(
            registration, expectedChallenge: creation.challenge.bytes)
        #expect(answers[0].data?["transports"] as? [String] == ["internal", "hybrid"])

        let assertion = try AuthenticationCredential.parse(
            JSONSerialization.data(withJSONObject: try #require(answers[1].data)))
        let record = CredentialRecord(
            id: verified.credentialID, publicKey: verified.publicKey, signCount: verified.signCount)
        let result = try relyingParty.finishAuthentication(
            assertion, expectedChallenge: request.challenge.bytes, credential: record)
        #expect(result.credentialID == verified.credentialID)
    }

    @Test("an options object in the body is read as the same options")
    func optionsObject() async throws {
        let options = try #require(try JSONSerialization.jsonObject(with: Data(try json(creation()).utf8)))
        let answers = try await exchange(["--origin", Self.origin], [["id": 1, "body": message("register", options)]])
        #expect(answers.first?.ok == true, "\(answers.first?.envelope ?? [:])")
    }

    @Test("malformed lines and bodies are answered with invalidOptions, and the next line still is answered")
    func malformed() async throws {
        let answers = try await exchange(
            ["--origin", Self.origin],
            [
                "not json",
                "[1, 2]",
                ["id": 1],
                ["id": 2, "body": "register"],
                ["id": 3, "body": message("delete", "{}")],
                ["id": 4, "body": ["action": "register"]],
                ["id": 5, "body": message("register", "{not json")],
                ["id": 6, "body": message("register", try json(creation()))],
            ])
        try #require(answers.count == 8)
        #expect(answers[0].id is NSNull && answers[1].id is NSNull)
        for answer in answers.dropLast() {
            #expect(answer.code == "invalidOptions" && answer.errMsg?.isEmpty == false, "\(answer.envelope)")
        }
        #expect(answers[4].errMsg?.contains(#"unknown action "delete""#) == true)
        #expect(answers[7].ok)
    }

    @Test(
        "the origin rule: another host, an iframe, plain http elsewhere than localhost or an opaque origin get notAllowed"
    )
    func originRule() async throws {
        let body = message("register", try json(creation()))
        let frames: [[String: Any]] = [
            ["origin": "http://127.0.0.1:8080"],
            ["origin": "https://localhost.evil.com"],
            ["origin": Self.origin, "isMainFrame": false],
            ["origin": "null"],
        ]
        let answers = try await exchange(
            ["--origin", Self.origin], frames.enumerated().map { ["id": $0.offset, "body": body, "frame": $0.element] })
        try #require(answers.count == frames.count)
        for answer in answers {
            #expect(answer.code == "notAllowed", "\(answer.envelope)")
        }
        let subframes = try await exchange(
            ["--origin", Self.origin, "--allow-subframes"],
            [
                ["id": 1, "body": body, "frame": ["origin": Self.origin, "isMainFrame": false]]
            ])
        #expect(subframes.first?.ok == true)
        let hosts = try await exchange(
            ["--origin", Self.origin, "--allowed-host", "example.com"],
            [
                ["id": 1, "body": body],
                ["id": 2, "body": body, "frame": ["origin": "https://login.example.com"]],
            ])
        #expect(hosts.map(\.code) == ["notAllowed", nil], "\(hosts.map(\.envelope))")
    }

    @Test("--user-verification off: user verification required is notAllowed")
    func userVerificationOff() async throws {
        let required = message("register", try json(creation(userVerification: .required)))
        let off = try await exchange(
            ["--origin", Self.origin, "--user-verification", "off"], [["id": 1, "body": required]])
        #expect(off.first?.code == "notAllowed")
        let on = try await exchange(
            ["--origin", Self.origin, "--user-verification", "on"], [["id": 1, "body": required]])
        #expect(on.first?.ok == true)
    }

    @Test("--store keeps passkeys from one run to the next; without it they live in memory")
    func store() async throws {
        let path = scratch.path("credentials")
        let register = ["id": 1, "body": message("register", try json(creation()))] as [String: Any]
        let signIn =
            ["id": 2, "body": message("authenticate", try json(relyingParty.beginAuthentication()))] as [String: Any]
        #expect(try await exchange(["--origin", Self.origin, "--store", path], [register]).first?.ok == true)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try await exchange(["--origin", Self.origin, "--store", path], [signIn]).first?.ok == true)
        #expect(try await exchange(["--origin", Self.origin], [signIn]).first?.code == "noCredentials")
    }

    @Test("the process answers each line as it arrives, before its input ends")
    func streaming() throws {
        let process = try ChildProcess(
            try BinaryTests.executable().path, arguments: ["passkey", "bridge", "--origin", Self.origin])
        defer { process.terminate() }
        // Should the command wait for the end of its input, this ends the wait and the test fails.
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        defer { watchdog.cancel() }

        let line = try JSONSerialization.data(withJSONObject: [
            "id": 7, "body": message("authenticate", #"{"challenge":"AAAA","rpId":"localhost"}"#),
        ])
        process.standardInput.write(line + Data("\n".utf8))
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = process.standardOutput.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        #expect(process.isRunning, "the answer came only after the process ended")
        let answer = try #require(try JSONSerialization.jsonObject(with: received) as? [String: Any])
        #expect(answer["id"] as? Int == 7)
        #expect((answer["reply"] as? String)?.contains(#""code":"noCredentials""#) == true)
        try process.standardInput.close()
        #expect(process.waitUntilExit() == 0)
    }
}
