import SpeakEasyData
import TestSupport
import Testing

/// Events read as ``PlainEvent``s, without their entities built: which objects qualify, and that
/// validating them so finds exactly what validating their entities finds.
@Suite("plain events")
struct PlainEventTests {
    typealias D = ValidationData

    /// An event as an Azure NDJSON line: members in order, values as raw JSON.
    struct Line: Sendable {
        var members: [(key: String, value: String)]

        init(
            key: String = "e0000000-0000-4000-8000-000000000001",
            date: String = "2026-03-01T09:30:00.0000001Z",
            name: String = "iOS Meetup"
        ) {
            members = [
                ("odata.etag", #""W/\"datetime'2026-11-23T02%3A24%3A53.9791069Z'\"""#), ("PartitionKey", #""Events""#),
                ("RowKey", "\"\(key)\""),
                ("Timestamp", #""2026-11-23T02:24:53.9791069Z""#), ("EventDate@odata.type", #""Edm.DateTime""#),
                ("EventDate", "\"\(date)\""),
                ("EventName", "\"\(name)\""), ("EventLocation", #""Chicago, IL""#),
                ("EventDescription", #""Lorem ipsum.""#),
                ("SpeakerKey", "\"\(D.bartKey)\""), ("SpeakerName", #""Bart Tubalinal""#),
            ]
        }

        func setting(_ key: String, _ value: String?) -> Line {
            var copy = self
            if let index = copy.members.firstIndex(where: { $0.key == key }) {
                if let value { copy.members[index].value = value } else { copy.members.remove(at: index) }
            } else if let value {
                copy.members.append((key, value))
            }
            return copy
        }

        var text: String { "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}" }
    }

    static let speakerLine =
        #"{"PartitionKey":"speakers","RowKey":"\#(D.bartKey)","Name":"Bart Tubalinal","Title":"Consultant","Bio":"Bart.","ImageUrl":"http://x/b.jpg"}"#

    /// A line, what is special about it, and whether it is a plain event.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var line: Line
        var plain: Bool
        var testDescription: String { name }

        init(_ name: String, _ line: Line, _ plain: Bool) {
            (self.name, self.line, self.plain) = (name, line, plain)
        }
    }

    static let cases: [Case] = {
        let base = Line()
        return [
            Case("as Azure writes it", base, true),
            Case("without the system properties", base.setting("odata.etag", nil).setting("Timestamp", nil), true),
            Case("a null Timestamp", base.setting("Timestamp", "null"), true),
            Case(
                "the annotation after the value",
                base.setting("EventDate@odata.type", nil).setting("EventDate@odata.type", #""Edm.DateTime""#),
                true
            ),
            Case(
                "the type as Edm.DateTimeOffset",
                base.setting("EventDate@odata.type", #""Edm.DateTimeOffset""#),
                true
            ),
            Case(
                "full metadata",
                base.setting("odata.id", #""http://x/events""#).setting("odata.editLink", #""events()""#),
                true
            ),
            Case("escapes in a name", Line(name: #"Caf\u00e9 \"Meetup\""#), true),
            Case(
                "non-ASCII text",
                base.setting("EventLocation", #""Zürich""#).setting("EventDescription", #""Café Ünïcödé""#),
                true
            ),
            Case(
                "a description that starts with a non-ASCII letter (it may be blank: judged whole)",
                base.setting("EventDescription", #""Ünïcödé""#),
                false
            ),
            Case("a date Azure trimmed to .2Z", Line(date: "2026-03-01T09:30:00.2Z"), true),
            Case("a date without Z", Line(date: "2026-03-01T09:30:00.0000000"), true),
            Case("a date before 1601", Line(date: "1600-12-31T23:59:59.9999999Z"), true),
            Case("a date after the cutoff", Line(date: "2027-01-01T00:00:00.0000001Z"), true),
            Case("the same RowKey again", Line(name: "Android Meetup"), true),
            Case("the same event again", Line(key: "e0000000-0000-4000-8000-000000000002"), true),
            Case("an orphan", base.setting("SpeakerKey", #""99999999-0000-4000-8000-000000000000""#), true),
            Case("another SpeakerName", base.setting("SpeakerName", #""Bart Tubalnal""#), true),
            Case(
                "a description of 400 KB",
                base.setting("EventDescription", "\"" + String(repeating: "x", count: 400_000) + "\""),
                true
            ),
            Case(
                "a description of 600 KB",
                base.setting("EventDescription", "\"" + String(repeating: "x", count: 600_000) + "\""),
                false
            ),
            Case("no type annotation", base.setting("EventDate@odata.type", nil), false),
            Case("EventDate an Edm.String", base.setting("EventDate@odata.type", #""Edm.String""#), false),
            Case("an annotated string", base.setting("EventName@odata.type", #""Edm.String""#), false),
            Case("an escaped date", base.setting("EventDate", #""2026-03-01T09:30:00.0000001\u005A""#), false),
            Case("an extra property", base.setting("Room", "7"), false),
            Case("a null EventName", base.setting("EventName", "null"), false),
            Case("EventName a number", base.setting("EventName", "7"), false),
            Case("no EventDescription", base.setting("EventDescription", nil), false),
            Case("no SpeakerName", base.setting("SpeakerName", nil), false),
            Case("PartitionKey events", base.setting("PartitionKey", #""events""#), false),
            Case("an upper-case RowKey", Line(key: "E0000000-0000-4000-8000-000000000003"), false),
            Case("a RowKey that is no GUID", Line(key: "event-1"), false),
            Case("a RowKey with #", Line(key: "a#b"), false),
            Case("an empty EventName", Line(name: ""), false),
            Case("a blank SpeakerName", base.setting("SpeakerName", #"" ""#), false),
            Case("an EventLocation that starts with a space", base.setting("EventLocation", #"" Chicago""#), false),
            Case("an empty EventDescription", base.setting("EventDescription", #""""#), false),
            Case("a description of white space", base.setting("EventDescription", #""\u00a0 ""#), false),
        ]
    }()

    static func document(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) + [0x0A] }

    static func ndjsonReader(_ lines: [String]) -> JSONEntityStreamReader {
        JSONEntityStreamReader(
            input: ByteInput(name: "events.ndjson", bytes: document(lines)),
            layout: .lines,
            plainEvents: true
        )
    }

    @Test("an event as Azure writes it comes as a plain event, with its values")
    func values() throws {
        var reader = Self.ndjsonReader([Line(name: #"Caf\u00e9 \"Meetup\""#).text])
        let item = try #require(try reader.nextItem())
        guard case .plainEvent(let event) = item else {
            Issue.record("not a plain event: \(item)")
            return
        }
        #expect(event.key == EdmGuid("e0000000-0000-4000-8000-000000000001"))
        #expect(
            event.date.ticks == EdmDateTime.at("2026-03-01T09:30:00.0000001Z").ticks
                && event.date.lexicalShape?.isSevenDigitForm == true
        )
        #expect(event.name == "Café \"Meetup\"")
        #expect(event.location == "Chicago, IL")
        #expect(event.speakerKey == D.bartKey)
        #expect(event.speakerName == "Bart Tubalinal")
    }

    @Test("only events of exactly the contract's shape are plain", arguments: cases)
    func shape(_ testCase: Case) throws {
        // The speaker never is.
        #expect(
            try Self.arePlain(Self.ndjsonReader([Self.speakerLine, testCase.line.text])) == [false, testCase.plain]
        )
    }

    @Test("validating plain events finds what validating their entities finds", arguments: [DataFormat.ndjson, .json])
    func sameFindings(format: DataFormat) async throws {
        let lines = [Self.speakerLine] + Self.cases.map(\.line.text)
        let bytes = format == .json ? Array(("[" + lines.joined(separator: ",\n") + "]\n").utf8) : Self.document(lines)
        var options = ValidationOptions()
        options.cutoff = .at("2026-12-31T23:59:59.9999999Z")
        let (plain, whole) = try await Self.bothWays(bytes, fileName: "events." + format.rawValue, options: options)
        #expect(plain.findings == whole.findings)
        #expect(plain.entitiesChecked == lines.count)
        // Every kind of finding an event can have on its own or with others is among them.
        let rules = Set(plain.findings.map(\.rule))
        for rule in [
            "dates.missing", "dates.format", "dates.range", "dates.before-1601", "duplicates.keys", "duplicates.events",
            "references.orphan", "references.name-mismatch", "contract.required", "contract.type", "contract.partition",
            "contract.rowkey-guid", "contract.key-chars", "contract.entity-size", "contract.unknown-property",
        ] {
            #expect(rules.contains(rule), "\(rule)")
        }
    }

    @Test("in CSV too, plain or typed, speakers and events in one file", arguments: [false, true])
    func sameFindingsInCSV(typed: Bool) async throws {
        // The cases as entities, written as CSV: one header for speakers and events, so every event
        // row has empty speaker cells (and the speaker row empty event cells).
        var reader = JSONEntityStreamReader(
            input: ByteInput(name: "cases", bytes: Self.document([Self.speakerLine] + Self.cases.map(\.line.text))),
            layout: .lines
        )
        var entities: [Entity] = []
        while let entity = try reader.next() { entities.append(entity) }
        var write = EntityFiles.WriteOptions(format: .csv)
        write.typedCSV = typed
        let bytes = try EntityFiles.bytes(of: entities, options: write)
        let plainCount = try Self.arePlain(
            CSVEntityReader(ByteInput(name: "events.csv", bytes: bytes), plainEvents: true)
        ).count { $0 }
        #expect(
            plainCount >= Self.cases.filter(\.plain).count - 2,
            "the null Timestamp and the metadata cases change in CSV"
        )
        #expect(plainCount < Self.cases.count)

        var options = ValidationOptions()
        options.cutoff = .at("2026-12-31T23:59:59.9999999Z")
        let (plain, whole) = try await Self.bothWays(bytes, fileName: "events.csv", options: options)
        #expect(plain.findings == whole.findings)
        #expect(plain.entitiesChecked == entities.count)
    }

    @Test("typed CSV whose types are on the first row only reads the same either way")
    func typesOnFirstRowOnly() async throws {
        let csv = """
            PartitionKey,RowKey,EventDate,EventDate@type,EventName,EventName@type,EventLocation,EventLocation@type,EventDescription,EventDescription@type,SpeakerKey,SpeakerKey@type,SpeakerName,SpeakerName@type
            Events,e0000000-0000-4000-8000-000000000001,2026-03-01T09:30:00.0000001Z,Edm.DateTime,iOS Meetup,Edm.String,"Chicago, IL",Edm.String,Lorem.,Edm.String,\(D.bartKey),Edm.String,Bart Tubalinal,Edm.String
            Events,e0000000-0000-4000-8000-000000000002,2026-03-02T09:30:00Z,,iOS Meetup,,"Chicago, IL",,Lorem.,,\(D.bartKey),,Bart,
            Events,e0000000-0000-4000-8000-000000000003,2026-03-03T09:30:00.0000001Z,,7,Edm.Int32,"Chicago, IL",,Lorem.,,\(D.bartKey),,Bart Tubalinal,

            """
        #expect(
            try Self.arePlain(CSVEntityReader(ByteInput(name: "events.csv", bytes: Array(csv.utf8)), plainEvents: true))
                == [true, true, false]
        )
        let (plain, whole) = try await Self.bothWays(
            Array(csv.utf8),
            fileName: "events.csv",
            options: ValidationOptions()
        )
        #expect(plain.findings == whole.findings)
        #expect(Set(plain.findings.map(\.rule)) == ["dates.format", "references.orphan", "contract.type"])
    }

    @Test("plain CSV: an empty string (\"\") is no plain event, in the event's column or another partition's")
    func quotedEmptyIsNoPlainEvent() throws {
        func row(name: String) -> String {
            "Events,e0000000-0000-4000-8000-000000000001,2026-03-01T09:30:00.1234567Z,\(name),\"Chicago, IL\",Lorem.,\(D.bartKey),Bart Tubalinal"
        }
        let csv = """
            PartitionKey,RowKey,EventDate,EventName,EventLocation,EventDescription,SpeakerKey,SpeakerName,Name
            \(row(name: "iOS Meetup")),
            \(row(name: "iOS Meetup")),""
            \(row(name: "\"\"")),

            """
        #expect(
            try Self.arePlain(CSVEntityReader(ByteInput(name: "events.csv", bytes: Array(csv.utf8)), plainEvents: true))
                == [true, false, false]
        )
    }

    /// The reports of validating `bytes`, written to `fileName`, with plain events and without.
    static func bothWays(
        _ bytes: [UInt8],
        fileName: String,
        options: ValidationOptions
    ) async throws -> (plain: ValidationReport, whole: ValidationReport) {
        try await withTemporaryDirectory { directory in
            let path = directory + "/" + fileName
            try writeFile(path, bytes)
            return (
                try await FileValidation.run([path], options: options, plainEvents: true),
                try await FileValidation.run([path], options: options, plainEvents: false)
            )
        }
    }

    /// For each item `reader` hands over, whether it is a plain event.
    static func arePlain(_ reader: some EntityReader) throws -> [Bool] {
        var reader = reader
        var plain: [Bool] = []
        while let item = try reader.nextItem() {
            if case .plainEvent = item { plain.append(true) } else { plain.append(false) }
        }
        return plain
    }

    @Test(
        "a bad value is the same error either way",
        arguments: [
            Line().setting("EventDescription", "\"a\u{1}b\"").text,
            Line().setting("Timestamp", #""yesterday""#).text,
            Line().setting("EventDate@odata.type", #""Edm.Nonsense""#).text,
            Line().setting("odata.etag", "5").text,
            Line().setting("EventDate", #""2026-13-01T09:30:00.0000000Z""#).text,
        ]
    )
    func sameErrors(_ line: String) async throws {
        let errors = try await Self.errors(Self.document([Self.speakerLine, line]))
        #expect(errors[0] == errors[1])
        #expect(errors[0] != nil)
    }

    @Test("invalid UTF-8 in a description is the same error either way")
    func invalidUTF8() async throws {
        var bytes = Self.document([Self.speakerLine, Line().setting("EventDescription", #""Lorem XX""#).text])
        let at = try #require(bytes.firstRange(of: Array("XX".utf8)))
        bytes.replaceSubrange(at, with: [0xC3, 0x28])
        let errors = try await Self.errors(bytes)
        #expect(errors[0] == errors[1])
        #expect(errors[0]?.contains("UTF-8") == true)
    }

    /// The error validating `bytes` as NDJSON throws, with plain events and without.
    static func errors(_ bytes: [UInt8]) async throws -> [String?] {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.ndjson"
            try writeFile(path, bytes)
            var errors: [String?] = []
            for plainEvents in [true, false] {
                do {
                    _ = try await FileValidation.run([path], options: ValidationOptions(), plainEvents: plainEvents)
                    errors.append(nil)
                } catch {
                    errors.append("\(error)")
                }
            }
            return errors
        }
    }
}
