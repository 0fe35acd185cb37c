import SpeakEasyCore
package import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads entity files on threads of their own while the caller's thread handles the entities, so
/// parsing and formatting (or checking) run on several cores at once.
///
/// A file is cut into pieces that parse on their own (``EntityFiles/splitter(for:format:pieceSize:options:)``),
/// which `pieceReaders` threads parse at once (one per core), each taking the next piece. (A file the
/// splitter finds no place to cut in is one piece, read on one thread.)
///
/// Entities cross in batches through ``BoundedQueue``s of a few batches: memory stays bounded, and
/// entities and errors arrive in input order, whichever thread read them. Handled batches travel back
/// to the thread that read them, to be freed there: memory freed on another thread than the one that
/// allocated it takes malloc's slow path on both, which cost more than the second core gained.
package struct PrefetchingFileReader: Sendable {
    package let paths: [String]
    package let options: EntityFiles.ReadOptions
    /// Entities per batch: enough to make the hand-over cheap, few enough to stay small.
    package var batchSize = 256
    /// Threads that parse the pieces of one file at once; 1 reads everything on one thread.
    package var pieceReaders = min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    /// Bytes per piece (tests make it tiny, to cut wherever a cut is possible).
    package var pieceSize = 1 << 20

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

    fileprivate enum Message: Sendable {
        case items([EntityItem], lines: [Int], file: Int, bytesRead: Int64)
        /// Entities whose values are still to be made, on the consuming thread.
        case staged([any StagedEntity], file: Int, bytesRead: Int64)
        /// The entities of one piece of a file, which come through the piece's own queue, ended by
        /// `finished` or `failed`.
        case piece(PieceChannel)
        case failed(FormatError)
        case finished
    }

    /// The queue of one piece's entities, and where its handled batches go back to.
    fileprivate final class PieceChannel: Sendable {
        let queue = BoundedQueue<Message>(capacity: 4)
        let recycled: BoundedQueue<Message>
        init(recycled: BoundedQueue<Message>) { self.recycled = recycled }
    }

    /// Calls `body` with every entity of every file, in order, and where it was read. Throws the
    /// first malformed input or unreadable file, or what `body` throws (which stops the reading
    /// threads).
    package func forEach(_ body: (Entity, Position) throws -> Void) throws {
        precondition(!options.plainEvents, "plain events are read with forEachItem")
        try forEachItem { item, position in
            guard case .entity(let entity) = item else { return }
            try body(entity, position)
        }
    }

    /// ``forEach(_:)`` for readers that may hand over plain events (``EntityFiles/ReadOptions/plainEvents``).
    package func forEachItem(_ body: (EntityItem, Position) throws -> Void) throws {
        let queue = BoundedQueue<Message>(capacity: 4)
        let reader = WorkerThread { [self] in read(into: queue) }
        var current: PieceChannel?
        defer {
            // Stop every reading thread, wherever it waits, then wait for them.
            queue.close()
            current?.queue.close()
            while let message = queue.tryPop() { if case .piece(let channel) = message { channel.queue.close() } }
            reader.join()
        }
        func handle(_ message: Message) throws {
            switch message {
            case .items(let batch, let lines, let file, let bytesRead):
                for (item, line) in zip(batch, lines) {
                    try body(item, Position(file: file, line: line, bytesRead: bytesRead))
                }
            case .staged(let batch, let file, let bytesRead):
                for entity in batch {
                    try body(
                        .entity(try entity.entity()),
                        Position(file: file, line: entity.line, bytesRead: bytesRead)
                    )
                }
            case .failed(let error):
                throw error
            case .piece, .finished:
                break
            }
        }
        while true {
            switch queue.pop() {
            case .piece(let channel):
                current = channel
                while true {
                    let message = channel.queue.pop()
                    if case .finished = message { break }
                    try handle(message)
                    _ = channel.recycled.tryPush(message)  // when full, freed here after all
                }
                current = nil
            case .finished:
                return
            case let message:
                try handle(message)
            }
        }
    }

    // MARK: The reading threads

    /// Reads every file into `queue`, then `finished`; stops at the first failure or when the consumer
    /// closes the queue.
    private func read(into queue: BoundedQueue<Message>) {
        let recycled = BoundedQueue<Message>(capacity: 8)
        var done: Int64 = 0
        for (file, path) in paths.enumerated() {
            do throws(FormatError) {
                let (input, format, options) = try EntityFiles.openInput(path, options: options)
                if pieceReaders > 1 {
                    let splitter = EntityFiles.splitter(
                        for: input,
                        format: format,
                        pieceSize: pieceSize,
                        options: options
                    )
                    let (pieces, offset) = (PieceDispenser(splitter: splitter, queue: queue), done)
                    let helpers = (1..<pieceReaders).map { _ in
                        WorkerThread { [self] in
                            readPieces(
                                from: pieces,
                                format: format,
                                options: options,
                                file: file,
                                offset: offset,
                                recycled: BoundedQueue(capacity: 8)
                            )
                        }
                    }
                    readPieces(
                        from: pieces,
                        format: format,
                        options: options,
                        file: file,
                        offset: offset,
                        recycled: recycled
                    )
                    for helper in helpers { helper.join() }
                    guard pieces.allRead else { return }
                } else {
                    let reader = try EntityFiles.reader(for: input, format: format, options: options)
                    guard
                        try sendAll(
                            of: reader,
                            to: queue,
                            recycled: recycled,
                            file: file,
                            bytesRead: { done + input.bytesRead }
                        )
                    else { return }
                }
                done += input.bytesRead
            } catch {
                _ = queue.push(.failed(error))
                return
            }
        }
        _ = queue.push(.finished)
    }

    /// Reads pieces of file number `file` (its first byte `offset` bytes into all files) while there
    /// are any, each into its own queue; stops them all when one fails or the consumer has stopped.
    private func readPieces(
        from pieces: PieceDispenser,
        format: DataFormat,
        options: EntityFiles.ReadOptions,
        file: Int,
        offset: Int64,
        recycled: BoundedQueue<Message>
    ) {
        while let (piece, channel) = pieces.next(recycled: recycled) {
            do throws(FormatError) {
                let reader = try EntityFiles.reader(for: piece, format: format, options: options)
                guard
                    try sendAll(
                        of: reader,
                        to: channel.queue,
                        recycled: recycled,
                        file: file,
                        bytesRead: { offset + piece.fileBytesRead }
                    ),
                    channel.queue.push(.finished)
                else { return pieces.stop() }
            } catch {
                _ = channel.queue.push(.failed(error))
                return pieces.stop()
            }
        }
    }

    /// Sends all of `reader`'s entities to `queue`, in batches; false when the consumer has stopped.
    private func sendAll(
        of reader: any EntityReader,
        to queue: BoundedQueue<Message>,
        recycled: BoundedQueue<Message>,
        file: Int,
        bytesRead: () -> Int64
    ) throws(FormatError) -> Bool {
        if let staged = reader as? any StagedEntityReader {
            // The reader's second stage runs on the consuming thread.
            return try send(
                { () throws(FormatError) in try staged.nextStaged().map { ($0, 0) } },
                queue,
                recycled,
                { batch, _ in .staged(batch, file: file, bytesRead: bytesRead()) }
            )
        }
        var reader = reader
        return try send(
            { () throws(FormatError) in try reader.nextItem().map { ($0, reader.entityLine) } },
            queue,
            recycled,
            { batch, lines in .items(batch, lines: lines, file: file, bytesRead: bytesRead()) }
        )
    }

    /// Sends everything `next` yields (an item and its line), in batches; false when the consumer
    /// has stopped.
    private func send<Item>(
        _ next: () throws(FormatError) -> (Item, Int)?,
        _ queue: BoundedQueue<Message>,
        _ recycled: BoundedQueue<Message>,
        _ message: ([Item], [Int]) -> Message
    ) throws(FormatError) -> Bool {
        var batch: [Item] = []
        var lines: [Int] = []
        batch.reserveCapacity(batchSize)
        lines.reserveCapacity(batchSize)
        while true {
            let read: (Item, Int)?
            do {
                read = try next()
            } catch {
                // What was read before the error goes first: a staged entity's own error (a bad
                // value) comes before a later entry's XML error, as it does when a cut falls between.
                if !batch.isEmpty { _ = queue.push(message(batch, lines)) }
                throw error
            }
            guard let (item, line) = read else { break }
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

/// Hands the pieces of one file to the threads that read them, one at a time and in order: each
/// piece's queue joins the consumer's queue as the piece is taken, so the consumer sees the pieces
/// in file order whichever thread reads which.
private final class PieceDispenser: Sendable {
    private struct State {
        var stopped = false
        /// Whether every piece was taken, and nothing failed or stopped.
        var allRead = false
    }

    /// Also serialises the splitter: a piece is cut and queued while it is held.
    private let state = Locked(State())
    nonisolated(unsafe) private let splitter: any InputSplitter
    private let queue: BoundedQueue<PrefetchingFileReader.Message>

    init(splitter: any InputSplitter, queue: BoundedQueue<PrefetchingFileReader.Message>) {
        self.splitter = splitter
        self.queue = queue
    }

    /// Whether every piece was taken, and nothing failed or stopped.
    var allRead: Bool { state.withLock { $0.allRead } }

    /// The next piece and the queue for its entities; nil when there are no more pieces, reading
    /// failed (the failure is queued) or the consumer has stopped.
    func next(
        recycled: BoundedQueue<PrefetchingFileReader.Message>
    ) -> (InputPiece, PrefetchingFileReader.PieceChannel)? {
        state.withLock { state -> sending (InputPiece, PrefetchingFileReader.PieceChannel)? in
            guard !state.stopped else { return nil }
            let channel = PrefetchingFileReader.PieceChannel(recycled: recycled)
            do throws(FormatError) {
                guard let piece = try splitter.nextPiece() else {
                    state.stopped = true
                    state.allRead = true
                    return nil
                }
                guard queue.push(.piece(channel)) else {
                    state.stopped = true
                    return nil
                }
                return (piece, channel)
            } catch {
                state.stopped = true
                if queue.push(.piece(channel)) { _ = channel.queue.push(.failed(error)) }
                return nil
            }
        }
    }

    /// No more pieces: one failed, or the consumer has stopped.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.allRead = false
        }
    }
}
