import LatchkeyAPI
import PasskeyAppCore
import SwiftUI

/// Signed in: the account's passkeys, to rename, remove or add to; and sign-out.
@MainActor
struct PasskeysView: View {
    let user: UserProfile
    @EnvironmentObject private var account: Account
    @State private var renaming: PasskeySummary?
    @State private var newName = ""

    var body: some View {
        List {
            Section {
                ForEach(account.passkeys, id: \.id) { passkey in
                    VStack(alignment: .leading) {
                        Text(passkey.name ?? "Passkey")
                        Text(passkey.createdAt, style: .date)
                            .font(.caption)
                            .foregroundStyle(.secondary)
                    }
                    .swipeActions {
                        Button("Remove", role: .destructive) {
                            Task { await account.remove(passkey) }
                        }
                        Button("Rename") {
                            newName = passkey.name ?? ""
                            renaming = passkey
                        }
                    }
                }
                Button(account.offersPasskey ? "Add a passkey for faster sign-in" : "Add a passkey") {
                    Task { await account.addPasskey() }
                }
            } header: {
                Text("Passkeys")
            } footer: {
                Text("Swipe a passkey to rename or remove it.")
            }
            Section {
                Button("Sign out", role: .destructive) {
                    Task { await account.signOut() }
                }
            }
        }
        .navigationTitle(user.displayName)
        .task { await account.refreshPasskeys() }
        .refreshable { await account.refreshPasskeys() }
        .alert("Rename passkey", isPresented: renameShown) {
            TextField("Name", text: $newName)
            Button("Save") {
                if let passkey = renaming {
                    Task { await account.rename(passkey, to: newName) }
                }
            }
            Button("Cancel", role: .cancel) {}
        }
    }

    private var renameShown: Binding<Bool> {
        Binding(get: { renaming != nil }, set: { if !$0 { renaming = nil } })
    }
}
