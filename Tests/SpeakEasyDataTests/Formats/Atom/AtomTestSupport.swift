import SpeakEasyData
import Testing

/// Helpers shared by the Atom tests.
enum Atom {
    static let namespaces =
        #"xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata""#

    /// `count` empty attributes, `a0="" a1="" …`: over 1,000, a tag the reader refuses.
    static func attributes(_ count: Int) -> String { (0..<count).map { "a\($0)=\"\"" }.joined(separator: " ") }

    /// Every entity of an Atom document, read `chunkSize` bytes at a time.
    ///
    /// Every test that reads Atom also checks that ``AtomPieceReader`` (libxml2's SAX2 parser, which
    /// hands odd input to the text reader) reads the same bytes to the same entities and error.
    static func read(_ bytes: [UInt8], chunkSize: Int = 256 << 10) throws(FormatError) -> [Entity] {
        let text = outcome(AtomEntityReader(input: ByteInput(name: "test.atom", bytes: bytes), chunkSize: chunkSize))
        let pieceReader = AtomPieceReader(bytes: bytes, source: "test.atom", origin: .start)
        let piece = outcome(pieceReader)
        #expect(
            "\(piece.entities)" == "\(text.entities)" && piece.lines == text.lines && piece.error == text.error,
            "AtomPieceReader (text reader: \(pieceReader.readByTextReader)) differs from AtomEntityReader"
        )
        if let error = text.error { throw error }
        return text.entities
    }

    /// The entities a reader gives, up to its first error, and the lines they start on.
    static func outcome(_ reader: some EntityReader) -> (entities: [Entity], lines: [Int], error: FormatError?) {
        var reader = reader
        var entities: [Entity] = []
        var lines: [Int] = []
        do {
            while let entity = try reader.next() {
                entities.append(entity)
                lines.append(reader.entityLine)
            }
            return (entities, lines, nil)
        } catch {
            return (entities, lines, error)
        }
    }

    static func read(_ text: String, chunkSize: Int = 256 << 10) throws(FormatError) -> [Entity] {
        try read(Array(text.utf8), chunkSize: chunkSize)
    }

    /// The error reading `text` gives, or nil when it reads.
    static func error(_ text: String) -> FormatError? { error(Array(text.utf8)) }

    static func error(_ bytes: [UInt8]) -> FormatError? {
        do {
            _ = try read(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// A feed of `entities`, as the formatter writes it.
    static func write(_ entities: [Entity], options: AtomFormatter.Options = .init()) throws(FormatError) -> [UInt8] {
        var formatter = AtomFormatter(options: options)
        var out: [UInt8] = []
        formatter.begin(into: &out)
        for entity in entities { try formatter.append(entity, into: &out) }
        formatter.end(into: &out)
        return out
    }

    /// A feed with one entry holding `properties` (raw XML inside `<m:properties>`).
    static func feed(properties: String, keys: Bool = true) -> String {
        """
        <?xml version="1.0" encoding="utf-8" standalone="yes"?>
        <feed \(namespaces)>
          <entry>
            <content type="application/xml">
              <m:properties>
        \(keys ? "        <d:PartitionKey>p</d:PartitionKey>\n        <d:RowKey>r</d:RowKey>\n" : "")\(properties)
              </m:properties>
            </content>
          </entry>
        </feed>
        """
    }
}
