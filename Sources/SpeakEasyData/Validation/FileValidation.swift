/// `validate FILE…`: every file read once, in order, through one ``Validator``.
///
/// Reading (parsing) and checking overlap: while a detached task checks one batch of entities, this
/// task reads the next, so on two cores a run takes about as long as reading alone. Only one task
/// touches the validator at a time (each batch's task is awaited before the next starts).
package enum FileValidation {
    /// How far a run has got, for a progress bar.
    package struct Progress: Sendable {
        package var entities: Int
        package var bytesRead: Int64
        package var bytesTotal: Int64
    }

    /// Entities handed over at a time: large enough that a hand-over costs nothing, small enough
    /// that two batches in flight are a few MB.
    static let batchSize = 2048

    /// The validator, shared with the task that checks a batch (never with two at once).
    private final class Shared: @unchecked Sendable {
        var validator: Validator
        init(_ validator: Validator) { self.validator = validator }
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
        let shared = Shared(Validator(options: options))
        var checking: Task<Void, Never>?
        var bytesBefore: Int64 = 0
        var truncated = false
        var read = 0

        /// Waits for the batch being checked; true when `--max-errors` was reached.
        func settle() async -> Bool {
            await checking?.value
            checking = nil
            return shared.validator.isFull
        }
        func handOver(_ entities: [Entity], _ lines: [Int], from path: String) {
            checking = Task.detached {
                shared.validator.begin(.file(path))
                for index in entities.indices {
                    shared.validator.check(entities[index], line: lines[index])
                    if shared.validator.isFull { return }
                }
            }
        }

        do {
            reading: for path in paths {
                var opened = try EntityFiles.open(path, options: readOptions)
                var entities: [Entity] = [], lines: [Int] = []
                entities.reserveCapacity(Self.batchSize)
                lines.reserveCapacity(Self.batchSize)
                while let entity = try opened.reader.next() {
                    entities.append(entity)
                    lines.append(opened.reader.entityLine)
                    guard entities.count == Self.batchSize else { continue }
                    if await settle() {
                        truncated = true
                        break reading
                    }
                    handOver(entities, lines, from: path)
                    read += entities.count
                    entities = []
                    lines = []
                    entities.reserveCapacity(Self.batchSize)
                    lines.reserveCapacity(Self.batchSize)
                    if read & 0x3FFF == 0 {
                        progress(Progress(entities: read, bytesRead: bytesBefore + opened.input.bytesRead, bytesTotal: total))
                    }
                }
                if await settle() {
                    truncated = true
                    break reading
                }
                if !entities.isEmpty { handOver(entities, lines, from: path) }
                bytesBefore += opened.input.bytesRead
            }
            if await settle() { truncated = true }
        } catch {
            _ = await settle()
            throw error
        }
        var validator = shared.validator
        if !truncated { validator.finishReferences() }
        progress(Progress(entities: validator.entitiesChecked, bytesRead: bytesBefore, bytesTotal: total))
        return ValidationReport(
            rules: rules(options).map(\.descriptor), findings: validator.findings, inputs: paths, entitiesChecked: validator.entitiesChecked,
            truncated: truncated)
    }
}
