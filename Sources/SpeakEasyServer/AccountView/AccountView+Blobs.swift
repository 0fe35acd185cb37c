import HTTPTypes
import NIOCore
import SpeakEasyStorage

/// The containers: a page of blobs as a gallery, and a blob's bytes for it.
extension AccountView {
    struct BlobTile {
        var name: String
        var href: String
        var isImage: Bool
        var size: Int
        var contentType: String
        var md5: String
        var etag: String
    }

    /// `/container?name=C[&marker=M]`: a page of the container's blobs, the images shown.
    func container() async throws -> ServiceResponse {
        let name = try required("name")
        guard let properties = try await account.containerProperties(name) else {
            throw AccountViewError(.notFound, "The account has no container \(name).")
        }
        let page = try await account.blobPage(
            container: name,
            prefix: "",
            from: optional("marker"),
            limit: Self.pageSize
        )
        let blobs = page.blobs.map { blob in
            BlobTile(
                name: blob.name,
                href: AccountViewLink.blob(container: name, name: blob.name),
                isImage: Self.isImage(blob.contentType),
                size: blob.size,
                contentType: blob.contentType,
                md5: blob.contentMD5,
                etag: blob.etag
            )
        }
        var context: [String: Any] = ["blobs": blobs, "access": properties.access.rawValue]
        if let marker = page.nextMarker { context["next"] = AccountViewLink.container(name, marker: marker) }
        return AccountViewPage.render(.container, context, frame: AccountViewPage.Frame(title: "Container \(name)"))
    }

    /// `/blob?container=C&name=N`: the blob's bytes, for the gallery's images (the Blob service's own
    /// port would want credentials for a private container).
    ///
    /// Its content type is data, and this is the view's own origin: only an image's type is sent as
    /// it is (an `<img>` runs no script, not even an SVG's), anything else as bytes to download; the
    /// reply may run no script and load nothing either way.
    func blob() async throws -> ServiceResponse {
        let container = try required("container")
        let name = try required("name")
        guard let blob = try await account.blob(container: container, name: name, range: nil, conditions: .none) else {
            throw AccountViewError(.notFound, "Container \(container) holds no blob of that name.")
        }
        let image = Self.isImage(blob.properties.contentType)
        var response = AccountViewPage.reply(
            .ok,
            contentType: image ? blob.properties.contentType : "application/octet-stream",
            body: ByteBuffer(bytes: blob.data)
        )
        response.headers[AccountViewPage.contentSecurityPolicyName] = "default-src 'none'; sandbox"
        if !image { response.headers[.contentDisposition] = "attachment" }
        response.headers[.eTag] = blob.properties.etag
        return response
    }

    /// Whether a content type is an image's (`image/jpeg`, `image/png; …`).
    static func isImage(_ contentType: String) -> Bool {
        contentType.lowercased().hasPrefix("image/")
    }
}
