import ArgumentParser
import Foundation
import LatchkeyAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `latchkey admin`: calls a server's admin API (`latchkey serve --admin-port`) and prints its JSON answer.
///
/// ```sh
/// latchkey admin --url http://127.0.0.1:9090 --key-file ops.key find --name alice
/// latchkey admin --url … --key-file ops.key show 6f1c…   # passkeys, sessions, addresses
/// latchkey admin --url … --key-file ops.key end-sessions 6f1c…
/// latchkey admin --url … --key-file ops.key recovery-link 6f1c… --lifetime 3600
/// latchkey admin --url … --key-file ops.key audit 6f1c… --since 2026-11-01T00:00:00Z --limit 50
/// ```
struct Admin: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Call a server's admin API: find, show or delete users, remove passkeys, end sessions, issue recovery links, read the audit log.",
        discussion: """
            ACTION is one of: find (with --name, --email, --credential-id or --apple-id), show ID, delete ID,
            remove-passkey ID CREDENTIAL_ID (with --force for the last way in), end-sessions ID, recovery-link ID,
            audit [ID] (with --since, --until, --before, --limit).
            The key is read from --key-file (its only line, or the secret after 'name:') or LATCHKEY_ADMIN_KEY.
            """)

    @Option(help: "The admin listener's base URL, e.g. http://127.0.0.1:9090.")
    var url: String

    @Option(help: "A file holding the admin key's secret (or name:secret; the first line that is not a # comment).")
    var keyFile: String?

    @Argument(help: "What to do: find, show, delete, remove-passkey, end-sessions, recovery-link, audit.")
    var action: String

    @Argument(help: "The user's ID, and for remove-passkey the credential ID.")
    var ids: [String] = []

    @Option(help: "find: the account name.") var name: String?
    @Option(help: "find: a verified email address.") var email: String?
    @Option(help: "find: a credential ID (base64url).") var credentialId: String?
    @Option(help: "find: an Apple ID (the token's sub).") var appleId: String?
    @Flag(help: "remove-passkey: remove the user's last way in too.") var force = false
    @Option(help: "recovery-link: seconds the link works.") var lifetime: Int?
    @Option(help: "recovery-link: the origin whose page the link opens.") var origin: String?
    @Option(help: "audit: events at or after this ISO 8601 time.") var since: String?
    @Option(help: "audit: events before this ISO 8601 time.") var until: String?
    @Option(help: "audit: events before this sequence (the previous page's next).") var before: String?
    @Option(help: "audit: at most this many events (1 to 1000, default 100).") var limit: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        let secret = try readKey()
        let (method, path, body) = try request()
        guard let base = URL(string: url), base.scheme == "http" || base.scheme == "https",
            let target = URL(string: path, relativeTo: base)
        else { throw .usage("url", "'\(url)' is not an http(s) URL") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let status: Int
        do {
            let (answer, response) = try await URLSession.shared.data(for: request)
            (data, status) = (answer, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch {
            throw CommandError(
                code: "admin.unreachable", message: "\(url): \(error.localizedDescription)", exitStatus: 1)
        }
        let json = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) ?? [String: String]()
        guard (200..<300).contains(status) else {
            let error = (json as? [String: Any])?["error"] as? [String: Any]
            throw CommandError(
                code: error?["code"] as? String ?? "http.\(status)",
                message: error?["message"] as? String ?? "the admin API answered \(status)", exitStatus: 1)
        }
        if data.isEmpty {
            io.line(#"{"status":"ok"}"#)
        } else if let pretty = try? JSONSerialization.data(
            withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        {
            io.line(String(decoding: pretty, as: UTF8.self))
        }
    }

    private func readKey() throws(CommandError) -> String {
        let text: String
        if let keyFile {
            guard
                let contents = FileManager.default.contents(atPath: keyFile).flatMap({
                    String(data: $0, encoding: .utf8)
                })
            else { throw .usage("key-file", "cannot read \(keyFile)") }
            text = contents
        } else if let key = ProcessInfo.processInfo.environment["LATCHKEY_ADMIN_KEY"], !key.isEmpty {
            text = key
        } else {
            throw .usage("key-file", "give --key-file or LATCHKEY_ADMIN_KEY")
        }
        let line =
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") } ?? ""
        return String(line.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces)
    }

    private func request() throws(CommandError) -> (String, String, Data?) {
        func id(_ index: Int) throws(CommandError) -> String {
            guard ids.count > index else {
                throw .usage("ids", "\(action) needs \(index == 0 ? "the user's ID" : "a credential ID")")
            }
            return ids[index]
        }
        func query(_ items: [(String, String?)]) -> String {
            var query = URLComponents()
            query.queryItems = items.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
            return query.percentEncodedQuery ?? ""
        }
        switch action {
        case "find":
            let items = [("name", name), ("email", email), ("credentialId", credentialId), ("appleId", appleId)]
            return ("GET", AdminPaths.users + "?" + query(items), nil)
        case "audit":
            let items = [("user", ids.first), ("since", since), ("until", until), ("before", before), ("limit", limit)]
            return ("GET", AdminPaths.audit + "?" + query(items), nil)
        case "show": return ("GET", AdminPaths.user(id: try id(0)), nil)
        case "delete": return ("DELETE", AdminPaths.user(id: try id(0)), nil)
        case "remove-passkey":
            return ("DELETE", AdminPaths.passkey(user: try id(0), id: try id(1)) + (force ? "?force=true" : ""), nil)
        case "end-sessions": return ("DELETE", AdminPaths.sessions(user: try id(0)), nil)
        case "recovery-link":
            let body = try? JSONEncoder().encode(AdminRecoveryLinkRequest(origin: origin, lifetime: lifetime))
            return ("POST", AdminPaths.recoveryLink(user: try id(0)), body)
        default:
            throw .usage(
                "action",
                "'\(action)' is not find, show, delete, remove-passkey, end-sessions, recovery-link or audit")
        }
    }
}
