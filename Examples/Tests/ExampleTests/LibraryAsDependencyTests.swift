import Foundation
import SpeakEasyData
import Testing

/// What a package that depends on `SpeakEasyData` alone can do from the DocC pages: every name here
/// must be public, so this file not compiling is a failure too.
@Suite struct LibraryAsDependencyTests {
    /// A new directory for a test's files, removed afterwards.
    private func withDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }

    /// What a library message must not name: a tool's option.
    private func namesNoOption(_ message: String) -> Bool { !message.contains("--") }

    /// A second fresh seed into a table with data is a `SeedRefusal`, caught by type, with a kind
    /// and words for a program, not for a command line; `reset` lets it go ahead.
    @Test func seedRefusalIsCaughtByTypeAndResetEmptiesFirst() async throws {
        try await withDirectory { directory in
            let store = try Store(directory + "/store.sqlite")
            try await store.seed(SeedOptions(seed: 1, eventCount: 5))
            do {
                try await store.seed(SeedOptions(seed: 2, eventCount: 5))
                Issue.record("a fresh seed into a table that holds data went ahead")
            } catch let refusal as SeedRefusal {
                #expect(refusal.kind == .cannotCreateOutput)
                #expect(namesNoOption(refusal.description), "\(refusal)")
            }
            let again = try await store.seed(SeedOptions(seed: 2, eventCount: 5, from: nil, reset: true))
            #expect(again.seed == 2 && again.inserted == again.speakers + 5)
            #expect(try await store.count(in: "events", partition: "Events") == 5)
        }
    }

    /// Options the generator cannot meet are a `GenerationError` naming `SeedOptions`' names.
    @Test func impossibleOptionsAreAGenerationError() async throws {
        try await withDirectory { directory in
            let store = try Store(directory + "/store.sqlite")
            let from = try #require(EdmDateTime(year: 2027, month: 3, day: 1))
            let cutoff = try #require(EdmDateTime(year: 2027, month: 2, day: 1))
            do {
                try await store.seed(SeedOptions(seed: 1, from: from, cutoff: cutoff))
                Issue.record("a cutoff before from was taken")
            } catch let error as GenerationError {
                #expect(error.kind == .usage)
                #expect(error.reason.hasPrefix("cutoff 2027-02-01"), "\(error)")
                #expect(namesNoOption(error.reason), "\(error)")
            }
        }
    }

    /// With `from` given, a seed is repeatable on any day: two stores get the same entities, all
    /// dated within the window.
    @Test func seedWithFromIsRepeatable() async throws {
        try await withDirectory { directory in
            let from = try #require(EdmDateTime(year: 2027, month: 1, day: 1))
            let cutoff = try #require(EdmDateTime(year: 2027, month: 3, day: 31, hour: 23, minute: 59))
            var read: [[Entity]] = []
            for name in ["a", "b"] {
                let store = try Store(directory + "/\(name).sqlite")
                let summary = try await store.seed(SeedOptions(seed: 9, eventCount: 30, from: from, cutoff: cutoff))
                #expect(summary.from == from && summary.cutoff == cutoff)
                var entities: [Entity] = []
                for try await entity in store.entities(in: "events", partition: "Events") {
                    entities.append(
                        Entity(partitionKey: entity.partitionKey, rowKey: entity.rowKey, properties: entity.properties)
                    )
                }
                read.append(entities)
            }
            #expect(read[0].count == 30 && read[0] == read[1])
            for event in read[0] {
                guard case .dateTime(let date) = event["EventDate"] else {
                    Issue.record("no EventDate in \(event.rowKey)")
                    continue
                }
                #expect(date >= from && date <= cutoff)
            }
        }
    }

    /// Export of a partition that is not there is a `NameNotFoundError` listing the ones there are.
    @Test func exportOfAMissingPartitionIsANameNotFoundError() async throws {
        try await withDirectory { directory in
            let store = try Store(directory + "/store.sqlite")
            try await store.seed(SeedOptions(seed: 3, eventCount: 3))
            do {
                try await store.export(partition: "events", to: directory + "/out.json", as: .json)
                Issue.record("an export of a missing partition wrote a file")
            } catch let error as NameNotFoundError {
                #expect(error.kind == .inputMissing && error.name == "events")
                #expect(error.known == ["Events", "speakers"])
                #expect(namesNoOption(error.description), "\(error)")
            }
        }
    }

    /// A file that is not there and a file that is not its format are told apart by `kind`.
    @Test func formatErrorKindTellsMissingFromMalformed() async throws {
        try await withDirectory { directory in
            let missing = await #expect(throws: FormatError.self) {
                for try await _ in EntityFile.entities(at: directory + "/none.json") {}
            }
            #expect(missing?.kind == .inputMissing)
            let path = directory + "/bad.json"
            try Data("{\"value\":[{\"PartitionKey\":1}]}".utf8).write(to: URL(fileURLWithPath: path))
            let malformed = await #expect(throws: FormatError.self) {
                for try await _ in EntityFile.entities(at: path) {}
            }
            #expect(malformed?.kind == .malformedInput)
        }
    }

    /// A port that is taken is a `ListenError`.
    @Test func aTakenPortIsAListenError() async throws {
        _ = try await LocalStorageServer.withRunning { server in
            await #expect(throws: ListenError.self) {
                let second = try await LocalStorageServer.start(tablePort: server.tablePort)
                try await second.stop()
            }
        }
    }

    /// A port out of range is a `ListenError` too, not another module's error or a port wrapped round.
    @Test(arguments: [-1, 65_536, 70_000])
    func aPortOutOfRangeIsAListenError(port: Int) async throws {
        let error = await #expect(throws: ListenError.self) {
            let server = try await LocalStorageServer.start(tablePort: port)
            try await server.stop()
        }
        #expect(error?.message.contains("\(port)") == true)
    }

    /// `Store` refuses what `--store` refuses: an empty value, and a URL taken for a file's path.
    @Test(arguments: ["", "https://acct.table.core.windows.net"])
    func storeRefusesWhatIsNoAccount(value: String) {
        let error = #expect(throws: StorageError.self) { try Store(value) }
        #expect(error?.reason == .invalidInput, "\(String(describing: error))")
        #expect(error.map { namesNoOption($0.description) } == true, "\(String(describing: error))")
    }

    /// `withRunning` from the main actor, with a body that uses the actor's state.
    @MainActor @Test func withRunningFromTheMainActor() async throws {
        var tables: [String] = []
        let port = try await LocalStorageServer.withRunning { server in
            let store = try Store(server.connectionString)
            try await store.createTable("Talks")
            tables = try await store.tableNames()
            return server.tablePort
        }
        #expect(tables == ["Talks"] && port > 0)
    }

    /// An array of entities goes to a file, and a table's and a partition's entities are counted.
    @Test func writesAnArrayAndCounts() async throws {
        try await withDirectory { directory in
            let talks = (1...5).map { number in
                Entity(
                    partitionKey: number <= 2 ? "a" : "b",
                    rowKey: "talk-\(number)",
                    properties: [Property("Title", .string("Talk \(number)"))]
                )
            }
            #expect(try await EntityFile.write(talks, to: directory + "/talks.ndjson", as: .ndjson) == 5)
            var read: [Entity] = []
            for try await talk in EntityFile.entities(at: directory + "/talks.ndjson") { read.append(talk) }
            #expect(read == talks)

            let store = try Store(directory + "/store.sqlite")
            try await store.createTable("Talks")
            try await store.write(talks, to: "Talks")
            #expect(try await store.count(in: "Talks") == 5)
            #expect(try await store.count(in: "Talks", partition: "a") == 2)
            #expect(try await store.count(in: "Talks", partition: "c") == 0)
            let missing = await #expect(throws: StorageError.self) { try await store.count(in: "None") }
            #expect(missing?.reason == .notFound)
        }
    }

    /// `EdmDateTime` and `Date` convert both ways.
    @Test func edmDateTimeAndDate() throws {
        let date = try #require(EdmDateTime(year: 2026, month: 3, day: 1, hour: 18, minute: 30, second: 5))
        #expect(date.date == Date(timeIntervalSince1970: 1_772_389_805))
        #expect(EdmDateTime(date.date) == date)
        #expect(
            EdmDateTime(Date(timeIntervalSince1970: 0.25))
                == EdmDateTime(year: 1970, month: 1, day: 1, fraction: 2_500_000)
        )
        #expect(EdmDateTime(Date.distantFuture.addingTimeInterval(1e12)) == nil)
    }

    /// A finding's rule is a `Rule`; the report writers and the date format are the library's too.
    @Test func findingsRulesReportsAndDateFormat() async throws {
        try await withDirectory { directory in
            let path = directory + "/events.json"
            let whole = try #require(EdmDateTime(year: 2026, month: 7, day: 1, hour: 4, minute: 34))
            let event = Entity(
                partitionKey: "Events",
                rowKey: "039e786c-344b-49fd-baf4-393822b313dd",
                properties: [Property("EventDate", .dateTime(whole))]
            )
            try await EntityFile.write([event], to: path, as: .json)
            let report = try await EntityFile.validate([path])
            #expect(report.findings.contains { $0.catalogRule == .datesFormat })

            var lenient = ValidationOptions()
            lenient.dateFormat = .azure
            let azure = try await EntityFile.validate([path], options: lenient)
            #expect(!azure.findings.contains { $0.catalogRule == .datesFormat })

            let writers: [any ReportWriter] = [
                TextReportWriter(), JSONReportWriter(toolVersion: "1"), JUnitReportWriter(), GitHubReportWriter(),
                SARIFReportWriter(toolVersion: "1"), HTMLReportWriter(toolVersion: "1"),
            ]
            for writer in writers {
                #expect(String(decoding: writer.render(report), as: UTF8.self).contains("dates.format"), "\(writer)")
            }
        }
    }
}
