import Foundation

/// The UTS #39 confusables skeleton of an account name: names whose skeletons are equal look alike ("pаypal" with a
/// Cyrillic а, "ａlice" in fullwidth, "aIice" with a capital I for the l).
///
/// UTS #39 defines `skeleton(X)` as NFD, each code point replaced by its prototype from ``ConfusablesTable``, NFD
/// again. Account names are compared case-insensitively, so the skeleton here is taken of the lower-cased name and
/// lower-cased again: ``of(_:)``. ``candidates(of:)`` adds the skeleton of the name's skeleton, which catches
/// upper-case look-alikes that lower-casing first would hide (`I` for `l`).
public enum NameSkeleton {
    /// The stored skeleton of `name`.
    public static func of(_ name: String) -> String {
        skeleton(name.precomposedStringWithCompatibilityMapping.lowercased()).lowercased()
    }

    /// The skeletons a new name must not share with an existing account: its own, and that of its raw skeleton.
    public static func candidates(of name: String) -> Set<String> {
        [of(name), of(skeleton(name.precomposedStringWithCompatibilityMapping))]
    }

    /// UTS #39 `skeleton`: NFD, prototypes, NFD.
    static func skeleton(_ text: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if let prototype = prototypes[scalar.value] {
                mapped.append(contentsOf: prototype)
            } else {
                mapped.append(scalar)
            }
        }
        return String(mapped).decomposedStringWithCanonicalMapping
    }

    /// ``ConfusablesTable`` parsed once.
    private static let prototypes: [UInt32: [Unicode.Scalar]] = {
        var table = [UInt32: [Unicode.Scalar]](minimumCapacity: ConfusablesTable.count)
        for line in ConfusablesTable.text.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard let source = fields.first, fields.count >= 2 else { continue }
            table[source] = fields.dropFirst().compactMap { Unicode.Scalar($0) }
        }
        return table
    }()
}
