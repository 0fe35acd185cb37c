/// An operation a SAS may or may not permit, with the permissions each kind of SAS needs for it.
///
/// The maps follow Azure's "Create an account SAS" operation table and its service SAS pages (and
/// azure-data-tables' `TableSasPermissions`: an upsert needs both add and update), as Azurite's
/// `OperationAccountSASPermission` and `OperationBlobSASPermission` maps do.
package enum SASOperation: Sendable, Equatable, CaseIterable {
    // Table service.
    case listTables
    case createTable
    case deleteTable
    case queryEntities
    case getEntity
    case insertEntity
    case updateEntity
    case mergeEntity
    case insertOrReplaceEntity
    case insertOrMergeEntity
    case deleteEntity
    case getTableServiceProperties
    /// Get and Set Table ACL: "only the account owner may call this operation", so no SAS allows them.
    case getTableACL
    case setTableACL
    case setTableServiceProperties
    // Blob service.
    case listContainers
    case createContainer
    case deleteContainer
    case getContainerProperties
    case setContainerProperties
    case listBlobs
    case getBlob
    case getBlobProperties
    /// Put Blob of a blob that does not exist yet (create or write suffices).
    case createBlob
    /// Put Blob over an existing blob (only write will do).
    case overwriteBlob
    case putBlock
    case putBlockList
    case setBlobProperties
    case deleteBlob

    package var service: StorageService {
        switch self {
        case .listTables, .createTable, .deleteTable, .queryEntities, .getEntity, .insertEntity, .updateEntity,
            .mergeEntity, .insertOrReplaceEntity, .insertOrMergeEntity, .deleteEntity, .getTableServiceProperties,
            .setTableServiceProperties,
            .getTableACL, .setTableACL:
            .table
        default: .blob
        }
    }

    /// An account SAS's resource types (`srt`) that allow the operation; any one suffices.
    package var accountResourceTypes: Set<Character> {
        switch self {
        case .listContainers, .getTableServiceProperties, .setTableServiceProperties: ["s"]
        // Query Tables is a container-level operation (Azure's account SAS table, Azurite's map).
        case .listTables, .createTable, .deleteTable, .createContainer, .deleteContainer, .getContainerProperties,
            .setContainerProperties, .listBlobs:
            ["c"]
        // Azurite has mapped Query Entities to both (container in one release, object in the next).
        case .queryEntities: ["c", "o"]
        case .getTableACL, .setTableACL: []
        default: ["o"]
        }
    }

    /// An account SAS's permissions (`sp`): each inner set is one requirement, met by any of its letters.
    package var accountPermissions: [Set<Character>] {
        switch self {
        case .listTables, .listContainers, .listBlobs: [["l"]]
        case .createTable, .createContainer: [["c", "w"]]
        case .deleteTable, .deleteContainer, .deleteEntity, .deleteBlob: [["d"]]
        case .queryEntities, .getEntity, .getContainerProperties, .getBlob, .getBlobProperties,
            .getTableServiceProperties:
            [["r"]]
        case .insertEntity: [["a"]]
        case .updateEntity, .mergeEntity: [["u"]]
        case .insertOrReplaceEntity, .insertOrMergeEntity: [["a"], ["u"]]
        case .setContainerProperties, .overwriteBlob, .putBlock, .setBlobProperties, .setTableServiceProperties: [["w"]]
        case .createBlob, .putBlockList: [["c", "w"]]
        case .getTableACL, .setTableACL: [[]]
        }
    }

    /// A service SAS's permissions; nil when no service SAS allows the operation (table and
    /// container management, a container's properties, metadata and ACL, listing the account:
    /// Azurite's tests/blob/sas.test.ts "Container operations on container should fail with
    /// container SAS" expects 403 for Get Container Properties with an `racwdl` container SAS).
    package var servicePermissions: [Set<Character>]? {
        switch self {
        case .listTables, .createTable, .deleteTable, .listContainers, .createContainer, .deleteContainer,
            .setContainerProperties, .getContainerProperties, .getTableServiceProperties, .setTableServiceProperties,
            .getTableACL, .setTableACL:
            nil
        case .queryEntities, .getEntity, .getBlob, .getBlobProperties: [["r"]]
        case .insertEntity: [["a"]]
        case .updateEntity, .mergeEntity: [["u"]]
        case .insertOrReplaceEntity, .insertOrMergeEntity: [["a"], ["u"]]
        case .deleteEntity, .deleteBlob: [["d"]]
        case .listBlobs: [["l"]]
        case .createBlob, .putBlockList: [["c", "w"]]
        case .overwriteBlob, .putBlock, .setBlobProperties: [["w"]]
        }
    }
}
