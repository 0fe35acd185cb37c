import Foundation
import SpeakEasyData
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `export` for people, end to end: the spreadsheet layout opened in LibreOffice, the byte order
/// mark, empty strings in plain CSV, and the Atom feed's `<updated>`.
@Suite("export for people")
struct ExportForPeopleTests {
    static let header =
        "EventDate (UTC),EventName,EventLocation,SpeakerName,EventDescription,SpeakerKey,PartitionKey,RowKey"

    @Test(
        "--spreadsheet: LibreOffice opens every event, the date a date cell with a date format, the columns a person's",
        .enabled(if: LibreOffice.shouldRun, "soffice is not installed (CI installs it and fails without it)")
    )
    func openedInLibreOffice() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--sort", "EventDate", "--spreadsheet", "--to", "events.csv"],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        let bytes = try #require(fileBytes(scratch.file("events.csv")))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "a UTF-8 byte order mark")
        #expect(String(decoding: bytes.dropFirst(3), as: UTF8.self).hasPrefix(Self.header + "\r\n"))

        let sheet = try Self.sheet(try await LibreOffice.convertToFlatODS("events.csv", in: scratch.path))
        #expect(
            sheet.first?.map(\.text) == Self.header.split(separator: ",").map(String.init),
            "the header, its first cell without the BOM"
        )
        let events = try await StoreContents.read(store).events
        let rows = sheet.dropFirst()
        #expect(rows.count == 100 && events.count == 100, "every event, one row each")
        let byKey = Dictionary(uniqueKeysWithValues: events.map { ($0.rowKey, $0) })
        var previous = EdmDateTime.min
        for row in rows {
            let date = row[0]
            let rowKey = row[7].text
            let event = try #require(byKey[rowKey], "row key \(rowKey)")
            #expect(date.valueType == "date" && date.hasDateFormat, "\(date)")
            guard case .dateTime(let eventDate)? = event["EventDate"], let value = date.dateValue else {
                Issue.record("no date in \(date) for \(event)")
                continue
            }
            // Calc keeps a date as a Double of days: equal to well under a second.
            #expect(abs(value.ticks - eventDate.ticks) < EdmDateTime.ticksPerSecond / 100, "\(date) for \(eventDate)")
            #expect(value >= previous, "sorted by EventDate")
            previous = value
            #expect(
                row[1].text == event.string("EventName") && row[3].text == event.string("SpeakerName")
                    && row[6].text == "Events"
            )
        }
    }

    @Test(
        "--spreadsheet and --bom apply to CSV only: any other output format is a usage error (64), and so is --typed with --spreadsheet"
    )
    func csvOnly() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        for arguments in [
            ["--spreadsheet", "--format", "json"], ["--bom", "--to", "x.atom"], ["--spreadsheet"],
            ["--bom", "--format", "ndjson"],
            ["--spreadsheet", "--typed", "--format", "csv"],
        ] {
            let result = try await BuiltTool.export.run(["--store", store] + arguments, in: scratch.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(arguments[0]), "\(result)")
            #expect(result.stdout.isEmpty && !fileExists(scratch.file("x.atom")), "\(result)")
        }
    }

    @Test("the spreadsheet layout is refused when read back (65, naming file, line and column); --bom CSV reads back")
    func readBack() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let sheet = try await BuiltTool.export.run(
            ["--store", store, "--spreadsheet", "--to", "sheet.csv"],
            in: scratch.path
        )
        #expect(sheet.status == 0, "\(sheet)")
        for tool in [BuiltTool.export, BuiltTool.validate] {
            let result = try await tool.run(["sheet.csv"], in: scratch.path)
            #expect(result.status == 65, "\(result)")
            #expect(
                result.stderr.contains("sheet.csv:1:1") && result.stderr.contains("spreadsheet layout"),
                "\(result)"
            )
        }

        let plain = try await BuiltTool.export.run(["--store", store, "--bom", "--to", "all.csv"], in: scratch.path)
        #expect(plain.status == 0, "\(plain)")
        #expect(fileBytes(scratch.file("all.csv"))?.starts(with: [0xEF, 0xBB, 0xBF, UInt8(ascii: "P")]) == true)
        let back = try await BuiltTool.export.run(
            ["all.csv", "--format", "ndjson", "--to", "back.ndjson"],
            in: scratch.path
        )
        #expect(back.status == 0, "\(back)")
        let keys = try Self.entities(in: scratch.file("back.ndjson")).map(\.rowKey)
        #expect(keys == (try await StoreContents.read(store).entities.map(\.rowKey)))
    }

    @Test("plain CSV: an empty string goes out as \"\" and comes back as one; an absent property stays absent")
    func emptyStrings() async throws {
        let scratch = try Scratch()
        let json =
            #"{"value":[{"PartitionKey":"p","RowKey":"a","S":"","T":"x"},{"PartitionKey":"p","RowKey":"b","T":"y"}]}"#
        try json.write(toFile: scratch.file("in.json"), atomically: true, encoding: .utf8)
        let csv = try await BuiltTool.export.run(["in.json", "--to", "out.csv"], in: scratch.path)
        #expect(csv.status == 0, "\(csv)")
        #expect(
            try String(contentsOfFile: scratch.file("out.csv"), encoding: .utf8)
                == "PartitionKey,RowKey,S,T\r\np,a,\"\",x\r\np,b,,y\r\n"
        )
        let back = try await BuiltTool.export.run(
            ["out.csv", "--format", "json", "--metadata", "none"],
            in: scratch.path
        )
        #expect(back.status == 0, "\(back)")
        #expect(back.stdout.contains(#"{"PartitionKey":"p","RowKey":"a","S":"","T":"x"}"#), "\(back)")
        #expect(back.stdout.contains(#"{"PartitionKey":"p","RowKey":"b","T":"y"}"#), "\(back)")
    }

    @Test("an Atom feed's <updated>, the feed's and every entry's, is the time of writing in Azure's whole-second form")
    func atomUpdated() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let before = EdmDateTime.now()
        let result = try await BuiltTool.export.run(
            ["--store", store, "--partition", "speakers", "--to", "speakers.atom"],
            in: scratch.path
        )
        let after = EdmDateTime.now()
        #expect(result.status == 0, "\(result)")
        let feed = try String(contentsOfFile: scratch.file("speakers.atom"), encoding: .utf8)
        let updated = feed.split(separator: "<updated>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(updated.count == 9, "the feed and its 8 speakers")
        for text in updated {
            let date = try EdmDateTime(parsing: text)
            #expect(text.count == 20 && text.hasSuffix("Z"), "\(text)")
            #expect(
                date.ticks > before.ticks - EdmDateTime.ticksPerSecond && date <= after,
                "\(text) between \(before) and \(after)"
            )
        }
        #expect(try Self.entities(in: scratch.file("speakers.atom")).count == 8, "and the feed reads back")
    }

    static func entities(in path: String) throws -> [Entity] {
        var opened = try EntityFiles.open(path)
        var all: [Entity] = []
        while let entity = try opened.reader.next() { all.append(entity) }
        return all
    }

    // MARK: - Reading a Flat ODS sheet

    /// One cell of a sheet as LibreOffice wrote it.
    struct Cell: CustomStringConvertible {
        var text: String
        /// `office:value-type`: string, float, date…
        var valueType: String?
        var dateValue: EdmDateTime?
        /// Whether the cell's style formats it with a `number:date-style`.
        var hasDateFormat: Bool
        var description: String { "\(valueType ?? "-") '\(text)' date format: \(hasDateFormat)" }
    }

    /// The rows of the first table of a Flat ODS file, each a list of cells (repeated cells
    /// expanded); trailing rows without text are left out.
    static func sheet(_ path: String) throws -> [[Cell]] {
        #if canImport(FoundationXML) || canImport(Darwin)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let elements = Self.descendants(of: document.rootElement())
        let dateStyles = Set(elements.filter { $0.localName == "date-style" }.compactMap { Self.attribute($0, "name") })
        var styleIsDate: [String: Bool] = [:]
        for element in elements where element.localName == "style" {
            guard let name = Self.attribute(element, "name"), let data = Self.attribute(element, "data-style-name")
            else { continue }
            styleIsDate[name] = dateStyles.contains(data)
        }
        // A style all of a column's cells share is the column's default, not each cell's.
        let table = elements.first { $0.localName == "table" }
        var columnStyles: [String?] = []
        for column in Self.descendants(of: table) where column.localName == "table-column" {
            // Calc may describe the rest of its 16,384 columns as one repeated column: ours come first.
            let count = Self.attribute(column, "number-columns-repeated").flatMap { Int($0) } ?? 1
            columnStyles += Array(repeating: Self.attribute(column, "default-cell-style-name"), count: min(count, 64))
        }
        var rows: [[Cell]] = []
        for row in Self.descendants(of: table) where row.localName == "table-row" {
            var cells: [Cell] = []
            for case let element as XMLElement in row.children ?? [] where element.localName == "table-cell" {
                let style =
                    Self.attribute(element, "style-name")
                    ?? (cells.count < columnStyles.count ? columnStyles[cells.count] : nil)
                let cell = Cell(
                    text: element.stringValue ?? "",
                    valueType: Self.attribute(element, "value-type"),
                    dateValue: Self.attribute(element, "date-value").flatMap { try? EdmDateTime(parsing: $0) },
                    hasDateFormat: style.flatMap { styleIsDate[$0] } ?? false
                )
                cells += Array(
                    repeating: cell,
                    count: Self.attribute(element, "number-columns-repeated").flatMap { Int($0) } ?? 1
                )
            }
            rows.append(cells)
        }
        while let last = rows.last, last.allSatisfy(\.text.isEmpty) { rows.removeLast() }
        return rows
        #else
        struct NoXML: Error {}
        throw NoXML()
        #endif
    }

    #if canImport(FoundationXML) || canImport(Darwin)
    /// Every element under `element`, in document order.
    static func descendants(of element: XMLElement?) -> [XMLElement] {
        guard let element else { return [] }
        return [element] + (element.children ?? []).compactMap { $0 as? XMLElement }.flatMap { descendants(of: $0) }
    }

    /// An attribute by its local name, whatever its namespace prefix.
    static func attribute(_ element: XMLElement, _ localName: String) -> String? {
        element.attributes?.first { $0.localName == localName }?.stringValue
    }
    #endif
}
