import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing

@testable import LatchkeyServer

/// The OpenAPI document (Sources/LatchkeyServer/Resources/Web/openapi.json, written by scripts/openapi.py): it names
/// exactly the router's operations, the server serves it at `GET /openapi.json`, and it is valid OpenAPI 3.1.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let documentURL = repository.appendingPathComponent("Sources/LatchkeyServer/Resources/Web/openapi.json")
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// `METHOD path` for every operation the document describes.
    static func documentedOperations() throws -> Set<String> {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: documentURL)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]], "the document has no paths")
        return Set(
            paths.flatMap { path, item in
                item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
            })
    }

    @Test("every route the router registers is in the document, and every documented operation is routed")
    func routesAndDocumentAgree() async throws {
        try await withServer(.sqlite) { server in
            let services = ServerApplication.Services(
                configuration: server.configuration, store: server.store, metrics: ServerMetrics(),
                logger: Logger(label: "latchkey.server"))
            let router = ServerApplication.makeRouter(
                configuration: server.configuration, services: services, metrics: ServerMetrics(),
                logger: Logger(label: "latchkey.server"))
            let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
            let documented = try Self.documentedOperations()
            let undocumented = routed.subtracting(documented).sorted()
            let unrouted = documented.subtracting(routed).sorted()
            #expect(
                undocumented.isEmpty,
                "routes missing from openapi.json (run python3 scripts/openapi.py after adding them there): \(undocumented.joined(separator: ", "))"
            )
            #expect(
                unrouted.isEmpty, "operations in openapi.json that no route serves: \(unrouted.joined(separator: ", "))"
            )
            #expect(routed.count > 40)
        }
    }

    @Test("GET /openapi.json serves the committed document as JSON")
    func served() async throws {
        try await withServer(.sqlite) { server in
            let reply = try await server.browser().send(.get, "/openapi.json")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "application/json; charset=utf-8")
            #expect(Data(reply.body) == (try Data(contentsOf: Self.documentURL)))
        }
    }

    @Test(
        "the document is valid OpenAPI 3.1 (openapi-spec-validator) and what scripts/openapi.py writes",
        .enabled(
            "set LATCHKEY_TEST_PYTHON to the python of scripts/python-env.sh (it has openapi-spec-validator)"
        ) { python != nil })
    func valid() async throws {
        let validator = try await Self.run(
            [
                "-c",
                "import sys; from openapi_spec_validator import validate; from openapi_spec_validator.readers import read_from_filename; "
                    + "validate(read_from_filename(sys.argv[1])[0]); print('valid')", Self.documentURL.path,
            ]
        )
        #expect(validator.status == 0, "\(validator.output)")
        #expect(validator.output.contains("valid"))
        let check = try await Self.run([Self.repository.appendingPathComponent("scripts/openapi.py").path, "--check"])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("the display name's and passkey label's pattern refuses exactly the characters the server refuses")
    func printablePattern() throws {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.documentURL)) as? [String: Any]
        let schemas = try #require((document?["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func pattern(_ schema: String, _ property: String) throws -> String {
            let properties = (schemas[schema] as? [String: Any])?["properties"] as? [String: Any]
            return try #require(
                (properties?[property] as? [String: Any])?["pattern"] as? String, "\(schema).\(property)")
        }
        let label = try pattern("RenamePasskeyRequest", "name")
        #expect(try pattern("RegistrationOptionsRequest", "displayName") == label)

        // "^[^…]*$": each item a regex escape \uXXXX or a character itself, alone or as the start of a range.
        let prefix = "^[^"
        let suffix = "]*$"
        try #require(label.hasPrefix(prefix) && label.hasSuffix(suffix), "\(label)")
        var items = Substring(label.dropFirst(prefix.count).dropLast(suffix.count)).unicodeScalars[...]
        func item() throws -> UInt32 {
            if items.first == "\\" {
                let hex = String(String.UnicodeScalarView(items.dropFirst(2).prefix(4)))
                items = items.dropFirst(6)
                return try #require(UInt32(hex, radix: 16), "escape \\u\(hex)")
            }
            let character = try #require(items.first, "a range without its end")
            items = items.dropFirst()
            return character.value
        }
        var listed = Set<UInt32>()
        while !items.isEmpty {
            let low = try item()
            var high = low
            if items.first == "-" {
                items = items.dropFirst()
                high = try item()
            }
            listed.formUnion(low...high)
        }
        let refused = Set((UInt32(0)...0x10FFFF).filter { Unicode.Scalar($0).map(PrintableText.isRefused) ?? false })
        #expect(listed.subtracting(refused).isEmpty, "listed but accepted: \(listed.subtracting(refused).sorted())")
        #expect(refused.subtracting(listed).isEmpty, "refused but not listed: \(refused.subtracting(listed).sorted())")
    }

    static var python: String? {
        ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let (status, output, _) = try await ChildProcess.run(
            try #require(python), arguments: arguments, mergingErrors: true)
        return (status, String(decoding: output, as: UTF8.self))
    }
}
