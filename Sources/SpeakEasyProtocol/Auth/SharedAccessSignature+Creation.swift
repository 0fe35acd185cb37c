package import SpeakEasyModel

/// Unsigned tokens for the client to sign with ``SharedAccessSignature/signed(with:target:)``; the
/// defaults are the versions the Python SDKs write (azure-data-tables 12.7.0: 2019-02-02,
/// azure-storage-blob 12.31.1: 2026-10-06).
extension SharedAccessSignature {
    /// A table service SAS for `table`, optionally limited to a key range.
    package static func table(
        _ table: String,
        permissions: String,
        start: EdmDateTime? = nil,
        expiry: EdmDateTime,
        protocols: String? = nil,
        keyRange: TableKeyRange? = nil,
        version: String = "2019-02-02"
    ) -> SharedAccessSignature {
        var sas = SharedAccessSignature(
            version: version,
            permissions: permissions,
            start: start.map(SASTime.format),
            expiry: SASTime.format(expiry)
        )
        sas.protocols = protocols
        sas.tableName = table
        sas.startPartitionKey = keyRange?.startPartitionKey
        sas.startRowKey = keyRange?.startRowKey
        sas.endPartitionKey = keyRange?.endPartitionKey
        sas.endRowKey = keyRange?.endRowKey
        return sas
    }

    /// A blob service SAS: `sr=c` for a whole container, `sr=b` for one blob (sign it with the
    /// matching ``SASTarget``).
    package static func blob(
        resource: String,
        permissions: String,
        start: EdmDateTime? = nil,
        expiry: EdmDateTime,
        protocols: String? = nil,
        version: String = "2026-10-06"
    ) -> SharedAccessSignature {
        var sas = SharedAccessSignature(
            version: version,
            permissions: permissions,
            start: start.map(SASTime.format),
            expiry: SASTime.format(expiry)
        )
        sas.protocols = protocols
        sas.resource = resource
        return sas
    }

    /// An account SAS: `services` (`b`, `t`), `resourceTypes` (`s`, `c`, `o`).
    package static func account(
        services: String,
        resourceTypes: String,
        permissions: String,
        start: EdmDateTime? = nil,
        expiry: EdmDateTime,
        protocols: String? = nil,
        version: String = "2019-02-02"
    ) -> SharedAccessSignature {
        var sas = SharedAccessSignature(
            version: version,
            permissions: permissions,
            start: start.map(SASTime.format),
            expiry: SASTime.format(expiry)
        )
        sas.protocols = protocols
        sas.services = services
        sas.resourceTypes = resourceTypes
        return sas
    }
}
