/// `a / b` rounded towards minus infinity (Swift's `/` rounds towards zero), for `b > 0`: the
/// number of the period of length `b` that `a` falls in, before 0 too.
@inlinable @inline(__always)
package func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-(a + 1)) / b) - 1
}

/// Where `a` falls within its period of length `b`: `0..<b`, before 0 too (Swift's `%` can be negative).
@inlinable @inline(__always)
package func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
    a - floorDivision(a, b) * b
}
