import WebAuthn

/// A registry number printed with its name: a COSE algorithm (`-7`, `ES256`), key type or curve.
struct NamedNumber: Encodable, Equatable {
    let number: Int
    let name: String

    init(number: Int, name: String) {
        self.number = number
        self.name = name
    }

    init(_ algorithm: COSEAlgorithm) {
        self.init(number: algorithm.rawValue, name: algorithm.name)
    }
}
