#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Name@odata.type`, the member that gives property `Name`'s Edm type, found in place: what the
/// copies that skip decoding (``JSONWireSpelling``, ``JSONPageCopier``) look for in a key.
enum JSONTypeAnnotation {
    private static let suffix: StaticString = "@odata.type"

    /// The range of the name key `key` annotates (`Name` of `Name@odata.type`); nil for any other key.
    static func annotatedName(_ key: Range<Int>, in raw: UnsafeRawBufferPointer) -> Range<Int>? {
        let length = suffix.utf8CodeUnitCount
        guard key.count > length else { return nil }
        let split = key.upperBound - length
        return memcmp(raw.baseAddress! + split, suffix.utf8Start, length) == 0 ? key.lowerBound..<split : nil
    }
}
