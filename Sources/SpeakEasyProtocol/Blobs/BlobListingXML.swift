package import SpeakEasyModel
package import SpeakEasyStorage

/// The XML bodies of List Containers and List Blobs (`EnumerationResults`), in the shape and
/// element order of Azure's replies (the recorded List Blobs reply in Tests/Fixtures/azure).
package enum BlobListingXML {
    /// What a listing request asked for, echoed in the reply.
    package struct Request: Sendable {
        package var prefix: String?
        package var marker: String?
        package var maxResults: Int?
        package var delimiter: String?

        package init(prefix: String? = nil, marker: String? = nil, maxResults: Int? = nil, delimiter: String? = nil) {
            self.prefix = prefix
            self.marker = marker
            self.maxResults = maxResults
            self.delimiter = delimiter
        }
    }

    /// List Containers: `serviceEndpoint` is the account's blob endpoint with a trailing `/`.
    /// Container ETags are quoted here, unlike blobs' in List Blobs (as Azure writes them).
    package static func containers(
        _ containers: [ContainerProperties],
        nextMarker: String?,
        request: Request,
        serviceEndpoint: String,
        includeMetadata: Bool = false,
        httpDate: (EdmDateTime) -> String
    ) -> [UInt8] {
        var xml = BlobXML()
        xml.open("EnumerationResults", attributes: [("ServiceEndpoint", serviceEndpoint)])
        echo(request, into: &xml)
        xml.open("Containers")
        for container in containers {
            xml.open("Container")
            xml.element("Name", container.name)
            xml.open("Properties")
            xml.element("Last-Modified", httpDate(container.lastModified))
            xml.element("Etag", container.etag)
            xml.element("LeaseStatus", "unlocked")
            xml.element("LeaseState", "available")
            if container.access != .private { xml.element("PublicAccess", container.access.rawValue) }
            xml.element("DefaultEncryptionScope", "$account-encryption-key")
            xml.element("DenyEncryptionScopeOverride", "false")
            xml.element("HasImmutabilityPolicy", "false")
            xml.element("HasLegalHold", "false")
            xml.close("Properties")
            if includeMetadata { metadata(container.metadata, into: &xml) }
            xml.close("Container")
        }
        xml.close("Containers")
        xml.element("NextMarker", nextMarker ?? "")
        xml.close("EnumerationResults")
        return xml.bytes
    }

    /// List Blobs of one container. Blob ETags are unquoted in listings (`0x8D5…`).
    package static func blobs(
        _ blobs: [BlobProperties],
        container: String,
        nextMarker: String?,
        request: Request,
        serviceEndpoint: String,
        httpDate: (EdmDateTime) -> String
    ) -> [UInt8] {
        self.blobs(
            blobs.map { .blob($0) },
            container: container,
            nextMarker: nextMarker,
            request: request,
            serviceEndpoint: serviceEndpoint,
            httpDate: httpDate
        )
    }

    /// List Blobs of one container, with the `<BlobPrefix>`es of a `delimiter` in name order among
    /// the blobs, as Azure interleaves them. `include=metadata` adds each blob's `<Metadata>`. A blob
    /// that is not ``BlobProperties/isCommitted`` is written as Azure lists one with
    /// `include=uncommittedblobs`.
    package static func blobs(
        _ entries: [BlobListingEntry],
        container: String,
        nextMarker: String?,
        request: Request,
        serviceEndpoint: String,
        includeMetadata: Bool = false,
        httpDate: (EdmDateTime) -> String
    ) -> [UInt8] {
        var xml = BlobXML()
        xml.open(
            "EnumerationResults",
            attributes: [("ServiceEndpoint", serviceEndpoint), ("ContainerName", container)]
        )
        echo(request, into: &xml)
        if let delimiter = request.delimiter { xml.element("Delimiter", delimiter) }
        xml.open("Blobs")
        for entry in entries {
            let blob: BlobProperties
            switch entry {
            case .prefix(let prefix):
                xml.open("BlobPrefix")
                xml.element("Name", prefix)
                xml.close("BlobPrefix")
                continue
            case .blob(let properties): blob = properties
            }
            xml.open("Blob")
            xml.element("Name", blob.name)
            guard blob.isCommitted else {
                uncommittedProperties(into: &xml)
                if includeMetadata { metadata([:], into: &xml) }
                xml.close("Blob")
                continue
            }
            xml.open("Properties")
            xml.element("Creation-Time", httpDate(blob.lastModified))
            xml.element("Last-Modified", httpDate(blob.lastModified))
            xml.element("Etag", unquoted(blob.etag))
            xml.element("Content-Length", String(blob.size))
            xml.element("Content-Type", blob.contentType)
            xml.element("Content-Encoding", blob.headers.contentEncoding)
            xml.element("Content-Language", blob.headers.contentLanguage)
            xml.element("Content-MD5", blob.contentMD5)
            xml.element("Cache-Control", blob.headers.cacheControl)
            xml.element("Content-Disposition", blob.headers.contentDisposition)
            xml.element("BlobType", "BlockBlob")
            xml.element("AccessTier", "Hot")
            xml.element("AccessTierInferred", "true")
            xml.element("LeaseStatus", "unlocked")
            xml.element("LeaseState", "available")
            xml.element("ServerEncrypted", "true")
            xml.close("Properties")
            if includeMetadata { metadata(blob.metadata, into: &xml) }
            xml.close("Blob")
        }
        xml.close("Blobs")
        xml.element("NextMarker", nextMarker ?? "")
        xml.close("EnumerationResults")
        return xml.bytes
    }

    /// The properties of a blob that has only staged blocks, as Azure lists it with
    /// `include=uncommittedblobs`: no times, ETag, content type or MD5, a length of 0, and not
    /// encrypted, for nothing is stored yet (azure-sdk-for-python's recording
    /// `test_container.test_list_blobs_with_include_uncommittedblobs`).
    private static func uncommittedProperties(into xml: inout BlobXML) {
        xml.open("Properties")
        xml.element("Content-Length", "0")
        xml.element("BlobType", "BlockBlob")
        xml.element("AccessTier", "Hot")
        xml.element("AccessTierInferred", "true")
        xml.element("LeaseStatus", "unlocked")
        xml.element("LeaseState", "available")
        xml.element("ServerEncrypted", "false")
        xml.close("Properties")
    }

    /// `<Metadata><name>value</name>…</Metadata>`, names in order (Azurite:
    /// src/blob/handlers/ContainerHandler.ts `listBlobFlatSegment` keeps them only with
    /// `include=metadata`).
    private static func metadata(_ metadata: [String: String], into xml: inout BlobXML) {
        xml.open("Metadata")
        for name in metadata.keys.sorted() { xml.element(name, metadata[name] ?? "") }
        xml.close("Metadata")
    }

    private static func echo(_ request: Request, into xml: inout BlobXML) {
        if let prefix = request.prefix { xml.element("Prefix", prefix) }
        if let marker = request.marker { xml.element("Marker", marker) }
        if let maxResults = request.maxResults { xml.element("MaxResults", String(maxResults)) }
    }

    private static func unquoted(_ etag: String) -> String {
        etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
    }
}
