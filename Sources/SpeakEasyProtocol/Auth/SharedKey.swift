/// Shared Key's strings to sign, for the schemes the toolkit speaks: Table SharedKey and
/// SharedKeyLite, Blob SharedKey (version 2015-02-21 and later).
///
/// The same functions serve the client (which signs the request it is about to send) and the server
/// (which recomputes the string from the request it received): both sides see a ``RequestHead``.
/// The canonicalized resource is `/` + account + the path exactly as sent, so with path-style URLs
/// (`http://127.0.0.1:10002/devstoreaccount1/speakers`) the account appears twice:
/// `/devstoreaccount1/devstoreaccount1/speakers`.
package enum SharedKey {
    /// The scheme named in the `Authorization` header.
    package enum Scheme: String, Sendable, CaseIterable {
        case sharedKey = "SharedKey"
        case sharedKeyLite = "SharedKeyLite"
    }

    /// Table SharedKey: `VERB\nContent-MD5\nContent-Type\nDate\nCanonicalizedResource`, where Date is
    /// `x-ms-date` when sent (every SDK sends it), else `Date`; pass `date` to choose another value.
    package static func tableStringToSign(
        _ head: RequestHead,
        account: String,
        date: String? = nil
    )
        throws(AuthorizationError) -> String
    {
        let date = date ?? head.header("x-ms-date") ?? head.header("Date") ?? ""
        let resource = try tableResource(head, account: account)
        return
            "\(head.method)\n\(head.header("Content-MD5") ?? "")\n\(head.header("Content-Type") ?? "")\n\(date)\n\(resource)"
    }

    /// Table SharedKeyLite: `Date\nCanonicalizedResource`.
    package static func tableLiteStringToSign(
        _ head: RequestHead,
        account: String,
        date: String? = nil
    )
        throws(AuthorizationError) -> String
    {
        let date = date ?? head.header("x-ms-date") ?? head.header("Date") ?? ""
        return "\(date)\n\(try tableResource(head, account: account))"
    }

    /// Blob SharedKey: the verb, eleven standard headers (Content-Length empty when 0), the
    /// canonicalized `x-ms-*` headers and the canonicalized resource with every query parameter.
    package static func blobStringToSign(_ head: RequestHead, account: String) throws(AuthorizationError) -> String {
        var lines = [head.method]
        for name in [
            "Content-Encoding", "Content-Language", "Content-Length", "Content-MD5", "Content-Type", "Date",
            "If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range",
        ] {
            var value = head.header(name) ?? ""
            // Since 2015-02-21 a zero length signs as empty, so that clients that send
            // `Content-Length: 0` and clients that send none sign alike.
            if name == "Content-Length", value == "0" { value = "" }
            lines.append(value)
        }
        return lines.joined(separator: "\n") + "\n" + canonicalizedHeaders(head)
            + (try blobResource(head, account: account))
    }

    /// Every `x-ms-*` header as `name:value\n`, names lower-cased and sorted as the service sorts
    /// them (``StorageHeaderCollation``), values trimmed; repeated headers joined with `,`.
    static func canonicalizedHeaders(_ head: RequestHead) -> String {
        var values: [String: [String]] = [:]
        for (name, value) in head.headers {
            let lowered = name.lowercased()
            guard lowered.hasPrefix("x-ms-") else { continue }
            values[lowered, default: []].append(trimmed(value))
        }
        return values.keys.sorted(by: StorageHeaderCollation.precedes).map {
            "\($0):\(values[$0]!.joined(separator: ","))\n"
        }.joined()
    }

    /// `/account/path` plus `?comp=value` when the request has a `comp` parameter.
    private static func tableResource(_ head: RequestHead, account: String) throws(AuthorizationError) -> String {
        let query = try queryItems(head)
        let comp = query.items.first { $0.name == "comp" }
        return "/\(account)\(head.path)" + (comp.map { "?comp=\($0.value)" } ?? "")
    }

    /// `/account/path`, then for each query parameter, by lower-cased name in ordinal order:
    /// `\nname:value` with the decoded values (several values sorted and joined with `,`).
    private static func blobResource(_ head: RequestHead, account: String) throws(AuthorizationError) -> String {
        var values: [String: [String]] = [:]
        for item in try queryItems(head).items { values[item.name.lowercased(), default: []].append(item.value) }
        var resource = "/\(account)\(head.path)"
        for name in values.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            resource += "\n\(name):\(values[name]!.sorted().joined(separator: ","))"
        }
        return resource
    }

    private static func queryItems(_ head: RequestHead) throws(AuthorizationError) -> QueryItems {
        do { return try head.queryItems.get() } catch {
            throw AuthorizationError(
                .authenticationFailed,
                detail: "The request's query cannot be decoded: \(error.description)."
            )
        }
    }

    private static func trimmed(_ value: String) -> String {
        var text = Substring(value)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
