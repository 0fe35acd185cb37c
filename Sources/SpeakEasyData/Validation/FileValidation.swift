/// `validate FILE…`: every file read once, in order, through one ``Validator``, on one thread.
///
/// Reading and checking were tried on two threads (a task checking one batch while the next is
/// read): on two cores shared with other work it was slower, as entities allocated on one thread and
/// freed on another cost more in malloc than the overlap saved. One thread it is.
package enum FileValidation {
    /// How far a run has got, for a progress bar.
    package struct Progress: Sendable {
        package var entities: Int
        package var bytesRead: Int64
        package var bytesTotal: Int64
    }

    /// The rules a file run applies: all selected ones except those that need a storage account.
    package static func rules(_ options: ValidationOptions) -> [Rule] {
        Rule.allCases.filter { options.rules.contains($0) && !$0.needsStore }
    }

    /// Validates the files; a malformed or missing file throws (65, 66) instead of being a finding.
    package static func run(
        _ paths: [String], options: ValidationOptions, readOptions: EntityFiles.ReadOptions = EntityFiles.ReadOptions(),
        progress: (Progress) -> Void = { _ in }
    ) async throws(FormatError) -> ValidationReport {
        let total = paths.reduce(Int64(0)) { $0 + (FileSystem.size(of: $1) ?? 0) }
        // Events are about 1.1 KB in every format: sizing the duplicate sets from the input's size
        // saves rehashing them as they grow (an underestimate only means they grow; over 1 KB a
        // record, an overestimate costs little).
        var validator = Validator(options: options, expectedEvents: Int(min(total / 1024, 1 << 26)))
        var bytesBefore: Int64 = 0
        var truncated = false
        reading: for path in paths {
            var opened = try EntityFiles.open(path, options: readOptions)
            validator.begin(.file(path))
            while let entity = try opened.reader.next() {
                validator.check(entity, line: opened.reader.entityLine)
                if validator.isFull {
                    truncated = true
                    break reading
                }
                if validator.entitiesChecked & 0x3FFF == 0 {
                    progress(Progress(entities: validator.entitiesChecked, bytesRead: bytesBefore + opened.input.bytesRead, bytesTotal: total))
                }
            }
            bytesBefore += opened.input.bytesRead
        }
        if !truncated { validator.finishReferences() }
        progress(Progress(entities: validator.entitiesChecked, bytesRead: bytesBefore, bytesTotal: total))
        return ValidationReport(
            rules: rules(options).map(\.descriptor), findings: validator.findings, inputs: paths, entitiesChecked: validator.entitiesChecked,
            truncated: truncated)
    }
}
