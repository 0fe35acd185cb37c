import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// A CSV whose every cell is quoted (Python's `csv.QUOTE_ALL`) writes nothing as `""`: there an empty
/// quoted cell is an absent property, not the empty string it is in CSV that quotes only where it
/// must (issue 48).
@Suite("CSV reader: files that quote every cell")
struct CSVQuoteEveryCellTests {
    /// Speakers and events in one file, as `csv.writer(f, quoting=csv.QUOTE_ALL)` writes the rows of
    /// a `DictWriter` with every column: each row's cells of the other partition are `""`.
    static let quoteAll = """
        "PartitionKey","RowKey","Name","Bio","EventName","EventDate"\r
        "speakers","s1","Ada","","",""\r
        "Events","e1","","","Swift Night","2026-03-01T18:30:00.0000001Z"\r

        """

    @Test("every empty cell of a file that quotes every header cell is absent")
    func quoteAll() throws {
        for chunkSize in csvChunkSizes {
            let entities = try csvEntities(Array(Self.quoteAll.utf8), chunkSize: chunkSize)
            #expect(
                entities.map(\.properties) == [
                    [Property("Name", .string("Ada"))],
                    [
                        Property("EventName", .string("Swift Night")),
                        Property("EventDate", .dateTime(.at("2026-03-01T18:30:00.0000001Z"))),
                    ],
                ]
            )
        }
    }

    @Test("a header quoted only in part keeps \"\" an empty string, as export writes it")
    func partlyQuoted() throws {
        let text = Self.quoteAll.replacingOccurrences(of: "\"PartitionKey\"", with: "PartitionKey")
        let entities = try csvEntities(text)
        // EventDate is a date column, where "" is nothing either way.
        #expect(
            entities[0].properties == [
                Property("Name", .string("Ada")), Property("Bio", .string("")), Property("EventName", .string("")),
            ]
        )
    }

    @Test("export's plain CSV still reads back empty and absent apart")
    func exportsOwn() throws {
        let entity = Entity(
            partitionKey: "speakers",
            rowKey: "s1",
            properties: [Property("Name", .string("Ada")), Property("Bio", .string(""))]
        )
        let other = Entity(partitionKey: "speakers", rowKey: "s2", properties: [Property("Name", .string("Bo"))])
        let bytes = try EntityFiles.bytes(of: [entity, other], options: EntityFiles.WriteOptions(format: .csv))
        #expect(try csvEntities(bytes).map(\.properties) == [entity.properties, other.properties])
    }

    @Test("the same whole and in pieces, each of which reads the header again")
    func inPieces() throws {
        var text = "\"PartitionKey\",\"RowKey\",\"Name\",\"EventName\"\r\n"
        for index in 0..<200 { text += "\"speakers\",\"s\(index)\",\"Speaker \(index)\",\"\"\r\n" }
        try withTemporaryDirectorySync { directory in
            let path = directory + "/all.csv"
            try writeFile(path, text)
            var reader = PrefetchingFileReader(paths: [path], options: EntityFiles.ReadOptions())
            reader.pieceReaders = 3
            reader.pieceSize = 256
            var entities: [Entity] = []
            try reader.forEach { entity, _ in entities.append(entity) }
            #expect(entities.count == 200)
            #expect(entities.allSatisfy { $0.properties.map(\.name) == ["Name"] })
        }
    }
}
