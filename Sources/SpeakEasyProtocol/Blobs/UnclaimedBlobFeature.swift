/// The Blob features `serve` does not claim, by the request that asks for one: leases, snapshots,
/// copy, tags, access tiers, append and page blobs, blob batch, and the rest of Azure's API. Such a
/// request gets 501 NotImplemented naming the feature, as Azurite answers what it leaves out (with
/// its own code, APINotImplemented: src/blob/errors/NotImplementedError.ts), never a 500 and never
/// a silent partial answer.
package enum UnclaimedBlobFeature {
    /// Listed in `serve --help` and the Serve article.
    package static let names = [
        "leases", "snapshots", "copy", "blob tags", "access tiers", "append blobs", "page blobs", "blob batch",
        "service properties", "soft delete",
    ]

    /// The feature a request asks for, when it is one `serve` leaves out; nil otherwise.
    /// `service`: the request addresses the account (no container in its path).
    package static func feature(method: String, comp: String?, service: Bool, header: (String) -> String?) -> String? {
        switch comp {
        case "lease": return "leases"
        case "snapshot": return "snapshots"
        case "copy", "incrementalcopy": return "copy"
        case "tags": return "blob tags"
        case "tier": return "access tiers"
        case "appendblock", "seal": return "append blobs"
        case "page", "pagelist": return "page blobs"
        case "batch": return "blob batch"
        case "undelete": return "soft delete"
        case "properties" where service, "stats" where service: return "service properties"
        default: break
        }
        if method == "PUT", comp == nil {
            if header("x-ms-copy-source") != nil { return "copy" }
            switch header("x-ms-blob-type") {
            case "AppendBlob": return "append blobs"
            case "PageBlob": return "page blobs"
            default: break
            }
        }
        if header("x-ms-lease-id") != nil || header("x-ms-lease-action") != nil { return "leases" }
        return nil
    }

    package static func error(_ feature: String) -> BlobServiceError {
        .notImplemented("This server does not support \(feature); see `serve --help` for what it serves.")
    }
}
