import ArgumentParser
import Foundation
import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// Which server API `latchkey passkey` speaks.
enum PasskeyProfile: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The FIDO conformance profile (`/attestation/*`, `/assertion/*`).
    case conformance
    /// Latchkey's native `/v1` API.
    case native
}

/// The options every `latchkey passkey` command shares: the server, the API profile, and the local
/// credential store the file-backed virtual authenticator keeps its passkeys in.
struct PasskeyOptions: ParsableArguments {
    @Option(help: "The relying party's base URL, e.g. https://example.com or http://localhost:8080.")
    var server: String

    @Option(help: "The server API: conformance (/attestation, /assertion) or native (/v1).")
    var profile: PasskeyProfile = .native

    @Option(
        help:
            "The encrypted credential file (default: $LATCHKEY_STORE or ~/.latchkey/credentials). Its key is scrypt over $LATCHKEY_STORE_PASSPHRASE, or else a 0600 key file beside it."
    )
    var store: String?

    @Option(help: "The origin the client data names (default: the server URL's origin).")
    var origin: String?

    /// The server URL, checked.
    func serverURL() throws(CommandError) -> URL {
        try ServerURL(server).url
    }

    /// `scheme://host[:port]` of the server, unless `--origin` says otherwise.
    func resolvedOrigin() throws(CommandError) -> String {
        if let origin { return origin }
        return try ServerURL(server).origin
    }

    /// The credential file path (`path`, else `--store`, `$LATCHKEY_STORE`, `~/.latchkey/credentials`), its
    /// directory created (0700) if missing.
    func storePath(_ path: String? = nil) throws(CommandError) -> String {
        let path =
            path ?? store ?? ProcessInfo.processInfo.environment["LATCHKEY_STORE"]
            ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/.latchkey/credentials")
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .io("storeDirectory", "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        return path
    }

    /// The file-backed credential store at `path`, else the one `--store` names.
    func credentialStore(_ path: String? = nil) throws(CommandError) -> EncryptedFileCredentialStore {
        let path = try storePath(path)
        return EncryptedFileCredentialStore(path: path, keySource: .fromEnvironment(storePath: path))
    }

    /// A virtual passkey provider on the credential store, acting for the server's origin.
    func authenticator(store: EncryptedFileCredentialStore, choice: CredentialChoice = .mostRecent) throws(CommandError)
        -> VirtualAuthenticatorAdapter
    {
        VirtualAuthenticatorAdapter(
            VirtualAuthenticator(configuration: .passkeyProvider, store: store), origin: try resolvedOrigin(),
            choice: choice
        )
    }
}

extension CommandError {
    /// A failed call to the server or the authenticator (exit 1), with the server's own code.
    init(_ error: LatchkeyClientError) {
        let message = if case .transport = error { "cannot reach the server: \(error.message)" } else { error.message }
        self.init(code: error.code, message: message, exitStatus: 1)
    }

    /// The credential store could not be read or written (exit 1).
    init(_ error: CredentialFileError) {
        let check =
            switch error {
            case .wrongKey: "wrongKey"
            case .corrupted: "corrupted"
            case .unsupportedVersion: "unsupportedVersion"
            case .keyFile: "keyFile"
            case .invalidKeyDerivation: "invalidKeyDerivation"
            case .io: "io"
            }
        self.init(code: "store.\(check)", message: error.description, exitStatus: 1)
    }

    /// Any error from the credential store protocol.
    static func store(_ error: any Error) -> CommandError {
        if let error = error as? CredentialFileError { return CommandError(error) }
        return CommandError(code: "store.io", message: "\(error)", exitStatus: 1)
    }
}

/// One local passkey as the commands print it.
struct LocalPasskeyReport: Encodable {
    let id: String
    let rpID: String
    let userName: String
    let userDisplayName: String
    let algorithm: String
    let createdAt: Date

    init(_ credential: CredentialSource) {
        id = Base64URL.encode(credential.id)
        rpID = credential.rpID
        userName = credential.userName
        userDisplayName = credential.userDisplayName
        algorithm = credential.algorithm.name
        createdAt = credential.createdAt
    }
}
