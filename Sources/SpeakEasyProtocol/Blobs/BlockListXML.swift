import SpeakEasyFormats
package import SpeakEasyStorage

/// The body of Put Block List: `<BlockList><Latest>id</Latest><Committed>id</Committed>…</BlockList>`,
/// the blocks in the blob's order.
package enum BlockListXML {
    package static func read(_ body: [UInt8]) throws(BlobServiceError) -> [BlockReference] {
        let root: XMLTree
        do {
            root = try XMLTree(parsing: body)
        } catch {
            throw .invalidXMLDocument("The XML specified is not syntactically valid (\(error)).")
        }
        guard root.name == "BlockList" else {
            throw .invalidXMLDocument("The XML specified is not a block list (its root is <\(root.name)>).")
        }
        return try root.children.map { (element: XMLTree) throws(BlobServiceError) -> BlockReference in
            guard let source = BlockReference.Source(rawValue: element.name.lowercased()), element.name.first?.isUppercase == true else {
                throw .invalidXMLDocument("The block list holds an unknown element <\(element.name)>.")
            }
            return BlockReference(id: element.text, source: source)
        }
    }

    package static func write(_ blocks: [BlockReference]) -> [UInt8] {
        var xml = BlobXML()
        xml.open("BlockList")
        for block in blocks { xml.element(block.source.rawValue.prefix(1).uppercased() + block.source.rawValue.dropFirst(), block.id) }
        xml.close("BlockList")
        return xml.bytes
    }
}
