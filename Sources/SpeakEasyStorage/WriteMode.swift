/// How a write treats an entity whose keys already exist: the three ways Azure writes an entity that
/// need not be there already.
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
