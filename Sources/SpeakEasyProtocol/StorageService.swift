/// The services of a storage account that the toolkit speaks.
package enum StorageService: String, Sendable, CaseIterable {
    case blob
    case table

    /// The port Azurite, `serve` and `UseDevelopmentStorage=true` give the service on loopback.
    package var developmentPort: Int {
        switch self {
        case .blob: 10000
        case .table: 10002
        }
    }
}
