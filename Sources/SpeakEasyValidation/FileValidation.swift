import SpeakEasyCore
package import SpeakEasyFormats

/// `validate FILE…`: every file read once, in order, through one ``Validator``.
///
/// The files are parsed on other threads (``PrefetchingFileReader``; an Atom feed or NDJSON in pieces
/// on one thread per core) while this one checks: the readers hand over batches and take them back to
/// free, so malloc's cross-thread slow path, which made a first two-thread version slower than one
/// thread, is not paid.
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

    /// The selected rules a file run leaves out because they need a storage account. The default
    /// selection, every rule, leaves nothing out worth saying; a narrower one (`--rule photos`) does.
    package static func notRun(_ options: ValidationOptions) -> [Rule] {
        guard options.rules != Set(Rule.allCases) else { return [] }
        return Rule.allCases.filter { options.rules.contains($0) && $0.needsStore }
    }

    /// Validates the files; a malformed or missing file throws (65, 66) instead of being a finding.
    ///
    /// Events in the contract's plain shape need no entity built: with `plainEvents`, the readers that
    /// can tell them (JSON, NDJSON, CSV) hand them over as they are (``PlainEvent``); without, every entity
    /// is built and checked whole (the tests compare both).
    package static func run(
        _ paths: [String],
        options: ValidationOptions,
        readOptions: EntityFiles.ReadOptions = EntityFiles.ReadOptions(),
        plainEvents: Bool = true,
        progress: (Progress) -> Void = { _ in }
    ) async throws(FormatError) -> ValidationReport {
        let started = ContinuousClock.now
        let sizes = paths.map { FileSystem.size(of: $0) }
        let total = sizes.reduce(Int64(0)) { $0 + ($1 ?? 0) }
        // Events are about 1.1 KB in every format: sizing the duplicate sets from the input's size
        // saves rehashing them as they grow (an underestimate only means they grow; over 1 KB a
        // record, an overestimate costs little).
        var validator = Validator(options: options, expectedEvents: Int(min(total / 1024, 1 << 26)))
        var file = -1
        var bytesRead: Int64 = 0
        // Entities read from each file, for the overview's inputs.
        var entitiesBefore = 0
        var perFile = [Int](repeating: 0, count: paths.count)
        struct Full: Error {}
        do {
            var readOptions = readOptions
            readOptions.plainEvents = plainEvents
            readOptions.keepsUnreadableDates = true  // a date that is no date is a finding, not the end
            // Off the cooperative pool: checking waits on the readers' threads.
            try await offPool {
                try PrefetchingFileReader(paths: paths, options: readOptions).forEachItem { item, position in
                    if position.file != file {
                        if file >= 0 { perFile[file] = validator.entitiesChecked - entitiesBefore }
                        entitiesBefore = validator.entitiesChecked
                        file = position.file
                        validator.begin(.file(paths[file]))
                    }
                    bytesRead = position.bytesRead
                    switch item {
                    case .entity(let entity): validator.check(entity, line: position.line)
                    case .plainEvent(let event): validator.check(event, line: position.line)
                    }
                    if validator.isFull { throw Full() }
                    if validator.entitiesChecked & 0x3FFF == 0 {
                        progress(Progress(entities: validator.entitiesChecked, bytesRead: bytesRead, bytesTotal: total))
                    }
                }
            }
        } catch let error as FormatError {
            throw error
        } catch {
            // Full: --max-errors cut the run short.
        }
        if file >= 0 { perFile[file] = validator.entitiesChecked - entitiesBefore }
        if !validator.isFull { validator.finishReferences() }
        progress(Progress(entities: validator.entitiesChecked, bytesRead: bytesRead, bytesTotal: total))
        var overview: ReportOverview?
        if options.collectsOverview {
            overview = validator.overview(
                inputs: paths.indices.map {
                    ReportOverview.Input(name: paths[$0], bytes: sizes[$0], entities: perFile[$0])
                }
            )
            overview!.elapsed = ContinuousClock.now - started
        }
        var report = ValidationReport(
            rules: rules(options).map(\.descriptor),
            findings: validator.findings,
            inputs: paths,
            entitiesChecked: validator.entitiesChecked,
            truncated: validator.isFull,
            maxErrors: options.maxErrors
        )
        report.overview = overview
        report.notRun = notRun(options).map(\.descriptor)
        return report
    }
}
