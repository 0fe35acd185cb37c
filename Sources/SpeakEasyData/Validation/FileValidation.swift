/// `validate FILE…`: every file read once, in order, through one ``Validator``.
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
    ) throws(FormatError) -> ValidationReport {
        let total = paths.reduce(Int64(0)) { $0 + (FileSystem.size(of: $1) ?? 0) }
        var validator = Validator(options: options)
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
            truncated: truncated || validator.isFull && !validator.findings.isEmpty && truncated)
    }
}
