import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve`'s browser view as a person sees it: each page rendered by headless Chromium over a small
/// seeded store (``ViewedStore``), the DOM it built compared with the store's own counts, and the
/// HTML judged by the Nu checker.
@Suite(.enabled(if: HeadlessChromium.enabled, HeadlessChromium.howToEnable))
struct AccountViewTests {
    /// Rows a grid page holds (``AccountView``'s page size).
    static let pageSize = 100

    /// Runs `body` with a served, seeded store and its view's base URL (`http://127.0.0.1:PORT`).
    static func withView<T: Sendable>(
        events: Int = 250,
        _ body: (RunningServer, String) async throws -> T
    ) async throws -> T {
        try await withRunningServer(
            prepare: { try await ViewedStore.make($0, events: events) },
            { server in try await body(server, "http://127.0.0.1:\(server.uiPort)") }
        )
    }

    /// Runs the steps in a fresh browser, off Swift's pool; a run that logged an error or reached off
    /// the machine fails the test.
    static func browse(_ steps: [HeadlessChromium.Step]) async throws -> HeadlessChromium.Run {
        let run = try await offPool { try HeadlessChromium.run(steps) }
        #expect(run.errors.isEmpty, "console errors: \(run.errors)")
        #expect(run.offsite.isEmpty, "requests off the machine: \(run.offsite)")
        return run
    }

    @Test("the first page lists every table, and each partition with the store's own count")
    func tablesAndCounts() async throws {
        try await Self.withView { server, base in
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            let run = try await Self.browse([
                .navigate(base + "/"),
                .evaluate("Array.from(document.querySelectorAll('h3.table-name')).map(h => h.textContent)"),
                .evaluate(
                    """
                    Object.fromEntries(Array.from(document.querySelectorAll('table.counts')).map(t =>
                      [t.dataset.table, Object.fromEntries(Array.from(t.tBodies[0].rows).map(r =>
                        [r.cells[0].textContent, Number(r.cells[1].textContent)]))]))
                    """
                ),
            ])
            let tables = try await store.tableNames()
            #expect(run.results[0].array?.compactMap(\.string) == tables)
            for table in tables {
                let shown = try #require(run.results[1][table]?.object, "\(table) has no counts")
                let counts = try await store.entityCounts(table: table)
                #expect(shown.mapValues { $0.int ?? -1 } == counts, "\(table)")
            }
        }
    }

    @Test("following the next links of a partition reaches its last entity, each entity once")
    func pagingReachesTheEnd() async throws {
        try await Self.withView { server, base in
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            let count = try #require(try await store.entityCounts(table: ViewedStore.table)["Events"])
            let pages = (count + Self.pageSize - 1) / Self.pageSize
            #expect(pages >= 3, "the store is made to need several pages")
            let rows = "Array.from(document.querySelectorAll('#grid tbody tr')).map(r => r.dataset.rowKey)"
            var steps: [HeadlessChromium.Step] = [.navigate(base + "/entities?table=events&partition=Events")]
            for page in 1...pages {
                steps.append(.evaluate(rows))
                if page < pages { steps.append(.click("#next")) }
            }
            steps.append(.evaluate("document.getElementById('next') === null"))
            let run = try await Self.browse(steps)
            let keys = run.results.dropLast().flatMap { $0.array?.compactMap(\.string) ?? [] }
            #expect(keys.count == count)
            #expect(Set(keys).count == count, "no entity twice")
            var last: String?
            try await store.forEachEntity(table: ViewedStore.table, partition: "Events") { last = $0.rowKey }
            #expect(keys.last == last, "the last page ends with the partition's last entity")
            #expect(run.results.last == .bool(true), "the last page has no next link")
        }
    }

    @Test("a $filter submitted in the form narrows the grid to the entities it matches")
    func filterNarrows() async throws {
        try await Self.withView { server, base in
            let cutoff = try EdmDateTime(parsing: "2026-02-15T00:00:00Z")
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            var matching: [String] = []
            try await store.forEachEntity(table: ViewedStore.table, partition: "Events") { entity in
                if case .dateTime(let date)? = entity["EventDate"], date < cutoff { matching.append(entity.rowKey) }
            }
            try #require(!matching.isEmpty && matching.count < Self.pageSize, "one page of matches: \(matching.count)")
            let run = try await Self.browse([
                .navigate(base + "/entities?table=events&partition=Events"),
                .evaluate(
                    "document.getElementById('filter').value = \"EventDate lt datetime'2026-02-15T00:00:00Z'\"; true"
                ),
                .click("form.filter button"),
                .waitFor("location.search.includes('filter')"),
                .evaluate("Array.from(document.querySelectorAll('#grid tbody tr')).map(r => r.dataset.rowKey)"),
                .evaluate(
                    """
                    (() => { const i = Array.from(document.querySelectorAll('#grid thead th')).findIndex(h => h.dataset.name === 'EventDate');
                      return Array.from(document.querySelectorAll('#grid tbody tr')).map(r => r.cells[i].textContent) })()
                    """
                ),
                .evaluate("document.getElementById('filter').value"),
            ])
            #expect(run.results[1].array?.compactMap(\.string) == matching)
            let dates = try (run.results[2].array ?? []).map { try EdmDateTime(parsing: $0.string ?? "") }
            #expect(dates.count == matching.count && dates.allSatisfy { $0 < cutoff })
            #expect(
                run.results[3] == .string("EventDate lt datetime'2026-02-15T00:00:00Z'"),
                "the box keeps the filter"
            )
        }
    }

    @Test("an EventDate on a whole second is marked unreadable, in the words validate uses")
    func unreadableDate() async throws {
        try await Self.withView(events: 20) { server, base in
            let report = try await Store(server.store, readOnly: true).validate()
            let finding = try #require(
                report.findings.first {
                    $0.rule == Rule.datesFormat.id && $0.location.rowKey == ViewedStore.wholeSecondRowKey
                }
            )
            let run = try await Self.browse([
                .navigate(
                    base + "/entity?table=events&PartitionKey=Events&RowKey=\(ViewedStore.wholeSecondRowKey)"
                ),
                .evaluate("document.querySelector('tr[data-name=\"EventDate\"] .finding')?.textContent ?? null"),
                .evaluate("document.querySelector('tr[data-name=\"EventDate\"] .served code')?.textContent ?? null"),
                .navigate(
                    base + "/entities?table=events&partition=Events&%24filter=RowKey%20eq%20%27planted-whole-second%27"
                ),
                .evaluate("document.querySelectorAll('#grid td.unreadable').length"),
            ])
            #expect(run.results[0] == .string(finding.message))
            #expect(run.results[1] == .string("2026-03-01T18:30:00Z"))
            #expect(run.results[2] == .number(1), "the grid marks the cell too")
        }
    }

    @Test("every photo of the gallery loads from the view's own route")
    func galleryLoads() async throws {
        try await Self.withView(events: 5) { server, base in
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            let photos = try await store.blobProperties(container: DataContract.photoContainer)
            let run = try await Self.browse([
                .navigate(base + "/container?name=\(DataContract.photoContainer)"),
                .waitFor("Array.from(document.images).every(i => i.complete)"),
                .evaluate("Array.from(document.images).map(i => [i.alt, i.naturalWidth, new URL(i.src).pathname])"),
            ])
            let images = run.results[0].array ?? []
            #expect(images.count == photos.count)
            #expect(images.compactMap { $0.array?[0].string } == photos.map(\.name))
            for image in images {
                #expect((image.array?[1].int ?? 0) > 0, "\(image) did not load")
                #expect(image.array?[2] == .string("/blob"))
            }
        }
    }

    @Test("the pages render: screenshots are not blank and the grid has a width")
    func rendered() async throws {
        try await Self.withView(events: 30) { _, base in
            try await withTemporaryDirectory { directory in
                let pages = [
                    "/", "/entities?table=events&partition=Events", "/container?name=speakers",
                ]
                var steps: [HeadlessChromium.Step] = [
                    .viewport(width: 1200, height: 900), .navigate("about:blank"),
                    .screenshot(directory + "/blank.png"),
                ]
                for (index, page) in pages.enumerated() {
                    steps += [.navigate(base + page), .screenshot(directory + "/\(index).png")]
                }
                steps.append(.evaluate("document.getElementById('grid') === null"))
                steps += [
                    .navigate(base + pages[1]),
                    .evaluate("document.getElementById('grid').getBoundingClientRect().width"),
                    .evaluate("document.querySelector('#grid tbody tr').getBoundingClientRect().height"),
                ]
                let run = try await Self.browse(steps)
                let blank = try Data(contentsOf: URL(fileURLWithPath: directory + "/blank.png")).count
                for index in pages.indices {
                    let shot = try Data(contentsOf: URL(fileURLWithPath: directory + "/\(index).png"))
                    #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                    // A blank viewport compresses to almost nothing; text, tables and photos do not.
                    #expect(shot.count > 4 * blank, "\(pages[index]): \(shot.count) bytes against \(blank) blank")
                }
                #expect((run.results[1].number ?? 0) > 600, "the grid spans the page: \(run.results[1])")
                #expect((run.results[2].number ?? 0) > 10, "its rows have a height")
            }
        }
    }

    @Test("every page is valid HTML by the Nu checker, and none holds the account key")
    func validHTMLWithoutTheKey() async throws {
        try await Self.withView(events: 20) { server, base in
            _ = try await Self.fetch("POST", base + "/validate")
            let pages = [
                "/", "/table?name=events", "/entities?table=events&partition=Events", "/entities?table=hostile",
                "/entities?table=events&%24filter=nonsense%20%3D",
                "/entity?table=events&PartitionKey=Events&RowKey="
                    + ViewedStore.wholeSecondRowKey,
                "/container?name=speakers", "/validate", "/no-such-page", "/entities",
            ]
            try await withTemporaryDirectory { directory in
                var files: [String] = []
                for (index, page) in pages.enumerated() {
                    let html = try await Self.fetch("GET", base + page)
                    #expect(!html.contains(DevelopmentAccount.key), "\(page) holds the account key")
                    #expect(!html.contains(String(DevelopmentAccount.key.prefix(20))), "\(page)")
                    let file = directory + "/page\(index).html"
                    try Data(html.utf8).write(to: URL(fileURLWithPath: file))
                    files.append(file)
                }
                let hostile = try await Self.fetch(
                    "GET",
                    base + "/entity?table=hostile&PartitionKey="
                        + ViewedStore.hostilePartition.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                        + "&RowKey=" + ViewedStore.hostileRow.addingPercentEncoding(
                            withAllowedCharacters: .alphanumerics
                        )!
                )
                let file = directory + "/hostile-entity.html"
                try Data(hostile.utf8).write(to: URL(fileURLWithPath: file))
                try await offPool { try NuHTMLChecker.check(files: files + [file]) }
            }
            // The DOM as rendered, too: the key is in no attribute or text the browser holds. (Only the
            // pages that answer 200: the browser logs an error status as an error.)
            let answered = [0, 1, 2, 3, 5, 6, 7].map { pages[$0] }
            let run = try await Self.browse(
                answered.flatMap { [.navigate(base + $0), .evaluate("document.documentElement.outerHTML")] }
            )
            for (page, html) in zip(answered, run.results) {
                #expect(html.string?.contains(DevelopmentAccount.key) == false, "\(page)")
            }
        }
    }

    @Test("hostile keys, names and values show as the text they are, and no script of theirs runs")
    func hostileText() async throws {
        try await Self.withView(events: 5) { _, base in
            let run = try await Self.browse([
                .navigate(base + "/entities?table=\(ViewedStore.hostileTable)"),
                .evaluate(
                    "Array.from(document.querySelectorAll('#grid thead th[data-name]')).map(h => h.firstChild.textContent)"
                ),
                .evaluate("Array.from(document.querySelectorAll('#grid tbody td')).map(c => c.textContent)"),
                .click("#grid tbody a"),
                .waitFor("location.pathname === '/entity'"),
                .evaluate(
                    "Array.from(document.querySelectorAll('#properties tbody tr')).map(r => [r.querySelector('th').textContent, r.querySelector('code.value').textContent])"
                ),
                .evaluate(
                    "[document.getElementById('partition-key').textContent, document.getElementById('row-key').textContent]"
                ),
                .evaluate("document.querySelectorAll('script, img').length"),
                .evaluate("typeof window.pwned"),
            ])
            let names = ViewedStore.hostileProperties.map(\.name)
            let values = ViewedStore.hostileProperties.map(\.value)
            #expect(run.results[0].array?.compactMap(\.string) == names)
            let cells = run.results[1].array?.compactMap(\.string) ?? []
            #expect(Array(cells.prefix(2)) == [ViewedStore.hostilePartition, ViewedStore.hostileRow])
            #expect(Array(cells.dropFirst(3)) == values)
            let properties = (run.results[2].array ?? []).map { $0.array?.compactMap(\.string) ?? [] }
            #expect(properties == zip(names, values).map { [$0, $1] })
            #expect(run.results[3] == .array([.string(ViewedStore.hostilePartition), .string(ViewedStore.hostileRow)]))
            #expect(run.results[4] == .number(0), "no element came from the data")
            #expect(run.results[5] == .string("undefined"), "window.pwned was set: a script of the data ran")
        }
    }

    /// A page's HTML as served, through Foundation's client (the POST's redirect followed).
    static func fetch(_ method: String, _ url: String) async throws -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        let (data, _) = try await URLSession.shared.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }
}
