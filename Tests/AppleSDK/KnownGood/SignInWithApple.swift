// Known good: Sign in with Apple requests, credential state, revocation notices and error codes.
import AuthenticationServices
import Foundation

struct AppleIDResult: Sendable {
    let user: String
    let identityToken: Data?
    let authorizationCode: Data?
    let email: String?
    let givenName: String?
    let state: String?
    let likelyReal: Bool
    let scopes: [String]
}

@MainActor
func appleIDRequests(nonceHash: String, state: String, includePasswords: Bool) -> [ASAuthorizationRequest] {
    let request = ASAuthorizationAppleIDProvider().createRequest()
    request.requestedScopes = [.fullName, .email]
    request.nonce = nonceHash
    request.state = state
    request.requestedOperation = .operationLogin
    guard includePasswords else { return [request] }
    return [request, ASAuthorizationPasswordProvider().createRequest()]
}

@MainActor
func copy(_ credential: ASAuthorizationAppleIDCredential) -> AppleIDResult {
    AppleIDResult(
        user: credential.user, identityToken: credential.identityToken, authorizationCode: credential.authorizationCode,
        email: credential.email, givenName: credential.fullName?.givenName, state: credential.state,
        likelyReal: credential.realUserStatus == .likelyReal, scopes: credential.authorizedScopes.map(\.rawValue)
    )
}

func isAuthorized(user: String) async throws -> Bool {
    try await ASAuthorizationAppleIDProvider().credentialState(forUserID: user) == .authorized
}

func checkState(user: String, report: @escaping @Sendable (Int) -> Void) {
    ASAuthorizationAppleIDProvider().getCredentialState(forUserID: user) { state, _ in
        report(state.rawValue)
    }
}

func observeRevocation(_ handler: @escaping @Sendable () -> Void) -> any NSObjectProtocol {
    NotificationCenter.default.addObserver(
        forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: nil
    ) { _ in handler() }
}

func stableCode(for error: any Error) -> String {
    guard let error = error as? ASAuthorizationError else { return "failed" }
    switch error.code {
    case .canceled: return "cancelled"
    case .notInteractive: return "notAllowed"
    case .credentialImport, .credentialExport: return "credentialExchange"
    case .preferSignInWithApple: return "preferSignInWithApple"
    case .deviceNotConfiguredForPasskeyCreation: return "deviceNotConfigured"
    default: return (error as NSError).domain == ASAuthorizationErrorDomain ? "failed" : "unknown"
    }
}
