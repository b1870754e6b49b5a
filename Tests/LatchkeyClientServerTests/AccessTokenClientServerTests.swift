import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// `NativeClient`'s access tokens over real HTTP: kept from the sign-in, refreshed near expiry, one refresh shared by
/// concurrent callers (a refresh token works once: two would end the session), and refused once the session ends.
@Suite("Client access tokens")
struct AccessTokenClientServerTests {
    @Test func refreshesWhenDueAndSharesOneRefresh() async throws {
        try await LiveServer.run(
            .sqlite,
            configure: {
                $0.accessTokenAudience = "https://api.example.com"
                $0.secretsKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            }
        ) { server in
            let client = server.native()
            try await client.signUp(username: "gus", with: LiveServer.passkeyProvider())
            let first = try #require(try await client.accessToken())
            #expect(try await client.accessToken() == first, "still fresh: no refresh")

            // Due (the margin is past its lifetime): five callers at once share one refresh.
            let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<5 { group.addTask { try await client.accessToken(margin: 3600) } }
                return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1 && !tokens.contains(first))
            #expect(try await client.me().name == "gus", "no refresh token was used twice: the session lives")

            try await client.logout()
            await #expect(throws: LatchkeyClientError.self) { try await client.accessToken(margin: 3600) }
            #expect(try await client.accessToken() == nil, "a failed refresh forgets the token")
        }
    }
}
