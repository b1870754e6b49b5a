/// `status` of every conformance-profile response.
public enum ServerStatus: String, Codable, Hashable, Sendable {
    case ok
    case failed
}

/// `ServerResponse` of the FIDO conformance profile: `{"status":"ok"|"failed","errorMessage":"…"}`.
///
/// Latchkey adds `errorCode` to failures: the same stable code the native API puts in ``APIErrorBody``.
/// Clients written for the profile ignore it.
public struct ServerResponse: Codable, Hashable, Sendable {
    public var status: ServerStatus
    public var errorMessage: String
    /// The stable error code of a failure (a Latchkey extension); nil on success.
    public var errorCode: String?

    public init(status: ServerStatus, errorMessage: String = "", errorCode: String? = nil) {
        self.status = status
        self.errorMessage = errorMessage
        self.errorCode = errorCode
    }

    /// `{"status":"ok","errorMessage":""}`.
    public static let ok = ServerResponse(status: .ok)

    /// A failure with its code and message.
    public static func failed(code: String, message: String) -> ServerResponse {
        ServerResponse(status: .failed, errorMessage: message, errorCode: code)
    }
}
