/// Moves entities from files or a store into one formatted output: the loop behind `export`.
///
/// Streams one entity at a time, except with `sortBy`, which must hold every entity in memory.
/// The output goes to an ``OutputFile`` (a temporary file renamed when complete), so a failed run
/// leaves nothing behind.
package struct Exporter {
    package enum Source {
        case file(String)
        case store(any StorageAccount, table: String, partition: String?)
    }

    package var readOptions = EntityFiles.ReadOptions()
    package var writeOptions: EntityFiles.WriteOptions
    /// A property to order by (`--sort`), or nil to keep input order.
    package var sortBy: String?

    package init(writeOptions: EntityFiles.WriteOptions) { self.writeOptions = writeOptions }

    /// Progress: entities written so far, input bytes read and the total input size (0 if unknown).
    package struct Progress: Sendable {
        package var entities: Int
        package var bytesRead: Int64
        package var bytesTotal: Int64
    }

    /// Converts every source, in order, into `output`, then commits it. Returns the entity count.
    ///
    /// CSV without chosen columns takes its header from the first entity. When a later entity brings
    /// a new property (rare: one source's entities share their properties), a file is copied once
    /// more with the complete header; stdout cannot be rewritten, so there it is an error that says
    /// to choose `--columns` or write to a file.
    @discardableResult
    package func run(_ sources: [Source], to output: OutputFile, progress: (Progress) -> Void = { _ in }) async throws -> Int {
        do {
            let (count, formatter) = try await convert(sources, output, progress)
            if let csv = formatter as? CSVFormatter, csv.headerIsIncomplete, let written = output.temporaryPath {
                let final = try OutputFile(path: output.name)
                let input: ByteInput
                do { input = try ByteInput(path: written) } catch { throw FormatError(source: error.path, reason: error.reason, kind: error.kind) }
                try csv.rewriteWithFinalHeader(input, into: { (buffer: inout [UInt8]) throws(FormatError) in try Self.drain(&buffer, to: final) })
                output.abandon()
                try final.commit()
            } else {
                try output.commit()
            }
            return count
        } catch {
            output.abandon()
            throw error
        }
    }

    /// On stdout a CSV header cannot be completed afterwards.
    private func checkHeader(_ formatter: any EntityFormatter, _ output: OutputFile) throws(FormatError) {
        guard output.isStandardOutput, let csv = formatter as? CSVFormatter, csv.headerIsIncomplete else { return }
        throw FormatError(
            source: "stdout",
            reason: "a later entity has a property the CSV header (taken from the first entity) lacks, and stdout cannot be rewritten; "
                + "choose the columns with --columns, or write to a file with --to", kind: .usage)
    }

    private static func drain(_ buffer: inout [UInt8], to file: OutputFile) throws(FormatError) {
        do { try file.drain(&buffer) } catch { throw FormatError(source: error.path, reason: error.reason, kind: error.kind) }
    }

    private static func copy(_ input: ByteInput, to output: OutputFile) throws {
        var buffer: [UInt8] = []
        while try input.read(appendingTo: &buffer, maximum: 1 << 20) > 0 { try output.drain(&buffer) }
    }

    private func convert(_ sources: [Source], _ output: OutputFile, _ progress: (Progress) -> Void) async throws -> (Int, any EntityFormatter) {
        var formatter = try EntityFiles.formatter(writeOptions)
        let flushSize = 1 << 20
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushSize + (64 << 10))
        formatter.begin(into: &buffer)
        var count = 0
        var held: [Entity] = []
        let totalBytes = sources.reduce(Int64(0)) { total, source in
            if case .file(let path) = source, path != "-" { return total + (FileSystem.size(of: path) ?? 0) }
            return total
        }
        var bytesBefore: Int64 = 0

        func emit(_ entity: Entity) throws {
            let projected = project(entity)
            if sortBy != nil {
                held.append(projected)
                return
            }
            try formatter.append(projected, into: &buffer)
            count += 1
            if buffer.count >= flushSize {
                try checkHeader(formatter, output)
                try output.drain(&buffer)
            }
        }

        for source in sources {
            switch source {
            case .file(let path):
                var opened = try EntityFiles.open(path, options: readOptions)
                while let entity = try opened.reader.next() {
                    try emit(entity)
                    if (count + held.count) % 4096 == 0 {
                        progress(Progress(entities: count + held.count, bytesRead: bytesBefore + opened.input.bytesRead, bytesTotal: totalBytes))
                    }
                }
                bytesBefore += opened.input.bytesRead
            case .store(let store, let table, let partition):
                var token: ContinuationToken?
                repeat {
                    let page = try await store.entities(table: table, partition: partition, after: token, limit: 1000)
                    for entity in page.entities { try emit(entity) }
                    token = page.next
                    progress(Progress(entities: count + held.count, bytesRead: 0, bytesTotal: 0))
                } while token != nil
            }
        }
        if let sortBy {
            for entity in EntityOrdering.sorted(held, by: sortBy) {
                try formatter.append(entity, into: &buffer)
                count += 1
                if buffer.count >= flushSize {
                    try checkHeader(formatter, output)
                    try output.drain(&buffer)
                }
            }
        }
        formatter.end(into: &buffer)
        try checkHeader(formatter, output)
        try output.drain(&buffer)
        progress(Progress(entities: count, bytesRead: bytesBefore, bytesTotal: totalBytes))
        return (count, formatter)
    }

    /// Only the `columns` properties, in that order, when columns are chosen (keys always stay).
    private func project(_ entity: Entity) -> Entity {
        guard let columns = writeOptions.columns else { return entity }
        var projected = entity
        projected.properties = columns.compactMap { name in entity.properties.first { $0.name == name } }
        if !columns.contains("Timestamp") { projected.timestamp = nil }
        return projected
    }
}
