public import SpeakEasyFormats
public import SpeakEasyModel

/// The entities of a data file as ``EntityFile/entities(at:format:delimiter:)`` reads them: one at a
/// time, in file order, with memory flat however large the file.
///
/// The file is opened when iteration starts, and read again by each new iteration. Reading blocks the
/// calling thread while it waits for the disk, as a file read does.
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

        init(path: String, options: EntityFiles.ReadOptions) {
            self.path = path
            self.options = options
        }

        /// The next entity; nil after the last.
        public mutating func next() async throws(FormatError) -> Entity? {
            if reader == nil { reader = try EntityFiles.open(path, options: options).reader }
            return try reader?.next()
        }

        /// The line of the file where the entity ``next()`` returned last starts; 0 before the first.
        public var line: Int { reader?.entityLine ?? 0 }
    }
}
