internal import CLibXML2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The namespaces of an Azure Table OData Atom document, and cheap comparisons of libxml2's names.
///
/// Elements are matched by namespace URI and local name, never by prefix: `d:`/`m:` are conventions,
/// and a producer may bind any prefix (or a default namespace) to the same URI.
package enum AtomNamespace {
    package static let atom: StaticString = "http://www.w3.org/2005/Atom"
    package static let data: StaticString = "http://schemas.microsoft.com/ado/2007/08/dataservices"
    package static let metadata: StaticString = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"
    package static let scheme: StaticString = "http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"

    /// libxml2 is not safe to initialise from two threads at once; every entry point of this module
    /// touches this first, and Swift runs a static initialiser exactly once.
    static let libraryInitialised: Void = xmlInitParser()
}

/// Whether a NUL-terminated libxml2 string equals `literal`, without making a Swift `String`.
///
/// The reader compares a handful of names per node; `strncmp` on the bytes costs a few nanoseconds,
/// where a `String` would allocate and validate.
@inline(__always)
func xmlNameEquals(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
    guard let name else { return false }
    let count = literal.utf8CodeUnitCount
    return name[0] == literal.utf8Start[0]
        && strncmp(
            UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self),
            count
        ) == 0
        && name[count] == 0
}

/// Calls `body` with `text` as a NUL-terminated `xmlChar` string (libxml2's `const xmlChar *`).
@inline(__always)
func withXMLString<R>(_ text: String, _ body: (UnsafePointer<xmlChar>) -> R) -> R {
    text.withCString { body(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
}

extension String {
    /// A string from libxml2's UTF-8 (libxml2 has already checked it is well-formed).
    init(xmlText pointer: UnsafePointer<xmlChar>) {
        self.init(
            decoding: UnsafeBufferPointer(
                start: pointer,
                count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
            ),
            as: UTF8.self
        )
    }
}
