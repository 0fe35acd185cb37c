/// How a write treats an entity whose keys already exist: Azure's four ways of writing an entity.
///
/// None of them reads first. Skipping what is already there, or counting what did not change, is the
/// caller's plan over the digests of what is there, read once in bulk.
public enum WriteMode: String, Sendable, CaseIterable {
    /// Insert only; an existing entity is an error (Azure's Insert Entity).
    case insert
    /// Azure's Insert Or Replace: the new properties replace all the old ones.
    case insertOrReplace
    /// Azure's Insert Or Merge: new properties replace or join the old ones, others stay.
    case insertOrMerge
}
