/// A SAS's `sip`: the client addresses it is valid from, one IPv4 address or an inclusive range
/// `first-last` (Azure's "Create a service SAS", signedIp). Azure takes IPv4 only.
package struct SASIPRange: Sendable, Equatable {
    package let first: UInt32
    package let last: UInt32

    /// Reads `a.b.c.d` or `a.b.c.d-e.f.g.h`; nil when it is neither, or the range runs backwards.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, let first = Self.ipv4(parts[0]), let last = Self.ipv4(parts.last!), first <= last else {
            return nil
        }
        self.first = first
        self.last = last
    }

    /// Whether `address` (as a socket gives it: `127.0.0.1`, or IPv4 mapped into IPv6 as
    /// `::ffff:127.0.0.1`) is in the range; an IPv6 address never is.
    package func contains(_ address: String) -> Bool {
        var text = Substring(address)
        if text.lowercased().hasPrefix("::ffff:") { text = text.dropFirst(7) }
        guard let value = Self.ipv4(text) else { return false }
        return first <= value && value <= last
    }

    /// The dotted quad's value: four decimal numbers of 0 to 255, none with a sign or spaces.
    static func ipv4(_ text: Substring) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for octet in octets {
            guard (1...3).contains(octet.utf8.count), octet.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let number = UInt32(octet), number <= 255
            else { return nil }
            value = value << 8 | number
        }
        return value
    }
}
