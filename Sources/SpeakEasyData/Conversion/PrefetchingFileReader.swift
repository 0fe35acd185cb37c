/// Reads entity files on a thread of its own while the caller's thread handles the entities, so
/// parsing and formatting (or checking) run on two cores at once.
///
/// Entities cross in batches through a ``BoundedQueue`` of a few batches: memory stays bounded,
/// and errors arrive in input order after the entities before them. Handled batches travel back to
/// the reading thread to be freed there: memory freed on another thread than the one that allocated
/// it takes malloc's slow path on both, which cost more than the second core gained.
package struct PrefetchingFileReader {
    package let paths: [String]
    package let options: EntityFiles.ReadOptions
    /// Entities per batch: enough to make the hand-over cheap, few enough to stay small.
    package var batchSize = 256

    package init(paths: [String], options: EntityFiles.ReadOptions) {
        self.paths = paths
        self.options = options
    }

    /// Where an entity was read.
    package struct Position: Sendable {
        /// The index of its file in `paths`.
        package var file: Int
        /// The line where it starts (``EntityReader/entityLine``).
        package var line: Int
        /// Input bytes read when its batch was complete, over all files so far (for progress).
        package var bytesRead: Int64
    }

    private enum Message: Sendable {
        case entities([Entity], lines: [Int], file: Int, bytesRead: Int64)
        /// Entities whose values are still to be made, on the consuming thread.
        case staged([any StagedEntity], file: Int, bytesRead: Int64)
        case failed(FormatError)
        case finished
    }

    /// Calls `body` with every entity of every file, in order, and where it was read. Throws the
    /// first malformed input or unreadable file, or what `body` throws (which stops the reading
    /// thread).
    package func forEach(_ body: (Entity, Position) throws -> Void) throws {
        let queue = BoundedQueue<Message>(capacity: 4)
        let recycled = BoundedQueue<Message>(capacity: 8)
        let (paths, options, batchSize) = (self.paths, self.options, self.batchSize)
        let reader = WorkerThread {
            var done: Int64 = 0
            for (file, path) in paths.enumerated() {
                do throws(FormatError) {
                    var opened = try EntityFiles.open(path, options: options)
                    let input = opened.input
                    let sent: Bool
                    if let staged = opened.reader as? any StagedEntityReader {
                        // The reader's second stage runs on the consuming thread.
                        sent = try Self.send({ () throws(FormatError) in try staged.nextStaged().map { ($0, 0) } }, batchSize, queue, recycled) { batch, _ in
                            .staged(batch, file: file, bytesRead: done + input.bytesRead)
                        }
                    } else {
                        sent = try Self.send({ () throws(FormatError) in
                            try opened.reader.next().map { ($0, opened.reader.entityLine) }
                        }, batchSize, queue, recycled) { batch, lines in
                            .entities(batch, lines: lines, file: file, bytesRead: done + input.bytesRead)
                        }
                    }
                    guard sent else { return }
                    done += input.bytesRead
                } catch {
                    _ = queue.push(.failed(error))
                    return
                }
            }
            _ = queue.push(.finished)
        }
        defer {
            queue.close()
            reader.join()
        }
        while true {
            let message = queue.pop()
            switch message {
            case .entities(let batch, let lines, let file, let bytesRead):
                for (entity, line) in zip(batch, lines) { try body(entity, Position(file: file, line: line, bytesRead: bytesRead)) }
            case .staged(let batch, let file, let bytesRead):
                for entity in batch { try body(try entity.entity(), Position(file: file, line: entity.line, bytesRead: bytesRead)) }
            case .failed(let error):
                throw error
            case .finished:
                return
            }
            _ = recycled.tryPush(message)  // when full, freed here after all
        }
    }

    /// Sends everything `next` yields (an item and its line), in batches; false when the consumer
    /// has stopped.
    private static func send<Item>(
        _ next: () throws(FormatError) -> (Item, Int)?, _ batchSize: Int, _ queue: BoundedQueue<Message>, _ recycled: BoundedQueue<Message>,
        _ message: ([Item], [Int]) -> Message
    ) throws(FormatError) -> Bool {
        var batch: [Item] = [], lines: [Int] = []
        batch.reserveCapacity(batchSize)
        lines.reserveCapacity(batchSize)
        while let (item, line) = try next() {
            batch.append(item)
            lines.append(line)
            if batch.count == batchSize {
                guard queue.push(message(batch, lines)) else { return false }
                (batch, lines) = ([], [])
                batch.reserveCapacity(batchSize)
                lines.reserveCapacity(batchSize)
                while recycled.tryPop() != nil {}  // free handled batches on this thread
            }
        }
        return batch.isEmpty || queue.push(message(batch, lines))
    }
}
