package import SpeakEasyModel

/// Reads one flat object of properties after another, as the SQLite account stores them, keeping
/// its decoder's caches (the strings seen in each position, the annotations' types) from one object
/// to the next.
///
/// A store scan decodes a million such objects: a decoder made for each one spent most of the
/// scan making and freeing its caches.
package struct JSONPropertiesReader {
    private var decoder = JSONEntityDecoder(mode: .properties)

    package init() {}

    /// Parses one object, which must be all of `bytes`.
    package mutating func properties(fromObject bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> [Property] {
        try JSONEntityReader.decode(bytes, line: 1, column: 1) {
            (scanner: inout JSONObjectScanner) throws(JSONSyntaxError) in
            try decoder.properties(&scanner)
        }
    }
}
