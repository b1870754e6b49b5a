/// Compares two byte sequences in time that depends only on their lengths (for secrets: tokens, states, MACs).
@inline(__always)
public func constantTimeEquals<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ lhs: A, _ rhs: B) -> Bool {
    let left = Array(lhs)
    let right = Array(rhs)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
}
