public import SpeakEasyModel
public import SpeakEasyStorage

/// The entities of a table as ``Store/entities(in:partition:filter:)`` reads them: in key order, a
/// page at a time, each page asked for when the one before is used up.
///
/// Iterating again reads the table again.
public struct StoreEntities: AsyncSequence, Sendable {
    /// An entity of the table, with its `timestamp` and `etag`.
    public typealias Element = Entity
    /// What a read throws: the store's failure, or a `filter` that cannot be read.
    public typealias Failure = StorageError

    let account: any StorageAccount
    let table: String
    let partition: String?
    let filter: String?

    /// How many entities a page asks for: Azure's most.
    static let pageSize = 1000

    /// Starts reading at the table's first entity.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(entities: self)
    }

    /// Reads the pages of a ``StoreEntities`` one after another.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let entities: StoreEntities
        private var page: [Entity] = []
        private var index = 0
        private var next: ContinuationToken?
        private var started = false
        /// The query every page asks, made on the first.
        private var query: EntityQuery?

        init(entities: StoreEntities) { self.entities = entities }

        /// The next entity, reading the next page when this one is used up; nil after the last.
        public mutating func next() async throws(StorageError) -> Entity? {
            while index == page.count {
                guard !started || next != nil else { return nil }
                try await readPage()
            }
            defer { index += 1 }
            return page[index]
        }

        private mutating func readPage() async throws(StorageError) {
            let account = entities.account
            let query: EntityQuery
            if let made = self.query {
                query = made
            } else {
                query = try readQuery()
                self.query = query
            }
            let table = entities.table
            let from = next
            let read = try await storageCall(account) {
                try await account.query(table: table, query, from: from, limit: StoreEntities.pageSize)
            }
            (page, index, next, started) = (read.entities, 0, read.next, true)
        }

        /// The query, its `filter` read; a filter that cannot be read is invalidInput.
        private func readQuery() throws(StorageError) -> EntityQuery {
            do {
                return EntityQuery(
                    partition: entities.partition,
                    filter: try entities.filter.map { text throws(FilterSyntaxError) in try EntityFilter(parsing: text)
                    }
                )
            } catch {
                throw StorageError(error, account: entities.account.displayName)
            }
        }
    }
}
