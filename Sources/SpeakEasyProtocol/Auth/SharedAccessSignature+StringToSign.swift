extension SharedAccessSignature {
    /// The string to sign, in the layout `sv` selects for the token's kind.
    ///
    /// Fields are the decoded values, joined by `\n`, an absent field an empty line:
    ///
    /// | kind, sv | fields |
    /// |---|---|
    /// | table ≥ 2015-04-05 | sp st se `/table/<acct>/<tn lower-cased>` si sip spr sv spk srk epk erk |
    /// | table 2012-02-12… | sp st se `/<acct>/<tn>` si sv spk srk epk erk |
    /// | blob ≥ 2020-12-06 | sp st se `/blob/<acct>/<container>[/<blob>]` si sip spr sv sr snapshot ses rscc rscd rsce rscl rsct |
    /// | blob 2018-11-09… | the same without ses |
    /// | blob 2015-04-05… | without sr, snapshot and ses |
    /// | blob 2013-08-15… | sp st se `/<acct>/<container>[/<blob>]` si sv rscc rscd rsce rscl rsct |
    /// | account ≥ 2020-12-06 | acct sp ss srt st se sip spr sv ses, each line ending in `\n` |
    /// | account 2015-04-05… | the same without ses |
    ///
    /// (The Python SDKs' `*shared_access_signature.py`, azure-storage 0.20.3's for 2014-02-14, and
    /// Azure's "Create a service SAS" / "Create an account SAS" pages.) A blob SAS signs the
    /// resource the request reaches, so it needs `target`; a table SAS signs its `tn`.
    ///
    /// - Parameter legacyTableCase: for a table SAS before 2015-04-05, sign `tn` as written rather
    ///   than lower-cased (azure-storage 0.20.3 signs it as given; the verifier tries both).
    package func stringToSign(
        account: String,
        target: SASTarget,
        legacyTableCase: Bool = true
    )
        throws(AuthorizationError) -> String
    {
        guard let version = SASVersion(version) else {
            throw AuthorizationError(
                .authenticationFailed,
                detail: "'\(self.version.prefix(40))' is not a storage service version (sv)."
            )
        }
        func unsupported() -> AuthorizationError {
            AuthorizationError(
                .authenticationFailed,
                detail: "sv '\(version)' is older than any SAS version this server supports for this kind of SAS."
            )
        }
        let blobOverrides: [String?] = [
            cacheControl, contentDisposition, contentEncoding, contentLanguage, contentType,
        ]
        switch kind {
        case .account:
            guard version >= .v2015_04_05 else { throw unsupported() }
            var fields: [String?] = [
                account, permissions, services, resourceTypes, start, expiry, ipRange, protocols, version.text,
            ]
            if version >= .v2020_12_06 { fields.append(encryptionScope) }
            return fields.map { ($0 ?? "") + "\n" }.joined()
        case .table:
            let table = tableName ?? ""
            let range: [String?] = [startPartitionKey, startRowKey, endPartitionKey, endRowKey]
            if version >= .v2015_04_05 {
                return join(
                    [
                        permissions, start, expiry, "/table/\(account)/\(table.lowercased())", identifier, ipRange,
                        protocols, version.text,
                    ] + range
                )
            }
            guard version >= .v2012_02_12 else { throw unsupported() }
            let name = legacyTableCase ? table : table.lowercased()
            return join([permissions, start, expiry, "/\(account)/\(name)", identifier, version.text] + range)
        case .blob:
            let path: String
            switch (resource, target) {
            case ("c", .container(let container)), ("c", .blob(let container, _)): path = container
            case ("b", .blob(let container, let name)), ("bs", .blob(let container, let name)):
                path = "\(container)/\(name)"
            default:
                throw AuthorizationError(
                    .authorizationResourceTypeMismatch,
                    detail: "A blob SAS with sr=\(resource ?? "") does not cover this resource."
                )
            }
            if version >= .v2015_04_05 {
                var fields: [String?] = [
                    permissions, start, expiry, "/blob/\(account)/\(path)", identifier, ipRange, protocols,
                    version.text,
                ]
                if version >= .v2018_11_09 { fields += [resource, snapshot] }
                if version >= .v2020_12_06 { fields.append(encryptionScope) }
                return join(fields + blobOverrides)
            }
            guard version >= .v2013_08_15 else { throw unsupported() }
            return join([permissions, start, expiry, "/\(account)/\(path)", identifier, version.text] + blobOverrides)
        case nil:
            throw AuthorizationError(
                .authenticationFailed,
                detail: "The SAS has none of ss/srt (account), tn (table) or sr (blob)."
            )
        }
    }

    private func join(_ fields: [String?]) -> String { fields.map { $0 ?? "" }.joined(separator: "\n") }

    /// The token signed with the account's credentials (the client side). For a blob SAS, `target`
    /// is the container or blob it is for.
    package func signed(
        with credentials: StorageCredentials,
        target: SASTarget = .service
    ) throws(AuthorizationError)
        -> SharedAccessSignature
    {
        var copy = self
        copy.signature = credentials.sign(try stringToSign(account: credentials.accountName, target: target))
        return copy
    }
}
