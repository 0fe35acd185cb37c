/// The rules every backend checks before a transaction runs, with Azure's codes and texts.
extension TransactionGroups {
    /// Throws the error Azure answers a transaction with that breaks its rules, naming the first
    /// operation that breaks one.
    package static func check(_ operations: [EntityOperation], account: String) throws(StorageError) {
        guard !operations.isEmpty else {
            throw StorageError(
                .invalidInput,
                account: account,
                "A transaction needs at least one operation.",
                code: "InvalidInput"
            )
        }
        if operations.count > maximumEntities {
            throw StorageError(
                .invalidInput,
                account: account,
                "The batch request operation exceeds the maximum 100 changes per change set.",
                code: "InvalidInput"
            ).at(operation: maximumEntities)
        }
        let partition = operations[0].entity.partitionKey
        var seen = Set<String>()
        for (index, operation) in operations.enumerated() {
            guard operation.entity.partitionKey == partition else {
                throw StorageError(
                    .invalidInput,
                    account: account,
                    "All commands in a batch must operate on same entity group.",
                    code: "CommandsInBatchActOnDifferentPartitions"
                ).at(operation: index)
            }
            guard seen.insert(operation.entity.rowKey).inserted else {
                throw StorageError(
                    .invalidInput,
                    account: account,
                    "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
                    code: "InvalidDuplicateRow"
                ).at(operation: index)
            }
        }
    }
}
