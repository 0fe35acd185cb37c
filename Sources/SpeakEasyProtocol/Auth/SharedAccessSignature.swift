import SpeakEasyCore

/// A shared access signature token: the query parameters that authorize a request without an
/// `Authorization` header.
///
/// Three kinds: an account SAS (`ss`, `srt`), a table service SAS (`tn`, with optional key range
/// `spk`/`srk`/`epk`/`erk`) and a blob service SAS (`sr=c` for a container, `sr=b` for a blob).
/// Fields keep their decoded text exactly, since the signature covers the text, not the values.
package struct SharedAccessSignature: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case account
        case table
        case blob
    }

    /// `sv`: the version, which fixes the string-to-sign's layout.
    package var version: String
    /// `sp`: permission letters, in any order.
    package var permissions: String
    package var start: String?
    package var expiry: String?
    /// `ss`, `srt`: an account SAS's services and resource types.
    package var services: String?
    package var resourceTypes: String?
    /// `sr`: `c` or `b` (a blob SAS; `bs`, a snapshot, is read too).
    package var resource: String?
    /// `tn`: a table SAS's table.
    package var tableName: String?
    package var startPartitionKey: String?
    package var startRowKey: String?
    package var endPartitionKey: String?
    package var endRowKey: String?
    /// `si`: a stored access policy's id (``StoredPolicyResolution``).
    package var identifier: String?
    package var ipRange: String?
    /// `spr`: `https` or `https,http`.
    package var protocols: String?
    /// `ses`: the encryption scope (2020-12-06 and later).
    package var encryptionScope: String?
    /// `snapshot`: a blob SAS's snapshot time, part of the string to sign since 2018-11-09.
    package var snapshot: String?
    /// `rscc`, `rscd`, `rsce`, `rscl`, `rsct`: response header overrides of a blob SAS.
    package var cacheControl: String?
    package var contentDisposition: String?
    package var contentEncoding: String?
    package var contentLanguage: String?
    package var contentType: String?
    /// `sig`: base64 HMAC-SHA256 of the string to sign. Empty until ``signed(with:target:)``.
    package var signature: String

    package init(
        version: String,
        permissions: String,
        start: String? = nil,
        expiry: String? = nil,
        signature: String = ""
    ) {
        self.version = version
        self.permissions = permissions
        self.start = start
        self.expiry = expiry
        self.signature = signature
    }

    /// The query parameters a token is made of.
    static let fieldNames: Set<String> = [
        "sig", "sv", "sp", "st", "se", "ss", "srt", "sr", "tn", "spk", "srk", "epk", "erk", "si", "sip", "spr", "ses",
        "snapshot",
        "rscc", "rscd", "rsce", "rscl", "rsct",
    ]

    /// Whether a query carries a SAS (a `sig`), so the request is to be checked as one.
    package static func isPresent(in query: QueryItems) -> Bool { query["sig"] != nil }

    /// Reads a token from a request's (or a connection string's) query parameters.
    ///
    /// Checks only what the token must have to be read: `sig`, `sv` as a date-shaped version, `sp`,
    /// and something that says its kind. Signature, times and permissions are checked by
    /// ``verify(credentials:service:target:now:sourceIP:isHTTPS:policies:)``.
    package init(query: QueryItems) throws(AuthorizationError) {
        func fail(_ detail: String) -> AuthorizationError { AuthorizationError(.authenticationFailed, detail: detail) }
        // One pass over the parameters (the first of a name counts, names in any case): a server
        // reads a token on every request.
        var fields: [String: String] = [:]
        for item in query.items {
            let name = item.name.lowercased()
            // Two signatures cannot both be checked, and Azure refuses the token (403; Azurite's
            // tests/blob/sas.test.ts "generateAccountSASQueryParameters should reject duplicate SAS
            // signature query" expects it).
            if name == "sig", fields[name] != nil { throw fail("sig is given more than once.") }
            if Self.fieldNames.contains(name), fields[name] == nil { fields[name] = item.value }
        }
        guard let signature = fields["sig"], !signature.isEmpty else { throw fail("sig is mandatory. Cannot be empty") }
        guard let version = fields["sv"], !version.isEmpty else { throw fail("sv is mandatory. Cannot be empty") }
        guard SASVersion(version) != nil else {
            throw fail("'\(version.prefix(40))' is not a storage service version (sv), such as 2019-02-02.")
        }
        self.init(
            version: version,
            permissions: fields["sp"] ?? "",
            start: fields["st"],
            expiry: fields["se"],
            signature: signature
        )
        services = fields["ss"]
        resourceTypes = fields["srt"]
        resource = fields["sr"]
        tableName = fields["tn"]
        startPartitionKey = fields["spk"]
        startRowKey = fields["srk"]
        endPartitionKey = fields["epk"]
        endRowKey = fields["erk"]
        identifier = fields["si"]
        ipRange = fields["sip"]
        protocols = fields["spr"]
        encryptionScope = fields["ses"]
        snapshot = fields["snapshot"]
        cacheControl = fields["rscc"]
        contentDisposition = fields["rscd"]
        contentEncoding = fields["rsce"]
        contentLanguage = fields["rscl"]
        contentType = fields["rsct"]
        guard kind != nil else { throw fail("The SAS has none of ss/srt (account), tn (table) or sr (blob).") }
        if kind == .blob, let resource, !["c", "b", "bs"].contains(resource) {
            throw fail("sr '\(resource.prefix(10))' is not a supported signed resource (c, b).")
        }
    }

    /// What the token grants access to; nil when it names none.
    package var kind: Kind? {
        if services != nil || resourceTypes != nil { return .account }
        if tableName != nil { return .table }
        if resource != nil { return .blob }
        return nil
    }

    /// The token as a query string, fields in the order the Python SDKs write them, values encoded
    /// as they encode them (`urllib.parse.quote`): what a client appends to its URLs.
    package var token: String {
        let fields: [(String, String?)] = [
            ("st", start), ("se", expiry), ("sp", permissions.isEmpty ? nil : permissions),
            ("sip", ipRange), ("spr", protocols), ("sv", version),
            ("ss", services), ("srt", resourceTypes), ("si", identifier), ("sr", resource), ("ses", encryptionScope),
            ("rscc", cacheControl), ("rscd", contentDisposition), ("rsce", contentEncoding),
            ("rscl", contentLanguage), ("rsct", contentType),
            ("tn", tableName), ("spk", startPartitionKey), ("srk", startRowKey), ("epk", endPartitionKey),
            ("erk", endRowKey), ("sig", signature.isEmpty ? nil : signature),
        ]
        return fields.compactMap { name, value in value.map { "\(name)=\(PercentEncoding.encodePath($0))" } }.joined(
            separator: "&"
        )
    }

    package var description: String {
        var text = token
        if let range = text.firstRange(of: "sig=") { text = String(text[..<range.upperBound]) + "…" }
        return "SAS(\(text))"
    }
}
