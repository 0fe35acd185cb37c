import SpeakEasyData
import Testing

/// The reader never loads a DTD, resolves an entity or touches the network: any DOCTYPE is refused
/// before libxml2 parses it.
@Suite("Atom reader refuses DTDs")
struct AtomSecurityTests {
    static let entryBody =
        "<entry \(Atom.namespaces)><content><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>&xxe;</d:RowKey></m:properties></content></entry>"

    @Test("an external entity (file:///etc/passwd) is refused, not read")
    func externalEntity() {
        let atom =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE entry [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>\n"
            + Self.entryBody
        let error = Atom.error(atom)
        #expect(error?.reason.contains("DTDs are not allowed") == true)
        #expect(error?.line == 2 && error?.column == 1)
        #expect(error?.description.contains("root:") == false)
    }

    @Test("a network DTD is refused without a connection")
    func externalSubset() {
        let atom =
            "<!-- <!DOCTYPE in a comment is fine --><?pi <!DOCTYPE?>  <!DOCTYPE entry SYSTEM \"http://127.0.0.1:9/evil.dtd\">"
            + Self.entryBody
        let error = Atom.error(atom)
        #expect(error?.reason.contains("DTDs are not allowed") == true)
        #expect(error?.line == 1 && error?.column == 58)
    }

    @Test("a billion-laughs bomb is refused at once, whatever chunks it arrives in", arguments: [1, 3, 1 << 16])
    func billionLaughs(chunkSize: Int) {
        var dtd = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            dtd +=
                "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10)
                + "\">"
        }
        let atom =
            "<?xml version=\"1.0\"?>\r\n\r\n  <!DOCTYPE entry [\(dtd)]>" + Self.entryBody.replacingXXE(with: "&lol9;")
        do {
            _ = try Atom.read(atom, chunkSize: chunkSize)
            Issue.record("the bomb was read")
        } catch {
            #expect(error.reason.contains("DTDs are not allowed"))
            #expect(error.line == 3 && error.column == 3)
        }
    }

    @Test("an undeclared entity without a DTD is a syntax error")
    func undeclaredEntity() {
        let error = Atom.error(Self.entryBody)
        #expect(error?.reason.contains("xxe") == true, "\(String(describing: error))")
        #expect(error?.line == 1)
    }
}

extension String {
    fileprivate func replacingXXE(with text: String) -> String {
        var copy = self
        if let range = copy.firstRange(of: "&xxe;") { copy.replaceSubrange(range, with: text) }
        return copy
    }
}
