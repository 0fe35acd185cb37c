internal import CLibXML2

/// Property names as `String`s, made once per position in the entry rather than once per property.
///
/// libxml2 interns element names in its parser's dictionary, so the same name is the same pointer
/// for the parser's whole life; entries of one feed have the same properties in the same order, so
/// the name at each position is almost always the previous entry's.
struct AtomPropertyNames {
    private var cache: [(pointer: UnsafePointer<xmlChar>?, name: String)] = []

    /// `name` as a `String`, for the property at `index` in its entry.
    mutating func name(_ name: UnsafePointer<xmlChar>, at index: Int) -> String {
        while cache.count <= index { cache.append((nil, "")) }
        if cache[index].pointer != name { cache[index] = (name, String(xmlText: name)) }
        return cache[index].name
    }
}
