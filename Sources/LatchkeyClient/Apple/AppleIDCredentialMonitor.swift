import Foundation

/// Watches a Sign in with Apple user's credential state, as Apple asks apps to: at launch, whenever the app comes to
/// the foreground, and on the revocation notification. It reports each state that differs from the last one
/// reported; the app signs out when ``AppleIDCredentialState/requiresSignOut`` is true.
///
/// On Apple platforms `AppleIDCredentialMonitor(userID:onChange:)` wires it to AuthenticationServices and the app's
/// foreground notification; the state source and notifications are injectable so the logic runs anywhere.
@MainActor
public final class AppleIDCredentialMonitor {
    /// Asks for the current state of a user's credential (nil: a state this version does not know).
    public typealias StateSource = @Sendable (_ userID: String) async throws -> AppleIDCredentialState?

    /// The Apple user ID whose credential state is watched.
    public let userID: String
    /// The last state reported.
    public private(set) var state: AppleIDCredentialState?

    private let center: NotificationCenter
    private let checkOn: [Notification.Name]
    private let revokedOn: [Notification.Name]
    private let source: StateSource
    private let onChange: @MainActor (AppleIDCredentialState) -> Void
    private var observers: [any NSObjectProtocol] = []
    private var checks = 0

    /// A monitor for `userID`.
    /// - Parameters:
    ///   - userID: the Apple user ID (the identity token's `sub`) whose credential state is watched.
    ///   - notificationCenter: where the notifications are observed.
    ///   - checkOn: notifications after which the state is asked for again (the app entering the foreground).
    ///   - revokedOn: notifications that mean the credential was revoked (`credentialRevokedNotification`).
    ///   - source: asks for the credential state (`ASAuthorizationAppleIDProvider.getCredentialState` on Apple platforms).
    ///   - onChange: called on the main actor when the state changes.
    public init(
        userID: String, notificationCenter: NotificationCenter = .default, checkOn: [Notification.Name],
        revokedOn: [Notification.Name], source: @escaping StateSource,
        onChange: @escaping @MainActor (AppleIDCredentialState) -> Void
    ) {
        self.userID = userID
        center = notificationCenter
        self.checkOn = checkOn
        self.revokedOn = revokedOn
        self.source = source
        self.onChange = onChange
    }

    /// Starts watching and checks the state now.
    public func start() {
        guard observers.isEmpty else { return }
        for name in checkOn {
            observers.append(
                center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                    Task { @MainActor in await self?.check() }
                })
        }
        for name in revokedOn {
            observers.append(
                center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                    Task { @MainActor in self?.report(.revoked) }
                })
        }
        Task { await check() }
    }

    /// Stops watching.
    public func stop() {
        for observer in observers { center.removeObserver(observer) }
        observers = []
    }

    /// Asks for the state now and reports it if it changed. An error (no network) keeps the last state.
    public func check() async {
        checks += 1
        let number = checks
        let current: AppleIDCredentialState?
        do {
            current = try await source(userID)
        } catch {
            return
        }
        // A newer check (or a revocation) answered while this one waited: it wins.
        guard number == checks, let current else { return }
        report(current)
    }

    private func report(_ new: AppleIDCredentialState) {
        checks += 1
        guard new != state else { return }
        state = new
        onChange(new)
    }
}
