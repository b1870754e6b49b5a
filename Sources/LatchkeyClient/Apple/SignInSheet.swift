#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// Receives the one sign-in sheet's outcome (the delegate API).
@MainActor
public protocol SignInSheetDelegate: AnyObject {
    func signInSheet(_ sheet: SignInSheet, didSignIn outcome: SignInOutcome, for request: SignInSheetRequest)
    func signInSheet(_ sheet: SignInSheet, didFailWith error: AuthenticatorError)
}

/// One sheet for every way in: Sign in with Apple, a saved password and a passkey in one `ASAuthorizationController`,
/// so the user picks whichever they have (``present(_:immediatelyAvailable:)`` returns a ``SignInOutcome``), or
/// Sign in with Apple alone (``signInWithApple(_:)``).
///
/// With `immediatelyAvailable`, nothing shows unless this device holds a credential for the app
/// (``AuthenticatorError/Code/noCredentials`` at once): call it at launch, and show the app's own sign-in screen on
/// that error.
@MainActor
public final class SignInSheet {
    public weak var delegate: (any SignInSheetDelegate)?
    /// How long the sheet may wait for the user.
    public var timeout: Duration = .seconds(300)
    /// The window the sheet appears over.
    public var anchor: ASPresentationAnchor? {
        get { performer.anchor }
        set { performer.anchor = newValue }
    }

    private let performer: AuthorizationPerformer

    public init(anchor: ASPresentationAnchor? = nil) {
        performer = AuthorizationPerformer(anchor: anchor)
    }

    /// Shows the sheet for `request`.
    public func present(_ request: SignInSheetRequest, immediatelyAvailable: Bool = false)
        async throws(AuthenticatorError) -> SignInOutcome
    {
        var requests: [ASAuthorizationRequest] = []
        if let appleID = request.appleID { requests.append(appleID.authorizationRequest()) }
        if request.includesPasswords { requests.append(ASAuthorizationPasswordProvider().createRequest()) }
        if let passkey = request.passkey { requests.append(passkey.platformRequest()) }
        let result = try await performer.perform(
            requests, presentation: immediatelyAvailable ? .immediatelyAvailable : .modal, timeout: timeout
        )
        return try request.outcome(for: result)
    }

    /// Sign in with Apple alone: the Apple ID sheet for `request`, its credential checked against the request's
    /// state and carrying an identity token.
    ///
    /// ```swift
    /// let request = SignInWithAppleRequest()
    /// let credential = try await sheet.signInWithApple(request)
    /// try await client.signInWithApple(request.signInRequest(for: credential))
    /// ```
    public func signInWithApple(_ request: SignInWithAppleRequest) async throws(AuthenticatorError) -> AppleIDCredential
    {
        let result = try await performer.perform(
            [request.authorizationRequest()], presentation: .modal, timeout: timeout)
        return try result.appleID(for: request)
    }

    /// Shows the sheet and reports to ``delegate``.
    public func begin(_ request: SignInSheetRequest, immediatelyAvailable: Bool = false) {
        Task { @MainActor in
            do throws(AuthenticatorError) {
                let outcome = try await present(request, immediatelyAvailable: immediatelyAvailable)
                delegate?.signInSheet(self, didSignIn: outcome, for: request)
            } catch {
                delegate?.signInSheet(self, didFailWith: error)
            }
        }
    }

    /// Ends the sheet in flight, if any.
    public func cancel() {
        performer.cancel()
    }
}
#endif
