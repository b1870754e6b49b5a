import Foundation
import LatchkeyTestSupport
import Testing

@testable import LatchkeyServer

/// SMTP replies read without sockets: the parser alone.
@Suite("SMTP replies")
struct SMTPReplyParserTests {
    @Test("a multi-line reply split anywhere across reads is one reply, with its extensions and AUTH mechanisms")
    func multiLineAcrossReads() throws {
        let wire = Array(
            "250-mail.example.com\r\n250-STARTTLS\r\n250-AUTH LOGIN PLAIN\r\n250 SMTPUTF8\r\n220 go\r\n".utf8)
        for split in 0..<wire.count {
            var parser = SMTPReplyParser()
            let replies = try parser.feed(wire[..<split]) + parser.feed(wire[split...])
            #expect(replies.map(\.code) == [250, 220], "split at \(split)")
            #expect(replies.first?.extensions == ["STARTTLS", "AUTH", "SMTPUTF8"])
            #expect(replies.first?.authMechanisms == ["LOGIN", "PLAIN"])
        }
    }

    @Test("a bare LF ends a line too, and a code alone is a reply")
    func bareLineFeed() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed(Array("221\n".utf8)) == [SMTPReply(code: 221, lines: [""])])
    }

    @Test(
        "refused as temporary: a line that is no reply, a code that changes, a line too long, too many lines",
        arguments: [
            "hello\r\n", "250-a\r\n251 b\r\n", "25\r\n", "250+x\r\n", "199 x\r\n",
            String(repeating: "2", count: SMTPReplyParser.maximumLineLength + 1),
            String(repeating: "250-x\r\n", count: SMTPReplyParser.maximumLines + 1),
        ])
    func refusals(_ wire: String) {
        var parser = SMTPReplyParser()
        #expect(throws: MailDeliveryError.self) { try parser.feed(Array(wire.utf8)) }
        do {
            _ = try parser.feed(Array(wire.utf8))
        } catch {
            #expect(error.isTemporary)
        }
    }

    @Test("4xx is temporary, 5xx permanent")
    func failureKinds() {
        #expect(SMTPReply(code: 451, lines: ["later"]).failure(during: "RCPT").isTemporary)
        #expect(!SMTPReply(code: 550, lines: ["no"]).failure(during: "RCPT").isTemporary)
    }
}

/// `--smtp-url` as the server reads it.
@Suite("SMTP URLs")
struct SMTPConfigurationTests {
    @Test("STARTTLS by default on 587, TLS on 465 with smtps, percent-decoded credentials, a timeout")
    func parses() throws {
        guard case .smtp(let server) = try SMTPConfiguration(url: "smtp://ann%40x.example:p%3As%2Fs@mail.example.com")
        else {
            Issue.record("not smtp")
            return
        }
        #expect(server.port == 587 && server.security == .startTLS && server.timeout == .seconds(30))
        #expect(server.username == "ann@x.example" && server.password == "p:s/s")
        guard case .smtp(let tls) = try SMTPConfiguration(url: "smtps://mail.example.com?timeout=5") else { return }
        #expect(tls.port == 465 && tls.security == .implicitTLS && tls.username == nil && tls.timeout == .seconds(5))
        #expect(try SMTPConfiguration(url: "log:") == .log)
        guard case .smtp(let local) = try SMTPConfiguration(url: "smtp://127.0.0.1:25?tls=none") else { return }
        #expect(local.security == .none)
    }

    @Test(
        "refused: another scheme, no host, tls=none off loopback, an unknown parameter, a bad timeout, a user without password, a CA that cannot be read",
        arguments: [
            "http://mail.example.com", "smtp://", "smtp://mail.example.com?tls=none", "smtp://mail.example.com?x=1",
            "smtp://mail.example.com?timeout=0", "smtp://ann@mail.example.com",
            "smtp://mail.example.com?ca=/nonexistent",
        ])
    func refusals(_ url: String) {
        #expect(throws: ConfigurationError.self) { try SMTPConfiguration(url: url) }
    }

    @Test("the start line says where email goes, never the password; without --smtp-url it says email is off")
    func startLine() throws {
        var settings = ServerSettings()
        settings.smtpURL = "smtp://mailer:hunter2-secret@mail.example.com"
        let line = try #require(try ServerConfiguration(settings).email).description
        #expect(line == "Email: from no-reply@localhost via mail.example.com:587 (STARTTLS, AUTH as mailer)")
        #expect(!line.contains("hunter2"))
        #expect(EmailConfiguration.offLine.contains("email.disabled"))
    }

    @Test(
        "email settings: --email-from needs --smtp-url; the default sender is no-reply@<rp id>; a bad sender is refused"
    )
    func settings() throws {
        var settings = ServerSettings()
        settings.emailFrom = "me@example.com"
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
        settings.emailFrom = nil
        settings.smtpURL = "log:"
        #expect(try ServerConfiguration(settings).email?.from == "no-reply@localhost")
        settings.emailFrom = "me@example.com\r\nBcc: x@y"
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
    }
}

/// Messages as written after DATA.
@Suite("Mail messages")
struct MailMessageTests {
    @Test("headers, a non-ASCII subject RFC 2047-encoded, the body in base64 with CRLF lines")
    func rendering() throws {
        let message = try MailMessage(
            from: "no-reply@example.com", to: "ann@example.com", subject: "Code für Ann", text: "Zeile 1\nZeile 2\n")
        let text = message.rendered(date: Date(timeIntervalSince1970: 0), messageID: "id@example.com")
        #expect(text.contains("Subject: =?UTF-8?B?\(Data("Code für Ann".utf8).base64EncodedString())?=\r\n"))
        #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"))
        #expect(text.contains("Message-ID: <id@example.com>\r\n"))
        let body = text.components(separatedBy: "\r\n\r\n")[1].replacingOccurrences(of: "\r\n", with: "")
        #expect(Data(base64Encoded: body) == Data("Zeile 1\r\nZeile 2\r\n".utf8))
    }

    @Test(
        "addresses that would break a command or a header are refused",
        arguments: [
            "ann@example.com\r\nRCPT TO:<x@y>", "ann", "@example.com", "a b@example.com", "<ann>@example.com",
            "ann@", "ann@exa..mple", String(repeating: "a", count: 65) + "@example.com",
        ])
    func badAddresses(_ address: String) {
        #expect(throws: MailAddressError.self) {
            try MailMessage(from: "no-reply@example.com", to: address, subject: "s", text: "t")
        }
    }

    @Test("a subject with a line break loses it")
    func subjectLineBreak() throws {
        let message = try MailMessage(from: "a@example.com", to: "b@example.com", subject: "a\r\nBcc: c", text: "")
        #expect(message.subject == "aBcc: c")
    }
}

/// The SMTP transport against a real SMTP server (aiosmtpd) on loopback.
@Suite("SMTP delivery", SMTPTestServer.required)
struct SMTPTransportTests {
    static func transport(_ url: String) throws -> SMTPTransport {
        guard case .smtp(let server) = try SMTPConfiguration(url: url) else {
            throw SMTPTestServerError(description: "log")
        }
        return try SMTPTransport(server: server, heloName: "latchkey.test")
    }

    static func message(to: String = "ann@example.com") throws -> MailMessage {
        try MailMessage(from: "no-reply@example.com", to: to, subject: "123456 is your code ✓", text: "Hello\n.\nBye\n")
    }

    @Test("STARTTLS, then AUTH with a password full of URL characters, then the message, over TLS")
    func startTLS() async throws {
        let smtp = try await SMTPTestServer()
        try await Self.transport(smtp.url()).send(try Self.message())
        let received = try #require(try await smtp.waitForMessages(1).first)
        #expect(received.tls && received.login == "latchkey")
        #expect(received.from == "no-reply@example.com" && received.to == ["ann@example.com"])
        #expect(received.header("Subject") == "123456 is your code ✓")
        #expect(received.text == "Hello\r\n.\r\nBye\r\n", "a line holding a dot survives")
    }

    @Test("smtps: TLS from the first byte")
    func implicitTLS() async throws {
        let smtp = try await SMTPTestServer(mode: .implicitTLS)
        try await Self.transport(smtp.url(scheme: "smtps")).send(try Self.message())
        #expect(try await smtp.waitForMessages(1).first?.tls == true)
    }

    @Test("tls=none reaches a relay on loopback without TLS or AUTH")
    func plainOnLoopback() async throws {
        let smtp = try await SMTPTestServer(mode: .plain, user: nil, password: nil)
        try await Self.transport("smtp://127.0.0.1:\(smtp.port)?tls=none").send(try Self.message())
        #expect(try await smtp.waitForMessages(1).first?.tls == false)
    }

    @Test("a server without STARTTLS is refused, nothing is sent in clear")
    func noStartTLS() async throws {
        let smtp = try await SMTPTestServer(mode: .plain, user: nil, password: nil)
        await #expect(throws: MailDeliveryError.self) {
            try await Self.transport("smtp://localhost:\(smtp.port)?ca=\(smtp.caFile)").send(try Self.message())
        }
        #expect(smtp.messages().isEmpty)
    }

    /// What sending one message to `to` over `url` threw, or nil when it was sent.
    static func failure(_ url: String, to: String = "ann@example.com") async throws -> MailDeliveryError? {
        let (transport, message) = (try Self.transport(url), try Self.message(to: to))
        do {
            try await transport.send(message)
            return nil
        } catch {
            return error
        }
    }

    @Test("a certificate from a CA not trusted fails the handshake")
    func untrustedCertificate() async throws {
        let smtp = try await SMTPTestServer()
        let failure = try await Self.failure("smtp://latchkey:x@localhost:\(smtp.port)")
        #expect(failure?.isTemporary == true, "\(String(describing: failure))")
        #expect(smtp.messages().isEmpty)
    }

    @Test("a wrong password, and a refused recipient, are permanent; a deferred recipient is temporary")
    func failures() async throws {
        let smtp = try await SMTPTestServer()
        let password = try await Self.failure(smtp.url(password: "wrong"))
        #expect(password?.isTemporary == false, "\(String(describing: password))")
        let refused = try await Self.failure(smtp.url(), to: "reject@example.com")
        #expect(refused?.isTemporary == false && refused?.description.contains("550") == true)
        let deferred = try await Self.failure(smtp.url(), to: "later@example.com")
        #expect(deferred?.isTemporary == true && deferred?.description.contains("451") == true)
        #expect(try await Self.failure(smtp.url(), to: "later@example.com") == nil)
        #expect(try await smtp.waitForMessages(1).first?.to == ["later@example.com"])
    }

    @Test("a server that does not answer is given up at the timeout, as a temporary failure")
    func timeout() async throws {
        // TLS from the first byte waits for the client's hello; a client expecting a greeting waits for the server's.
        // (How soon it gives up is checked in the timing step: EmailTimingTests.)
        let silent = try await SMTPTestServer(mode: .implicitTLS)
        let failure = try await Self.failure("smtp://localhost:\(silent.port)?timeout=1&ca=\(silent.caFile)")
        #expect(failure?.isTemporary == true, "\(String(describing: failure))")
    }
}
