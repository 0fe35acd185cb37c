/// Reads entity files on a thread of its own while the caller's thread handles the entities, so
/// parsing and formatting run on two cores at once.
///
/// Entities cross in batches through a ``BoundedQueue`` of a few batches: memory stays bounded,
/// and errors arrive in input order after the entities before them. Handled batches travel back to
/// the reading thread to be freed there: memory freed on another thread than the one that allocated
/// it takes malloc's slow path on both, which cost more than the second core gained. Used by `export`, whose every
/// conversion is one parser and one formatter of about equal cost.
package struct PrefetchingFileReader {
    package let paths: [String]
    package let options: EntityFiles.ReadOptions
    /// Entities per batch: enough to make the hand-over cheap, few enough to stay small.
    package var batchSize = 256

    package init(paths: [String], options: EntityFiles.ReadOptions) {
        self.paths = paths
        self.options = options
    }

    private enum Message: Sendable {
        /// Entities, and the input bytes read once they were (all files so far).
        case entities([Entity], bytesRead: Int64)
        /// Entities whose values are still to be made, on the consuming thread.
        case staged([any StagedEntity], bytesRead: Int64)
        case failed(FormatError)
        case finished(bytesRead: Int64)
    }

    /// Calls `body` with every entity of every file, in order, and the input bytes read so far.
    /// Throws the first malformed input or unreadable file, or what `body` throws (which stops the
    /// reading thread).
    package func forEach(_ body: (Entity, Int64) throws -> Void) throws {
        let queue = BoundedQueue<Message>(capacity: 4)
        let recycled = BoundedQueue<Message>(capacity: 8)
        let (paths, options, batchSize) = (self.paths, self.options, self.batchSize)
        let reader = WorkerThread {
            var done: Int64 = 0
            for path in paths {
                do throws(FormatError) {
                    var opened = try EntityFiles.open(path, options: options)
                    let input = opened.input
                    let sent: Bool
                    if let staged = opened.reader as? any StagedEntityReader {
                        // The reader's second stage runs on the consuming thread.
                        sent = try Self.send(staged.nextStaged, batchSize, queue, recycled) { .staged($0, bytesRead: done + input.bytesRead) }
                    } else {
                        sent = try Self.send({ () throws(FormatError) in try opened.reader.next() }, batchSize, queue, recycled) {
                            .entities($0, bytesRead: done + input.bytesRead)
                        }
                    }
                    guard sent else { return }
                    done += input.bytesRead
                } catch {
                    _ = queue.push(.failed(error))
                    return
                }
            }
            _ = queue.push(.finished(bytesRead: done))
        }
        defer {
            queue.close()
            reader.join()
        }
        while true {
            let message = queue.pop()
            switch message {
            case .entities(let batch, let bytesRead):
                for entity in batch { try body(entity, bytesRead) }
            case .staged(let batch, let bytesRead):
                for entity in batch { try body(try entity.entity(), bytesRead) }
            case .failed(let error):
                throw error
            case .finished:
                return
            }
            _ = recycled.tryPush(message)  // when full, freed here after all
        }
    }

    /// Sends everything `next` yields, in batches; false when the consumer has stopped.
    private static func send<Item>(
        _ next: () throws(FormatError) -> Item?, _ batchSize: Int, _ queue: BoundedQueue<Message>, _ recycled: BoundedQueue<Message>,
        _ message: ([Item]) -> Message
    ) throws(FormatError) -> Bool {
        var batch: [Item] = []
        batch.reserveCapacity(batchSize)
        while let item = try next() {
            batch.append(item)
            if batch.count == batchSize {
                guard queue.push(message(batch)) else { return false }
                batch = []
                batch.reserveCapacity(batchSize)
                while recycled.tryPop() != nil {}  // free handled batches on this thread
            }
        }
        return batch.isEmpty || queue.push(message(batch))
    }
}
