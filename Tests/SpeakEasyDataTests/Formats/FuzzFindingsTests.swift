import SpeakEasyData
import Testing

/// What `Fuzz/run` found, kept fixed: a writer must refuse what its own reader would read otherwise
/// (the fuzz round trip: whatever a reader accepts is written and read back equal, or not written).
@Suite("writers: fuzzer findings")
struct FuzzFindingsTests {
    static func bytes(_ entity: Entity, _ format: DataFormat) throws(FormatError) -> [UInt8] {
        try EntityFiles.bytes(of: [entity], options: EntityFiles.WriteOptions(format: format))
    }

    @Test("Atom refuses a property name with a NUL, which libxml2 would write only up to the NUL")
    func atomNUL() {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("I\u{0}mageUrl", .string("x"))])
        let error = #expect(throws: FormatError.self) { try Self.bytes(entity, .atom) }
        #expect(error?.reason.contains("not a valid XML element name") == true, "\(String(describing: error))")
    }

    @Test(
        "JSON refuses a property name that its readers take for an annotation ('@', 'odata.')",
        arguments: ["t@Aype", "odata.id"]
    )
    func jsonAnnotation(name: String) {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property(name, .string("x"))])
        for format in [DataFormat.json, .ndjson] {
            let error = #expect(throws: FormatError.self) { try Self.bytes(entity, format) }
            #expect(error?.reason.contains("annotations") == true, "\(String(describing: error))")
        }
    }

    @Test(
        "JSON refuses such a name after entities whose names it checked, wherever it stands",
        arguments: [0, 1, 2]
    )
    func jsonAnnotationLater(position: Int) throws {
        // The writer checks a name once while the entities repeat it, so a new name must be checked.
        let names = ["A", "B", "C"]
        let good = Entity(partitionKey: "p", rowKey: "1", properties: names.map { Property($0, .string("x")) })
        var badNames = names
        badNames[position] = "t@Aype"
        let bad = Entity(partitionKey: "p", rowKey: "2", properties: badNames.map { Property($0, .string("x")) })
        let shorter = Entity(partitionKey: "p", rowKey: "0", properties: [Property("A", .string("x"))])
        for format in [DataFormat.json, .ndjson] {
            let options = EntityFiles.WriteOptions(format: format)
            let error = #expect(throws: FormatError.self) {
                try EntityFiles.bytes(of: [shorter, good, good, bad], options: options)
            }
            #expect(error?.reason.contains("t@Aype") == true, "\(String(describing: error))")
            _ = try EntityFiles.bytes(of: [shorter, good, good], options: options)
        }
    }
}
