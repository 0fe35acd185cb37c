internal import Crypto

extension EdmGuid {
    /// A name-based GUID (version 5, RFC 9562 §5.5): SHA-1 of the namespace's 16 bytes and the name,
    /// version and variant bits set. The same namespace and name give the same GUID on every machine,
    /// which is how `seed` gives the same person, and the same event, the same RowKey in every run.
    package init(nameBased name: some Sequence<UInt8>, in namespace: EdmGuid) {
        var hasher = Insecure.SHA1()
        withUnsafeBytes(of: (namespace.high.bigEndian, namespace.low.bigEndian)) { hasher.update(bufferPointer: $0) }
        hasher.update(data: Array(name))
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in hasher.finalize().prefix(16).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_5000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }
}
