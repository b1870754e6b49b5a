import PasskeyAppCore
import SwiftUI

/// Signed out: sign in with whatever this device has for the app, or make an account with a passkey.
@MainActor
struct SignInView: View {
    @EnvironmentObject private var account: Account
    @State private var username = ""

    var body: some View {
        Form {
            Section {
                Button("Sign in") {
                    Task { await account.signInWithSheet() }
                }
            } footer: {
                Text("Use a passkey, a saved password or your Apple ID.")
            }
            Section {
                TextField("Email or username", text: $username)
                    #if canImport(UIKit)
                .textContentType(.username)
                .textInputAutocapitalization(.never)
                    #endif
                    .autocorrectionDisabled()
                Button("Create account with a passkey") {
                    Task { await account.signUp(username: username) }
                }
                .disabled(username.isEmpty)
            } header: {
                Text("New here?")
            }
        }
        .navigationTitle("Welcome")
    }
}
