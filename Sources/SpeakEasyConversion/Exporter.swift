package import SpeakEasyCore
package import SpeakEasyFormats
package import SpeakEasyModel
package import SpeakEasyStorage

/// Moves entities from files or a store into one formatted output: the loop behind `export`.
///
/// Streams one entity at a time, except with `sortBy`, which must hold every entity in memory.
/// The output goes to an ``OutputFile`` (a temporary file renamed when complete), so a failed run
/// leaves nothing behind.
package struct Exporter {
    package enum Source {
        case file(String)
        case store(any StorageAccount, table: String, partition: String?)
        /// Entities from anywhere (the library's writers take any sequence): a loop that hands each
        /// entity to the function it is given.
        case entities((_ each: (Entity) throws -> Void) async throws -> Void)
    }

    package var readOptions = EntityFiles.ReadOptions()
    package var writeOptions: EntityFiles.WriteOptions
    /// A property to order by (`--sort`), or nil to keep input order.
    package var sortBy: String?
    /// Ranges of a store read at once (``ParallelScan``), in the order one query gives; 1 reads a
    /// store one page after another.
    package var storeParallel = 1

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
    /// a new property (a whole table does: speakers and events have different ones), a file is copied
    /// once more with the complete header. Stdout cannot be rewritten, so CSV for it is spooled to a
    /// temporary file first, and copied out with the complete header at the end.
    @discardableResult
    package func run(
        _ sources: [Source],
        to output: OutputFile,
        progress: (Progress) -> Void = { _ in }
    ) async throws -> Int {
        if output.isStream, writeOptions.format == .csv, writeOptions.columns == nil {
            return try await runThroughSpool(sources, to: output, progress: progress)
        }
        do {
            let (count, formatter) = try await convert(sources, output, progress)
            if let csv = formatter as? CSVFormatter, csv.headerIsIncomplete,
                let written = try output.flushedTemporaryPath()
            {
                try csv.rewriteWithFinalHeader(inputPath: written, outputPath: output.name)
                output.abandon()
            } else {
                try output.commit()
            }
            return count
        } catch {
            output.abandon()
            throw error
        }
    }

    /// CSV for stdout (or a pipe or device): converted into a temporary file, whose header may grow
    /// until the last entity, then copied to the output with its final header. Memory stays flat; the
    /// disk holds the CSV once, until the copy is done.
    private func runThroughSpool(
        _ sources: [Source],
        to output: OutputFile,
        progress: (Progress) -> Void
    ) async throws -> Int {
        let spool = try OutputFile(path: FileSystem.temporaryDirectory + "/speakeasy-export.csv")
        defer { spool.abandon() }
        do {
            let (count, formatter) = try await convert(sources, spool, progress)
            let input = try ByteInput(path: try spool.flushedTemporaryPath() ?? "-")
            // The output's own failure (a reader that closed the pipe, told quietly) is thrown as it is.
            var outputFailure: FileError?
            let sink: (inout [UInt8]) throws(FormatError) -> Void = { buffer throws(FormatError) in
                do throws(FileError) { try output.drain(&buffer) } catch {
                    outputFailure = error
                    throw FormatError(error)
                }
            }
            do {
                if let csv = formatter as? CSVFormatter, csv.headerIsIncomplete {
                    try csv.rewriteWithFinalHeader(input, into: sink)
                } else {
                    var buffer: [UInt8] = []
                    while try input.read(appendingTo: &buffer) > 0 { try sink(&buffer) }
                }
            } catch {
                throw outputFailure ?? error
            }
            try output.commit()
            return count
        } catch {
            output.abandon()
            throw error
        }
    }

    private func convert(
        _ sources: [Source],
        _ output: OutputFile,
        _ progress: (Progress) -> Void
    ) async throws -> (Int, any EntityFormatter) {
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
        var bytesRead: Int64 = 0
        var seen = 0
        var wanted = WantedProperties(columns: writeOptions.columns, sortBy: sortBy)

        func write(_ entity: Entity) throws {
            try formatter.append(entity, into: &buffer)
            count += 1
            if buffer.count >= flushSize { try output.drain(&buffer) }
        }
        /// Entities already formatted (``JSONPageCopier``), written as they are.
        func write(_ page: JSONFormattedPage, _ json: inout JSONFormatter) throws {
            json.appendSeparator(before: page, into: &buffer)
            try output.drain(&buffer)
            try output.write(contentsOf: page.bytes)
            count += page.count
            advance(by: page.count)
        }
        /// Counts entities read, reporting progress each time the count passes a multiple of 4,096.
        func advance(by read: Int) {
            let before = seen
            seen += read
            if before / 4096 != seen / 4096 {
                progress(Progress(entities: seen, bytesRead: bytesRead, bytesTotal: totalBytes))
            }
        }
        func emit(_ entity: Entity) throws {
            wanted.note(entity)
            if sortBy != nil { held.append(project(entity)) } else { try write(project(entity)) }
            advance(by: 1)
        }

        // Consecutive files are read on a second thread while a third formats and writes (off the
        // cooperative pool: reading waits on the reader's threads).
        var index = sources.startIndex
        while index < sources.endIndex {
            switch sources[index] {
            case .file:
                var paths: [String] = []
                while index < sources.endIndex, case .file(let path) = sources[index] {
                    paths.append(path)
                    index += 1
                }
                let before = bytesRead
                try await offPool {
                    try PrefetchingFileReader(paths: paths, options: readOptions).forEach { entity, position in
                        bytesRead = before + position.bytesRead
                        try emit(entity)
                    }
                }
            case .store(let store, let table, let partition):
                // The names are checked only when nothing comes back: before the read, the checks
                // were two round trips more for every export of an account.
                let before = count + held.count
                let query = EntityQuery(partition: partition)
                do {
                    if let remote = store as? any RepliesInJSON, var json = formatter as? JSONFormatter,
                        writeOptions.columns == nil, sortBy == nil
                    {
                        // Nothing to choose or order: the pages go to the output as they are copied.
                        try await remote.forEachFormattedPage(
                            table: table,
                            query,
                            parallel: storeParallel,
                            formatter: json
                        ) { try write($0, &json) }
                        formatter = json
                    } else {
                        try await store.forEachEntity(table: table, query, parallel: storeParallel) { try emit($0) }
                    }
                } catch let error as StorageError where error.reason == .notFound {
                    try await Self.checkNames(store, table: table, partition: nil)
                    throw error
                }
                if count + held.count == before { try await Self.checkNames(store, table: table, partition: partition) }
                index += 1
            case .entities(let forEach):
                try await forEach(emit)
                index += 1
            }
        }
        try wanted.check()
        if let sortBy {
            for entity in EntityOrdering.sorted(held, by: sortBy) { try write(entity) }
        }
        formatter.end(into: &buffer)
        try output.drain(&buffer)
        progress(Progress(entities: count, bytesRead: bytesRead, bytesTotal: totalBytes))
        return (count, formatter)
    }

    /// A table or partition that is not there is an error naming the ones that are, not an empty output.
    /// Asked once a read has failed for want of its table, or found nothing.
    private static func checkNames(_ store: any StorageAccount, table: String, partition: String?) async throws {
        let tables = try await store.tableNames()
        guard tables.contains(table) else {
            throw NameNotFoundError(
                option: "--table",
                name: table,
                what: "table of \(store.displayName)",
                known: tables,
                kind: .inputMissing
            )
        }
        func isEmpty(_ partition: String) async throws -> Bool {
            try await !store.matchesAny(table: table, EntityQuery(partition: partition))
        }
        guard let partition, try await isEmpty(partition) else { return }
        // Listing every partition would read every entity on Azure: name the contract's that are there.
        var known: [String] = []
        for name in [DataContract.eventsPartition, DataContract.speakersPartition] {
            if try await !isEmpty(name) {
                known.append(name)
            }
        }
        throw NameNotFoundError(
            option: "--partition",
            name: partition,
            what: "partition of table '\(table)'",
            known: known,
            kind: .inputMissing
        )
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
