import WebAuthn

/// One part of an inspected structure: its report, or why it could not be parsed.
///
/// A credential whose client data is fine but whose attestation object is broken still shows the
/// client data, with `{"error": …}` in place of the broken part.
enum Parsed<Value: Encodable>: Encodable {
    case value(Value)
    case failure(CommandError)

    init(_ body: () throws(WebAuthnError) -> Value) {
        do {
            self = .value(try body())
        } catch {
            self = .failure(CommandError(error))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let value): try value.encode(to: encoder)
        case .failure(let error): try error.report.encode(to: encoder)
        }
    }
}
