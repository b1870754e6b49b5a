#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// How a controller presents its requests.
enum AuthorizationPresentation: Sendable, Hashable {
    /// The system sheet (`performRequests()`).
    case modal
    /// The sheet only when a credential is on this device; otherwise ``AuthenticatorError/Code/noCredentials`` at once
    /// (`performRequests(options: .preferImmediatelyAvailableCredentials)`).
    case immediatelyAvailable
    /// Passkeys in the QuickType bar of a text field whose content type is `.username` (iOS only:
    /// `performAutoFillAssistedRequests()`).
    case autoFill
}

/// Runs `ASAuthorizationController`s one at a time: their delegate and presentation context on the main actor
/// (where the SDK calls them), copying each result into a Sendable ``AuthorizationResult`` there and resuming the one
/// waiting caller (``PendingCeremony``: cancel, timeout, one ceremony at a time).
@MainActor
final class AuthorizationPerformer: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
{
    /// The window the sheet appears over; nil uses a new `ASPresentationAnchor`.
    var anchor: ASPresentationAnchor?
    private let ceremony = PendingCeremony<AuthorizationResult>()
    /// The controller of the pending ceremony and its ticket (the controller is kept alive while it runs).
    private var active: (controller: ASAuthorizationController, ticket: PendingCeremony<AuthorizationResult>.Ticket)?

    init(anchor: ASPresentationAnchor?) {
        self.anchor = anchor
    }

    /// Performs `requests` and returns what the user chose.
    func perform(
        _ requests: [ASAuthorizationRequest], presentation: AuthorizationPresentation, timeout: Duration?
    ) async throws(AuthenticatorError) -> AuthorizationResult {
        try await ceremony.run(timeout: timeout) { ticket throws(AuthenticatorError) in
            let controller = ASAuthorizationController(authorizationRequests: requests)
            controller.delegate = self
            controller.presentationContextProvider = self
            active = (controller, ticket)
            switch presentation {
            case .modal:
                controller.performRequests()
            case .immediatelyAvailable:
                controller.performRequests(options: .preferImmediatelyAvailableCredentials)
            case .autoFill:
                #if canImport(UIKit) && !targetEnvironment(macCatalyst)
                controller.performAutoFillAssistedRequests()
                #else
                throw AuthenticatorError(.unsupported, "AutoFill-assisted requests exist on iOS and visionOS only")
                #endif
            }
            return { controller.cancel() }
        }
    }

    /// Cancels the pending ceremony: its sheet closes and its caller gets ``AuthenticatorError/Code/cancelled``.
    func cancel() {
        ceremony.cancel()
    }

    // MARK: ASAuthorizationControllerDelegate

    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        guard let ticket = takeTicket(of: controller) else { return }
        let result: Result<AuthorizationResult, AuthenticatorError>
        do throws(AuthenticatorError) {
            result = .success(try AuthorizationResult(copying: authorization.credential))
        } catch {
            result = .failure(error)
        }
        ceremony.finish(result, for: ticket)
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        guard let ticket = takeTicket(of: controller) else { return }
        ceremony.finish(.failure(AuthorizationErrorMapping.error(error)), for: ticket)
    }

    // MARK: ASAuthorizationControllerPresentationContextProviding

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor ?? ASPresentationAnchor()
    }

    // MARK: Helpers

    /// The ticket of `controller` when it is the pending one; a late call from an earlier controller gives nil.
    private func takeTicket(of controller: ASAuthorizationController) -> PendingCeremony<AuthorizationResult>.Ticket? {
        guard let active, active.controller === controller else { return nil }
        self.active = nil
        return active.ticket
    }
}
#endif
