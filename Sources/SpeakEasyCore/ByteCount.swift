/// A size for people: `512 bytes`, `3.1 MiB`, `52.2 GiB` (binary units, one decimal).
package struct ByteCount: CustomStringConvertible, Sendable {
    package let bytes: Int

    package init(_ bytes: Int) { self.bytes = bytes }

    package var description: String {
        guard bytes >= 1024 else { return "\(bytes) bytes" }
        var value = Double(bytes)
        var unit = 0
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
