import SpeakEasyConversion
public import SpeakEasyFormats
import SpeakEasyModel
public import SpeakEasyValidation

extension EntityFile {
    /// Checks files against the data contract, as `validate FILE…` does: dates the app can read,
    /// speaker references, duplicates and the contract's types and keys, in one pass over each file.
    ///
    /// ```swift
    /// let report = try await EntityFile.validate(["events.json"])
    /// for finding in report.findings where finding.severity == .error {
    ///     print(finding.location, finding.message)
    /// }
    /// ```
    ///
    /// - Returns: every finding, with the rules that ran. A finding is never thrown.
    /// - Throws: ``FormatError`` for a file that cannot be read or is not its format, naming the file,
    ///   line and field.
    public static func validate(
        _ paths: [String],
        options: ValidationOptions = ValidationOptions()
    ) async throws(FormatError) -> ValidationReport {
        try await FileValidation.run(paths, options: options)
    }
}

extension Store {
    /// Checks the store as `validate --store` does: the `events` table against the data contract, the
    /// speakers' photos in the `speakers` container, and the seed's manifest.
    ///
    /// - Returns: every finding, with the rules that ran. A finding is never thrown.
    /// - Throws: ``StorageError``, also when there is no `events` table to check.
    public func validate(
        _ options: ValidationOptions = ValidationOptions()
    ) async throws(StorageError) -> ValidationReport {
        try await storage { try await StoreValidation.run(account, options: options) }
    }

    /// Writes a table, or one partition of it, to a file, as `export` does: under a temporary name,
    /// renamed once complete.
    ///
    /// ```swift
    /// try await store.export(partition: "Events", to: "events.csv", as: .spreadsheet)
    /// ```
    ///
    /// - Parameters:
    ///   - table: the table; `events`, the app's, by default.
    ///   - partition: only this partition; nil for the whole table.
    ///   - path: the file to write; `-` writes standard output.
    ///   - format: the format and its choices.
    /// - Returns: how many entities were written.
    /// - Throws: ``StorageError`` when the store fails; ``FormatError`` when the file cannot be
    ///   written; ``NameNotFoundError``, naming the tables or partitions there are, when `table` or
    ///   `partition` is not one of them.
    @discardableResult
    public func export(
        table: String = DataContract.table,
        partition: String? = nil,
        to path: String,
        as format: OutputFormat
    ) async throws -> Int {
        try await EntityFile.export([.store(account, table: table, partition: partition)], to: path, as: format)
    }
}
