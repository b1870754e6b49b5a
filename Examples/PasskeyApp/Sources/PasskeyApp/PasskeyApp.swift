import PasskeyAppCore
import SwiftUI

/// The example app: the one sign-in sheet, sign-up with a passkey, the account's passkeys, and sign-out, against
/// `latchkey serve` (docs/CLIENT.md, "The example app").
@main
@MainActor
struct PasskeyApp: App {
    @StateObject private var account = Account()

    var body: some Scene {
        WindowGroup {
            RootView()
                .environmentObject(account)
        }
    }
}

/// The screen for the account's state, and an alert for what went wrong.
@MainActor
struct RootView: View {
    @EnvironmentObject private var account: Account

    var body: some View {
        NavigationStack {
            content
        }
        .task { await account.launch() }
        .alert("Something went wrong", isPresented: problemShown) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(account.problem ?? "")
        }
    }

    @ViewBuilder private var content: some View {
        switch account.state {
        case .starting:
            ProgressView()
        case .signedOut:
            SignInView()
        case .signedIn(let user):
            PasskeysView(user: user)
        }
    }

    private var problemShown: Binding<Bool> {
        Binding(get: { account.problem != nil }, set: { if !$0 { account.problem = nil } })
    }
}
