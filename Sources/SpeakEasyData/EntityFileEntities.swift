import SpeakEasyCore
public import SpeakEasyFormats
public import SpeakEasyModel

/// The entities of a data file as ``EntityFile/entities(at:format:delimiter:)`` reads them: one at a
/// time, in file order, with memory flat however large the file.
///
/// The file is opened when iteration starts, and read again by each new iteration. It is read on a
/// thread of its own, a batch of entities at a time, so a slow disk or a pipe holds up no thread of
/// Swift's cooperative pool: the iterating task waits suspended.
public struct EntityFileEntities: AsyncSequence, Sendable {
    /// An entity of the file.
    public typealias Element = Entity
    /// What a read throws: a file that cannot be opened, or content that is not the format, naming the
    /// file, line and field.
    public typealias Failure = FormatError

    let path: String
    let options: EntityFiles.ReadOptions

    /// Opens the file and starts at its first entity.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(path: path, options: options) }

    /// Reads the entities of an ``EntityFileEntities`` one after another.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let path: String
        private let options: EntityFiles.ReadOptions
        private var reader: (any EntityReader)?
        /// Entities read ahead, with the line each starts on, and the next one to return.
        private var batch: [(entity: Entity, line: Int)] = []
        private var index = 0
        /// What stopped the read: nil while there is more to read.
        private var end: Result<Void, FormatError>?
        private var lastLine = 0

        /// Entities read on one trip to the reading thread: few enough to keep memory flat, enough
        /// that starting the thread costs little beside them.
        static let batchSize = 256

        init(path: String, options: EntityFiles.ReadOptions) {
            self.path = path
            self.options = options
        }

        /// The next entity; nil after the last.
        public mutating func next() async throws(FormatError) -> Entity? {
            if index == batch.count {
                if let end {
                    self.end = .success(())  // an error is thrown once; then the sequence is over
                    try end.get()
                    return nil
                }
                await readBatch()
                if batch.isEmpty { return try await next() }
            }
            defer { index += 1 }
            lastLine = batch[index].line
            return batch[index].entity
        }

        /// Reads the next batch off the cooperative pool, opening the file on the first. An error
        /// comes after the entities read before it.
        private mutating func readBatch() async {
            var reader = self.reader
            var read: [(entity: Entity, line: Int)] = []
            var end: Result<Void, FormatError>?
            let (path, options) = (self.path, self.options)
            await offPool {
                do throws(FormatError) {
                    if reader == nil { reader = try EntityFiles.open(path, options: options).reader }
                    while read.count < Self.batchSize {
                        guard let entity = try reader?.next() else {
                            end = .success(())
                            return
                        }
                        read.append((entity, reader?.entityLine ?? 0))
                    }
                } catch {
                    end = .failure(error)
                }
            }
            self.reader = end == nil ? reader : nil
            (batch, index, self.end) = (read, 0, end)
        }

        /// The line of the file where the entity ``next()`` returned last starts; 0 before the first.
        public var line: Int { lastLine }
    }
}
