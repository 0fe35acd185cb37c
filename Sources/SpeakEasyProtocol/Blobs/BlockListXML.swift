import SpeakEasyFormats
package import SpeakEasyStorage

/// The body of Put Block List: `<BlockList><Latest>id</Latest><Committed>id</Committed>…</BlockList>`,
/// the blocks in the blob's order.
package enum BlockListXML {
    package static func read(_ body: [UInt8]) throws(BlobServiceError) -> [BlockReference] {
        let root = try BlobRequestXML.root(body, named: "BlockList", what: "a block list")
        return try root.children.map { (element: XMLTree) throws(BlobServiceError) -> BlockReference in
            guard let source = BlockReference.Source(rawValue: element.name.lowercased()),
                element.name.first?.isUppercase == true
            else {
                throw .invalidXMLDocument("The block list holds an unknown element <\(element.name)>.")
            }
            return BlockReference(id: element.text, source: source)
        }
    }

    package static func write(_ blocks: [BlockReference]) -> [UInt8] {
        var xml = BlobXML()
        xml.open("BlockList")
        for block in blocks {
            xml.element(block.source.rawValue.prefix(1).uppercased() + block.source.rawValue.dropFirst(), block.id)
        }
        xml.close("BlockList")
        return xml.bytes
    }

    /// Get Block List's reply: `<BlockList><CommittedBlocks><Block><Name>id</Name><Size>n</Size>
    /// </Block>…</CommittedBlocks><UncommittedBlocks>…</UncommittedBlocks></BlockList>`, each list
    /// only when asked for (Azurite: src/blob/handlers/BlockBlobHandler.ts `getBlockList`).
    package static func blocks(committed: [BlockList.Block]?, uncommitted: [BlockList.Block]?) -> [UInt8] {
        var xml = BlobXML()
        xml.open("BlockList")
        for (element, blocks) in [("CommittedBlocks", committed), ("UncommittedBlocks", uncommitted)] {
            guard let blocks else { continue }
            xml.open(element)
            for block in blocks {
                xml.open("Block")
                xml.element("Name", block.id)
                xml.element("Size", String(block.size))
                xml.close("Block")
            }
            xml.close(element)
        }
        xml.close("BlockList")
        return xml.bytes
    }

    /// Reads Get Block List's reply back (the client).
    package static func readBlocks(
        _ body: [UInt8],
        account: String
    ) throws(StorageError) -> (committed: [BlockList.Block], uncommitted: [BlockList.Block]) {
        let root: XMLTree
        do {
            root = try XMLTree(parsing: body)
        } catch {
            throw StorageError(
                .unavailable,
                account: account,
                "the block list the service sent cannot be read: \(error)",
                code: "InvalidXmlDocument"
            )
        }
        func blocks(_ element: String) -> [BlockList.Block] {
            (root.child(element)?.children ?? []).compactMap { block in
                guard let id = block.child("Name")?.text, let size = block.child("Size").flatMap({ Int($0.text) })
                else { return nil }
                return BlockList.Block(id: id, size: size)
            }
        }
        return (blocks("CommittedBlocks"), blocks("UncommittedBlocks"))
    }
}
