import Foundation
import LatchkeyClient
import Testing

/// The credential-state watch Apple asks apps to keep, on a private notification center and a scripted state source.
@Suite("Apple ID credential monitor")
@MainActor
struct AppleIDCredentialMonitorTests {
    static let foreground = Notification.Name("test.willEnterForeground")
    static let revoked = Notification.Name("test.credentialRevoked")

    /// Answers the states it is given, one per check, and counts the checks.
    actor Source {
        var answers: [Result<AppleIDCredentialState?, any Error>]
        var asked: [String] = []
        init(_ answers: [Result<AppleIDCredentialState?, any Error>]) { self.answers = answers }
        func next(_ userID: String) throws -> AppleIDCredentialState? {
            asked.append(userID)
            return try answers.removeFirst().get()
        }
    }

    struct Offline: Error {}

    func monitor(
        _ source: Source, center: NotificationCenter, reported: @escaping @MainActor (AppleIDCredentialState) -> Void
    ) -> AppleIDCredentialMonitor {
        AppleIDCredentialMonitor(
            userID: "000123.abc", notificationCenter: center, checkOn: [Self.foreground], revokedOn: [Self.revoked],
            source: { try await source.next($0) }, onChange: reported
        )
    }

    /// Waits until `condition` holds (the monitor's checks run on other executors, which a loaded machine may run
    /// late: at the start of the parallel run, seconds), for at most a minute; the expectations after it say what did not
    /// happen.
    func settle(until condition: @MainActor () async -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(60)
        while await !condition(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test("checks at start and on each foreground; reports only changes; an error keeps the last state")
    func checks() async {
        let center = NotificationCenter()
        let source = Source([.success(.authorized), .success(.authorized), .failure(Offline()), .success(.revoked)])
        var reported: [AppleIDCredentialState] = []
        let watch = monitor(source, center: center) { reported.append($0) }
        watch.start()
        await settle { await source.asked.count == 1 && reported.count == 1 }
        #expect(reported == [.authorized] && watch.state == .authorized)

        for expectedChecks in 2...4 {
            center.post(name: Self.foreground, object: nil)
            await settle { await source.asked.count == expectedChecks }
        }
        await settle { reported.count == 2 }
        #expect(reported == [.authorized, .revoked], "the repeated state and the failed check report nothing")
        #expect(await source.asked == Array(repeating: "000123.abc", count: 4))
        watch.stop()
        center.post(name: Self.foreground, object: nil)
        for _ in 0..<100 { await Task.yield() }
        #expect(await source.asked.count == 4, "no checks after stop()")
    }

    @Test("the revocation notification reports revoked without asking")
    func revocation() async {
        let center = NotificationCenter()
        let source = Source([.success(.authorized)])
        var reported: [AppleIDCredentialState] = []
        let watch = monitor(source, center: center) { reported.append($0) }
        watch.start()
        await settle { reported == [.authorized] }
        center.post(name: Self.revoked, object: nil)
        await settle { reported.count == 2 }
        #expect(reported == [.authorized, .revoked] && watch.state == .revoked && watch.state?.requiresSignOut == true)
        #expect(await source.asked.count == 1)
        watch.stop()
    }
}
