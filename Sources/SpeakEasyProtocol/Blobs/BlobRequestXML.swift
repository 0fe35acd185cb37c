package import SpeakEasyFormats

/// The XML body of a Blob request (a block list, signed identifiers), parsed with the root it must
/// have: anything else is Azure's 400 InvalidXmlDocument.
package enum BlobRequestXML {
    package static func root(_ body: [UInt8], named name: String, what: String) throws(BlobServiceError) -> XMLTree {
        let root: XMLTree
        do {
            root = try XMLTree(parsing: body)
        } catch {
            throw .invalidXMLDocument("The XML specified is not syntactically valid (\(error)).")
        }
        guard root.name == name else {
            throw .invalidXMLDocument("The XML specified is not \(what) (its root is <\(root.name)>).")
        }
        return root
    }
}
