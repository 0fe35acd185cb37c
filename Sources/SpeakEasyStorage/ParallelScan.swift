package import SpeakEasyModel

/// A query read as many ranges at once, its entities handed on in the order one query would give
/// them: what makes `export --store` and `validate --store` scale with `--parallel` against a remote
/// account, where each page costs a round trip whatever the machine.
///
/// A continuation chain is one page after another: against Azure, at 20–50 ms a round trip, 20,000
/// to 50,000 entities a second. So the scan cuts the query into ranges of about a page each
/// (``ScanRange``), reads up to `parallel` of them at once, and hands the pages on in key order.
///
/// - **Where to cut** comes from the keys themselves. The first read of a partition is one page of
///   it; from its keys (``KeySample``) the scan guesses the key about 90% of a page further on, cuts
///   the rest of the partition there, and reads the piece while guessing the next. Every page read
///   refreshes the guess. A guess is only that: a piece that holds more than a page is read on from
///   its last entity, and one that comes back empty or nearly so (a gap in the keys, or their end)
///   makes the next read an uncut one, which finds where the keys go on. (What a piece leaves after
///   a full page says only that the guess overshot, and a sample is taken from a page of enough keys.) Whole partitions are cut
///   by PartitionKey the same way, so many small partitions are read in parallel too.
/// - **Order**: ranges follow each other in key order, and their pages are handed on in that order,
///   as they arrive at the front; pages read ahead wait.
/// - **Memory**: at most `parallel` reads are in flight, and they and the pages read ahead are at
///   most ``pageLimit``, half as many again, so memory is bounded by that many pages whatever the
///   table's size. The half is slack for a front page that comes late: under one bound of
///   `parallel` for both, the pages read behind it filled the window and the reads stopped. With
///   a slack of `parallel`, `export` at `--parallel 16` against `serve --latency 20` took 4.0–4.7 s
///   where it had taken 4.3–5.5 s (three runs of each, alternated). Half that slack was as fast
///   (3.55–3.90 s against 3.52–4.07 s, four runs each, alternated) at 87–96 MB of peak RSS instead
///   of 94–110: a writer slowed by its disk lets the pages read ahead pile up to the bound, and the
///   issue's 128 MB was close.
/// - **Errors**: the first failure of any read fails the scan, with that read's error (a missing
///   table is the same ``StorageError`` a serial read gives); the other reads are cancelled and
///   awaited. A throw from the handler stops it the same way.
package struct ParallelScan: Sendable {
    package let account: any StorageAccount
    package let table: String
    package let query: EntityQuery
    /// Reads in flight, at most; they and the pages held are at most ``pageLimit``.
    package let parallel: Int
    /// Entities asked for a page: Azure serves at most 1,000.
    package let pageSize: Int

    package init(account: any StorageAccount, table: String, query: EntityQuery, parallel: Int, pageSize: Int = 1000) {
        self.account = account
        self.table = table
        self.query = query
        self.parallel = max(1, parallel)
        self.pageSize = max(1, pageSize)
    }

    /// Pages read or being read, at most: `parallel` and half as many again.
    package var pageLimit: Int { parallel + (parallel + 1) / 2 }

    /// What a scan did: for tests and benchmarks, which hold it to its bounds.
    package struct Statistics: Sendable {
        /// Query requests sent.
        package var requests = 0
        /// Pages held or in flight at once, at most.
        package var peakPages = 0
        /// Reads in flight at once, at most.
        package var peakReads = 0
        /// Non-empty pages handed on.
        package var pages = 0
    }

    /// Hands every page's entities to `body`, in key order. `body` runs on the calling task, one
    /// page at a time, while the next pages are read.
    @discardableResult
    package func run(_ body: ([Entity]) throws -> Void) async throws -> Statistics {
        try await run(reading: account.pageReader(table: table)) { page in try body(page.entities) }
    }

    /// Hands every page to `body`, in key order, each page read by `read` (a query, where it starts,
    /// and how many entities to ask for): a page may be anything that tells its keys, such as one
    /// formatted for the output as it is read, on the task that read it.
    @discardableResult
    package func run<Page: ScanPage>(
        reading read: @escaping @Sendable (EntityQuery, ContinuationToken?, Int) async throws -> Page,
        _ body: (Page) throws -> Void
    ) async throws -> Statistics {
        var state = State<Page>(pageSize: pageSize, root: ScanRange.whole(query))
        let (query, limit) = (self.query, self.pageSize)
        try await withThrowingTaskGroup(of: (Int, ScanRange, Page).self) { group in
            while true {
                while let page = state.takeReadyPage() { try body(page) }
                if state.isFinished { break }
                while let (id, range) = state.nextRead(parallel: parallel, pageLimit: pageLimit) {
                    group.addTask {
                        (id, range, try await read(range.narrowing(query), range.resume, limit))
                    }
                }
                guard let (id, range, page) = try await group.next() else {
                    preconditionFailure("a parallel scan waits on no read while entities remain")
                }
                state.finished(id, range, page)
            }
        }
        return state.statistics
    }

    /// The ranges in key order, each unread, being read or read, and what the reads taught of the keys.
    private struct State<Page: ScanPage> {
        enum Item {
            case unread(ScanRange)
            case reading(id: Int)
            case ready(Page)
        }

        var items: [Item]
        var reading = 0
        var ready = 0
        var nextID = 0
        var statistics = Statistics()
        /// Aim each cut piece at 90% of a page, so that few spill into a second request.
        let target: Int
        var rowKeys = KeyAlphabet()
        var partitionKeys = KeyAlphabet()
        /// The latest sample of each partition's RowKeys, and of the PartitionKeys.
        var rowSamples: [String: KeySample] = [:]
        var partitionSample: KeySample?

        /// The fewest keys a sample is taken from: a quarter of a cut piece.
        let minimumSample: Int

        init(pageSize: Int, root: ScanRange) {
            target = max(1, pageSize * 9 / 10)
            minimumSample = max(2, target / 4)
            items = [.unread(root)]
        }

        var isFinished: Bool { items.isEmpty }

        /// The front page when it has been read: the next in key order.
        mutating func takeReadyPage() -> Page? {
            guard case .ready(let page)? = items.first else { return nil }
            items.removeFirst()
            ready -= 1
            return page
        }

        /// The next read to start while the window has room: the first unread range, cut to a page's
        /// worth when the keys read so far tell where.
        mutating func nextRead(parallel: Int, pageLimit: Int) -> (Int, ScanRange)? {
            guard let index = items.firstIndex(where: { if case .unread = $0 { true } else { false } }) else {
                return nil
            }
            // With nothing in flight, the front range is read even when pages read ahead fill the
            // window, or the scan would wait on nothing.
            guard (reading < parallel && reading + ready < pageLimit) || (reading == 0 && index == 0) else {
                return nil
            }
            guard case .unread(var range) = items[index] else { return nil }
            let id = nextID
            nextID += 1
            items[index] = .reading(id: id)
            if let boundary = boundary(cutting: range) {
                let (piece, rest) = range.cut(at: boundary)
                range = piece
                items.insert(.unread(rest), at: index + 1)
            }
            reading += 1
            statistics.requests += 1
            statistics.peakPages = max(statistics.peakPages, reading + ready)
            statistics.peakReads = max(statistics.peakReads, reading)
            return (id, range)
        }

        /// Where to cut a range so that its first piece holds about a page; nil: read it whole.
        func boundary(cutting range: ScanRange) -> String? {
            guard range.resume == nil, let lower = range.lower else { return nil }
            switch range.keys {
            case .rows(let partition):
                return rowSamples[partition]?.boundary(
                    after: lower.key,
                    target: target,
                    before: range.upper,
                    alphabet: rowKeys
                )
            case .partitions:
                return partitionSample?.boundary(
                    after: lower.key,
                    target: target,
                    before: range.upper,
                    alphabet: partitionKeys
                )
            }
        }

        /// Puts a read page in its range's place, followed by what of the range remains.
        mutating func finished(_ id: Int, _ range: ScanRange, _ page: Page) {
            reading -= 1
            guard let index = items.firstIndex(where: { if case .reading(id) = $0 { true } else { false } }) else {
                preconditionFailure("a parallel scan lost track of a read")
            }
            var replacement: [Item] = []
            if page.count > 0 {
                replacement.append(.ready(page))
                ready += 1
                statistics.pages += 1
            }
            if let next = page.next {
                if page.count > 0 {
                    let last = page.count - 1
                    replacement += range.remainder(
                        afterPartitionKey: page.partitionKey(at: last),
                        rowKey: page.rowKey(at: last)
                    ).map(Item.unread)
                } else {
                    var resumed = range
                    resumed.resume = next
                    replacement.append(.unread(resumed))
                }
            }
            items.replaceSubrange(index...index, with: replacement)
            learn(range, page)
        }

        /// Refreshes the samples from a page of enough keys to tell their density (a few keys, what a
        /// cut left after a full page, say, would mislead the next cuts). A range that came back
        /// (nearly) empty and done says the keys thin out there, so the next read after it goes uncut
        /// and finds where they go on; what a cut left says only that the cut overshot.
        mutating func learn(_ range: ScanRange, _ page: Page) {
            let count = page.count
            let sparse = page.next == nil && count < 2 && !range.isLeftover
            let stride = max(1, count / 32)
            switch range.keys {
            case .rows(let partition):
                if sparse { rowSamples[partition] = nil }
                learnRows(of: partition, page, 0..<count, stride: stride)
            case .partitions:
                if sparse { partitionSample = nil }
                guard count > 0 else { return }
                let (first, last) = (page.partitionKey(at: 0), page.partitionKey(at: count - 1))
                for index in Swift.stride(from: 0, to: count, by: stride) {
                    partitionKeys.learn(page.partitionKey(at: index))
                }
                partitionKeys.learn(last)
                if first != last, count >= minimumSample {
                    partitionSample = KeySample(first: first, last: last, count: count)
                }
                // The rows of the last partition are what remains to read next.
                let start = (0..<count).last { page.partitionKey(at: $0) != last }.map { $0 + 1 } ?? 0
                learnRows(of: last, page, start..<count, stride: stride)
            }
        }

        mutating func learnRows(of partition: String, _ page: Page, _ indices: Range<Int>, stride: Int) {
            guard !indices.isEmpty, indices.count >= minimumSample else { return }
            let (first, last) = (page.rowKey(at: indices.lowerBound), page.rowKey(at: indices.upperBound - 1))
            for index in Swift.stride(from: indices.lowerBound, to: indices.upperBound, by: stride) {
                rowKeys.learn(page.rowKey(at: index))
            }
            rowKeys.learn(last)
            // Samples of partitions read to their end are dropped: they would only pile up.
            if rowSamples.count > 1024 { rowSamples.removeAll() }
            rowSamples[partition] = KeySample(first: first, last: last, count: indices.count)
        }
    }
}

extension StorageAccount {
    /// Every entity the query matches, in key order, read `parallel` ranges at a time
    /// (``ParallelScan``); with `parallel` 1, the serial read, one page ahead.
    package func forEachEntity(
        table: String,
        _ query: EntityQuery,
        parallel: Int,
        pageSize: Int = 1000,
        _ body: (Entity) throws -> Void
    ) async throws {
        try await forEachPage(
            table: table,
            query,
            parallel: parallel,
            pageSize: pageSize,
            reading: pageReader(table: table)
        ) { page in
            for entity in page.entities { try body(entity) }
        }
    }

    /// What reads a page of decoded entities of `table` for a scan: ``query(table:_:from:limit:)``.
    func pageReader(table: String) -> @Sendable (EntityQuery, ContinuationToken?, Int) async throws -> EntityPage {
        { query, from, limit in try await self.query(table: table, query, from: from, limit: limit) }
    }

    /// Every page of the query, in key order, each read by `read` (a query, where it starts, how many
    /// entities to ask for): `parallel` ranges at a time (``ParallelScan``), or with `parallel` 1 one
    /// continuation after another, one page ahead.
    package func forEachPage<Page: ScanPage>(
        table: String,
        _ query: EntityQuery,
        parallel: Int,
        pageSize: Int = 1000,
        reading read: @escaping @Sendable (EntityQuery, ContinuationToken?, Int) async throws -> Page,
        _ body: (Page) throws -> Void
    ) async throws {
        guard parallel > 1 else {
            try await forEachPageReadingAhead(
                { from in try await read(query, from, pageSize) },
                next: { $0.next },
                body
            )
            return
        }
        try await ParallelScan(account: self, table: table, query: query, parallel: parallel, pageSize: pageSize).run(
            reading: read,
            body
        )
    }
}
