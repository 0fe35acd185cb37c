import SpeakEasyFormats
import SpeakEasyModel
package import SpeakEasyStorage

/// The body of Get and Set Container ACL (and Azure's table ACL): `<SignedIdentifiers>` of up to
/// five `<SignedIdentifier><Id>…</Id><AccessPolicy><Start>…</Start><Expiry>…</Expiry>
/// <Permission>…</Permission></AccessPolicy></SignedIdentifier>`, times with seven fractional
/// digits as Azure writes them (Azurite: src/blob/handlers/ContainerHandler.ts `getAccessPolicy`,
/// whose comment records Azure's reply).
package enum SignedIdentifiersXML {
    package static func write(_ policies: [StoredAccessPolicy]) -> [UInt8] {
        var xml = BlobXML()
        xml.open("SignedIdentifiers")
        for policy in policies {
            xml.open("SignedIdentifier")
            xml.element("Id", policy.id)
            xml.open("AccessPolicy")
            if let start = policy.start { xml.element("Start", time(start)) }
            if let expiry = policy.expiry { xml.element("Expiry", time(expiry)) }
            if let permission = policy.permission { xml.element("Permission", permission) }
            xml.close("AccessPolicy")
            xml.close("SignedIdentifier")
        }
        xml.close("SignedIdentifiers")
        return xml.bytes
    }

    /// Reads a Set ACL body: an empty body is no policies. More than five policies, an id longer
    /// than 64 characters or a time that is not ISO 8601 are 400 InvalidXmlDocument (Azurite
    /// answers the same code for more than five).
    package static func read(_ body: [UInt8]) throws(BlobServiceError) -> [StoredAccessPolicy] {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return [] }
        let root = try BlobRequestXML.root(body, named: "SignedIdentifiers", what: "a list of signed identifiers")
        let identifiers = root.children.filter { $0.name == "SignedIdentifier" }
        guard identifiers.count <= StoredAccessPolicy.maximumCount else {
            throw .invalidXMLDocument(
                "XML specified is not syntactically valid: at most \(StoredAccessPolicy.maximumCount) signed identifiers may be set."
            )
        }
        var policies: [StoredAccessPolicy] = []
        for identifier in identifiers {
            guard let id = identifier.child("Id")?.text, !id.isEmpty, id.count <= 64 else {
                throw .invalidXMLDocument("A signed identifier's Id must have 1 to 64 characters.")
            }
            guard !policies.contains(where: { $0.id == id }) else {
                throw .invalidXMLDocument("The signed identifier '\(id)' is given twice.")
            }
            let access = identifier.child("AccessPolicy")
            func time(_ name: String) throws(BlobServiceError) -> EdmDateTime? {
                guard let text = access?.child(name)?.text, !text.isEmpty else { return nil }
                guard let date = SASTime.parse(text) else {
                    throw .invalidXMLDocument("The \(name) of '\(id)' is not an ISO 8601 time: \(text).")
                }
                return date
            }
            let permission = access?.child("Permission")?.text
            policies.append(
                StoredAccessPolicy(
                    id: id,
                    start: try time("Start"),
                    expiry: try time("Expiry"),
                    permission: permission?.isEmpty == false ? permission : nil
                )
            )
        }
        return policies
    }

    /// `yyyy-MM-ddTHH:mm:ss.fffffffZ`.
    static func time(_ date: EdmDateTime) -> String {
        let fraction = String(date.ticks % EdmDateTime.ticksPerSecond)
        return String(SASTime.format(date).prefix(19)) + "." + String(repeating: "0", count: 7 - fraction.count)
            + fraction + "Z"
    }
}
