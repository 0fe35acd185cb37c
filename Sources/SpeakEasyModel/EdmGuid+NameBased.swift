package import Crypto

extension EdmGuid {
    /// A name-based GUID (version 5, RFC 9562 §5.5): SHA-1 of the namespace's 16 bytes and the name,
    /// version and variant bits set. The same namespace and name give the same GUID on every machine,
    /// which is how `seed` gives the same person, and the same event, the same RowKey in every run.
    package init(nameBased name: [UInt8], in namespace: EdmGuid) {
        var hasher = Self.nameHasher(in: namespace)
        hasher.update(data: name)
        self.init(finishing: hasher)
    }

    /// SHA-1 over the namespace so far: a caller that hashes many names with one beginning copies it
    /// once the beginning is in (the hasher is a value), and hashes only the rest of each name.
    package static func nameHasher(in namespace: EdmGuid) -> Insecure.SHA1 {
        var hasher = Insecure.SHA1()
        withUnsafeBytes(of: (namespace.high.bigEndian, namespace.low.bigEndian)) { hasher.update(bufferPointer: $0) }
        return hasher
    }

    /// The GUID of the name a ``nameHasher(in:)`` has been given.
    package init(finishing hasher: Insecure.SHA1) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        hasher.finalize().withUnsafeBytes { digest in
            for index in 0..<8 { high = high << 8 | UInt64(digest[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(digest[index]) }
        }
        self.init(
            high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_5000,
            low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        )
    }
}
