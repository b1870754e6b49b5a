import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import NIOCore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// The web page's routes: the page and its files with their types and security headers, revalidation, 404s,
/// the page's configuration, and that the page's own writes are CSRF-safe. (The page itself runs in Chromium
/// in Tests/Browser.)
@Suite("Web page")
struct WebPageTests {
    /// Every file the page is made of, with the type it must be served as.
    private static let files: [(path: String, type: String)] = [
        ("/", "text/html; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/api.js", "text/javascript; charset=utf-8"),
        ("/base64url.js", "text/javascript; charset=utf-8"),
        ("/messages.js", "text/javascript; charset=utf-8"),
        ("/webauthn.js", "text/javascript; charset=utf-8"),
    ]

    private func expectSecurityHeaders(
        _ reply: Reply, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let csp = reply.headers[.contentSecurityPolicy] ?? ""
        for directive in [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
            "form-action 'self' https://appleid.apple.com", "object-src 'none'",
        ] {
            #expect(csp.contains(directive), "\(path): CSP \(csp) lacks \(directive)", sourceLocation: sourceLocation)
        }
        #expect(
            !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval") && !csp.contains("*"), "\(path): \(csp)",
            sourceLocation: sourceLocation)
        #expect(reply.headers[.xContentTypeOptions] == "nosniff", "\(path)", sourceLocation: sourceLocation)
        let referrerPolicy = reply.headers.first { $0.name.canonicalName == "referrer-policy" }?.value
        #expect(referrerPolicy == "same-origin", "\(path)", sourceLocation: sourceLocation)
    }

    @Test func thePageAndItsFilesHaveTheirTypesAndSecurityHeaders() async throws {
        try await withServer(.sqlite) { server in
            let browser = server.browser()
            for (path, type) in Self.files {
                let reply = try await browser.send(.get, path)
                #expect(reply.status == .ok, "\(path): \(reply.status)")
                #expect(reply.headers[.contentType] == type, "\(path)")
                #expect(reply.headers[.cacheControl] == "no-cache", "\(path)")
                #expect(reply.headers[.eTag]?.hasPrefix("\"") == true, "\(path)")
                #expect(!reply.body.isEmpty, "\(path)")
                expectSecurityHeaders(reply, path)
            }
            let page = try await browser.send(.get, "/")
            #expect(page.text.contains(#"<script type="module" src="app.js"></script>"#))
            #expect(
                page.text.contains(#"autocomplete="username webauthn""#),
                "the sign-in field offers passkeys in autofill")
        }
    }

    @Test func aFileIsRevalidatedByItsETagAndAnswersHEAD() async throws {
        try await withServer(.sqlite) { server in
            let browser = server.browser()
            let first = try await browser.send(.get, "/app.js")
            let etag = try #require(first.headers[.eTag])
            let cached = try await browser.send(.get, "/app.js", headers: [.ifNoneMatch: etag])
            #expect(cached.status == .notModified)
            #expect(cached.body.isEmpty)
            #expect(cached.headers[.eTag] == etag)
            expectSecurityHeaders(cached, "/app.js (304)")
            let listed = try await browser.send(.get, "/app.js", headers: [.ifNoneMatch: #""stale", W/\#(etag)"#])
            #expect(listed.status == .notModified)
            let stale = try await browser.send(.get, "/app.js", headers: [.ifNoneMatch: #""0123""#])
            #expect(stale.status == .ok)
            #expect(stale.body == first.body)
            let otherFile = try await browser.send(.get, "/app.css", headers: [.ifNoneMatch: etag])
            #expect(otherFile.status == .ok, "an ETag names one file's content only")
            let head = try await browser.send(.head, "/app.js")
            #expect(head.status == .ok)
            #expect(head.body.isEmpty)
            #expect(head.headers[.eTag] == etag)
            #expect(head.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(head.headers[.contentLength] == String(first.body.count))
        }
    }

    @Test(arguments: ["/nope.js", "/index.html", "/Web/app.js", "/app.js/x", "/..%2FPackage.swift", "/.hidden"])
    func anUnknownPathIsA404JSONError(_ path: String) async throws {
        try await withServer(.sqlite) { server in
            let reply = try await server.browser().send(.get, path)
            #expect(reply.status == .notFound)
            #expect(reply.errorCode == "request.notFound")
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test func theHTMLHasNoInlineScriptStyleOrHandlers() throws {
        let index = try #require(WebAssets.bundled.files["index.html"])
        let html = String(buffer: index.body)
        let scripts = html.ranges(of: "<script").map { html[$0.lowerBound...].prefix { $0 != ">" } }
        #expect(!scripts.isEmpty)
        for script in scripts {
            #expect(script.contains(" src="), "inline script: \(script)")
        }
        #expect(!html.contains("<style"), "inline style element")
        #expect(!html.contains(" style="), "inline style attribute")
        #expect(html.firstMatch(of: /\son[a-z]+\s*=/) == nil, "inline event handler")
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("http://") && !html.contains("https://"), "nothing is loaded from another site")
    }

    @Test func everyModuleTheScriptsImportIsServed() async throws {
        let scripts = WebAssets.bundled.files.filter { $0.key.hasSuffix(".js") }
        #expect(scripts.count >= 5)
        try await withServer(.sqlite) { server in
            let browser = server.browser()
            for (name, file) in scripts {
                for match in String(buffer: file.body).matches(of: /from "\.\/([A-Za-z0-9_-]+\.js)"/) {
                    let reply = try await browser.send(.get, "/" + match.output.1)
                    #expect(reply.status == .ok, "\(name) imports \(match.output.1), which is not served")
                }
            }
        }
    }

    @Test func theScriptsCallTheServersPaths() throws {
        let api = String(buffer: try #require(WebAssets.bundled.files["api.js"]).body)
        let paths = [
            APIPaths.Native.registrationOptions, APIPaths.Native.registrationVerify,
            APIPaths.Native.authenticationOptions,
            APIPaths.Native.authenticationVerify, APIPaths.Native.me, APIPaths.Native.passkeys,
            APIPaths.Native.passkey(id: ""),
            APIPaths.Native.addPasskeyOptions, APIPaths.Native.addPasskeyVerify, APIPaths.Native.logout,
            APIPaths.Native.account, APIPaths.Native.emails, APIPaths.Native.emailVerify, APIPaths.Native.emailPrimary,
            APIPaths.Native.emailRemove, APIPaths.Native.recoveryEmail, APIPaths.Native.recoveryOptions,
            APIPaths.Web.config,
        ]
        for path in paths {
            #expect(api.contains("\"\(path)\""), "api.js does not call \(path)")
        }
    }

    @Test func theConfigurationSaysWhetherToOfferSignInWithAppleAndEmail() async throws {
        try await withServer(.sqlite) { server in
            let reply = try await server.browser().send(.get, APIPaths.Web.config)
            #expect(reply.status == .ok)
            #expect(reply.text == #"{"appleSignIn":false,"email":false,"rpName":"Latchkey"}"#)
            #expect(reply.headers[.cacheControl] == "no-store")
        }
        var settings = ServerSettings.test
        settings.smtpURL = "log:"
        try await withServer(.sqlite, settings: settings) { server in
            let reply = try await server.browser().send(.get, APIPaths.Web.config)
            #expect(reply.text == #"{"appleSignIn":false,"email":true,"rpName":"Latchkey"}"#)
        }
        let router = Router(context: ServerRequestContext.self)
        WebPageRoutes(appleSignIn: true, rpName: "Example <Bank>").add(to: router.group())
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: APIPaths.Web.config, method: .get)
            #expect(String(buffer: response.body) == #"{"appleSignIn":true,"email":false,"rpName":"Example <Bank>"}"#)
        }
    }

    @Test(arguments: Backend.available)
    func thePagesAccountAnswersAreNotCachedAndItsWritesNeedTheOrigin(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let browser = server.browser()
            let signUp = try await NativeClient(http: browser).signUp("alice", with: VirtualAuthenticator())
            #expect(signUp.status == .created, "\(signUp)")
            for path in [APIPaths.Native.me, APIPaths.Native.passkeys] {
                let reply = try await browser.send(.get, path)
                #expect(reply.status == .ok)
                #expect(reply.headers[.cacheControl] == "no-store", "\(path)")
            }
            let list: PasskeyList = try await browser.send(.get, APIPaths.Native.passkeys).decode()
            let passkey = try #require(list.passkeys.first)

            // Another site's page can make the browser send the cookie, but not this site's Origin.
            await browser.setOrigin("https://evil.example")
            let rename = try await browser.send(
                .patch, APIPaths.Native.passkey(id: passkey.id), json: RenamePasskeyRequest(name: "pwned"))
            #expect(rename.status == .forbidden)
            #expect(rename.errorCode == "request.originNotAllowed")
            let delete = try await browser.send(.delete, APIPaths.Native.account)
            #expect(delete.errorCode == "request.originNotAllowed")

            await browser.setOrigin(ServerHarness.origin)
            let after: PasskeyList = try await browser.send(.get, APIPaths.Native.passkeys).decode()
            #expect(after.passkeys == list.passkeys, "the refused requests changed nothing")
            #expect(try await browser.send(.get, APIPaths.Native.me).status == .ok)
        }
    }
}
