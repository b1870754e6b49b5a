import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// The operator's authenticator policy over HTTP, on each database: which authenticators may register, and what a
/// sign-in does when a passkey's backup-eligible flag changed (the lockout go-webauthn #335 and others reported).
@Suite("Authenticator policy")
struct AuthenticatorPolicyTests {
    static let blue = AAGUID(string: "b1ae0000-0000-4000-8000-000000000001") ?? .zero
    static let red = AAGUID(string: "2ed00000-0000-4000-8000-000000000002") ?? .zero

    static func key(_ aaguid: AAGUID) -> VirtualAuthenticator {
        var configuration = VirtualAuthenticatorConfiguration.securityKey
        configuration.aaguid = aaguid
        return VirtualAuthenticator(configuration: configuration)
    }

    @Test("allow and deny lists, and device-bound or synced only, refuse at registration with their codes")
    func registrationPolicies() async throws {
        let cases: [(ServerSettings, VirtualAuthenticator, String?)] = [
            (
                policySettings { $0.authenticatorDeny = [Self.red.description] }, Self.key(Self.red),
                "authenticator.notAllowed"
            ),
            (policySettings { $0.authenticatorDeny = [Self.red.description] }, Self.key(Self.blue), nil),
            (
                policySettings { $0.authenticatorAllow = [Self.blue.description] }, Self.key(Self.red),
                "authenticator.notAllowed"
            ),
            (policySettings { $0.authenticatorAllow = [Self.blue.description] }, Self.key(Self.blue), nil),
            (
                policySettings { $0.passkeyBackup = "device-bound" },
                VirtualAuthenticator(configuration: .passkeyProvider), "authenticator.backupNotAllowed"
            ),
            (policySettings { $0.passkeyBackup = "device-bound" }, Self.key(Self.blue), nil),
            (policySettings { $0.passkeyBackup = "synced" }, Self.key(Self.blue), "authenticator.backupRequired"),
            (
                policySettings { $0.passkeyBackup = "synced" }, VirtualAuthenticator(configuration: .passkeyProvider),
                nil
            ),
        ]
        for (index, (settings, authenticator, refusal)) in cases.enumerated() {
            try await withServer(.sqlite, settings: settings) { server in
                let reply = try await NativeClient(http: server.app()).signUp("user\(index)", with: authenticator)
                if let refusal {
                    #expect(reply.status == .badRequest && reply.errorCode == refusal, "case \(index): \(reply)")
                    #expect(try await server.store.user(named: "user\(index)") == nil, "case \(index): nothing stored")
                } else {
                    #expect(reply.status == .created, "case \(index): \(reply)")
                }
            }
        }
    }

    @Test(
        "a changed backup-eligible flag is refused by default, and accepted and stored when the operator says so",
        arguments: Backend.available)
    func backupEligibilityChange(_ backend: Backend) async throws {
        for policy in ["reject", "accept-and-record"] {
            try await withServer(backend, settings: policySettings { $0.backupEligibilityChange = policy }) { server in
                let phone = VirtualAuthenticator(configuration: .passkeyProvider)
                #expect(try await NativeClient(http: server.app()).signUp("alice", with: phone).status == .created)
                // As if the provider had changed the flag: the stored one now differs from what it sends (BE=1).
                try await server.database.execute { "UPDATE \($0)credentials SET backup_eligible = false" }

                let signIn = try await NativeClient(http: server.app()).signIn("alice", with: phone)
                let user = try #require(try await server.store.user(named: "alice"))
                let stored = try #require(try await server.store.credentials(ofUser: user.id).first)
                if policy == "reject" {
                    #expect(signIn.status == .badRequest && signIn.errorCode == "backupStateInvalid", "\(signIn)")
                    #expect(!stored.backupEligible, "nothing changed")
                } else {
                    #expect(signIn.status == .ok, "\(signIn)")
                    #expect(stored.backupEligible, "the new flag is stored")
                    #expect(try await NativeClient(http: server.app()).signIn("alice", with: phone).status == .ok)
                }
                // The audit log records the change (and so can a webhook), with the sign-in it came with.
                let types = try await server.store.auditEvents(AuditQuery(userID: user.id)).map(\.event.type)
                #expect(
                    types.contains("passkey.backupEligibilityChanged") == (policy == "accept-and-record"), "\(types)")
                #expect(types.contains("signin.failed") == (policy == "reject"), "\(types)")
            }
        }
    }

    @Test("bad policy settings are refused at start, naming the flag")
    func badSettings() {
        let bad: [(ServerSettings, String)] = [
            (policySettings { $0.authenticatorAllow = ["not-an-aaguid"] }, "--authenticator-allow"),
            (policySettings { $0.authenticatorDeny = ["1234"] }, "--authenticator-deny"),
            (policySettings { $0.passkeyBackup = "sometimes" }, "--passkey-backup"),
            (policySettings { $0.backupEligibilityChange = "accept" }, "--backup-eligibility-change"),
        ]
        for (settings, flag) in bad {
            #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
            do {
                _ = try ServerConfiguration(settings)
            } catch {
                #expect("\(error)".contains(flag), "\(error)")
            }
        }
    }
}

/// The test settings with `change` applied.
private func policySettings(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
    var settings = ServerSettings.test
    change(&settings)
    return settings
}
