import SpeakEasyData

/// `seed --from-file`: validate's file rules over what is about to be loaded, in the importer's first
/// pass (which reads every file before the store is opened anyway), so data the app cannot read is
/// told while the user can still fix it, not by a `validate` after the load.
extension FileImporter {
    /// The importer's check, and the findings of every rule a file run of `validate` applies;
    /// `inspect` sees every entity too. `storedSpeakers` are those the store holds and keeps (a merge
    /// into it): events may name them.
    func check(
        validating options: ValidationOptions,
        storedSpeakers: [(rowKey: String, name: String?)] = [],
        progress: @Sendable (SeedProgress) -> Void = { _ in },
        inspect: (_ entity: Entity, _ file: String, _ line: Int) -> Void = { _, _, _ in }
    ) throws -> (checked: Checked, report: ValidationReport) {
        var validator = Validator(options: options)
        var current: String?
        let checked = try check(progress: progress) { entity, file, line in
            if file != current {
                current = file
                validator.begin(.file(file))
            }
            validator.check(entity, line: line)
            inspect(entity, file, line)
        }
        for speaker in storedSpeakers {
            validator.knowStoredSpeaker(rowKey: speaker.rowKey, name: speaker.name, table: request.table)
        }
        validator.finishReferences()
        let report = ValidationReport(
            rules: FileValidation.rules(options).map(\.descriptor),
            findings: validator.findings,
            inputs: files,
            entitiesChecked: validator.entitiesChecked,
            truncated: false
        )
        return (checked, report)
    }
}
