import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// A real single-entity payload recorded from Azure (minimal metadata, numeric edge cases).
@Suite("JSON entity reader on the recorded numeric edge-case fixture")
struct JSONFixtureTests {
    static let path = TestPaths.azureFixtures + "/table-json-entity-numeric-edge-cases-minimalmetadata.json"

    @Test("every member is read with its value and type; odata.* keys are skipped")
    func numericEdgeCases() throws {
        let properties = try JSONEntityReader.properties(fromObject: readFile(Self.path))
        #expect(
            properties.map(\.name) == [
                "PartitionKey", "RowKey", "Timestamp", "RegularDouble", "NanDouble", "DoubleInInt", "DoubleInIntString",
                "LargeDoubleInString", "LargeDouble", "PositiveInfinityDouble", "NegativeInfinityDouble", "MinDouble",
                "MaxDouble",
                "MaxInt64", "MinInt64",
            ]
        )
        let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.value) })
        #expect(byName["PartitionKey"] == .string("partition1"))
        #expect(byName["RowKey"] == .string("row1"))
        // Minimal metadata leaves Timestamp unannotated: a flat properties object reads it as the string
        // Azure sent, which must parse to the exact ticks (an entity-level reader types it as DateTime).
        switch byName["Timestamp"] {
        case .string(let text)?: #expect(try EdmDateTime(parsing: text) == .at("2017-01-05T03:27:08.7040706Z"))
        case .dateTime(let date)?: #expect(date == .at("2017-01-05T03:27:08.7040706Z"))
        default: Issue.record("Timestamp is \(String(describing: byName["Timestamp"]))")
        }
        #expect(byName["RegularDouble"] == .double(4.81516423423))
        #expect(byName["NanDouble"] == .double(.nan))
        #expect(byName["DoubleInInt"] == .double(10.0))
        #expect(byName["DoubleInIntString"] == .double(10.0))
        #expect(byName["LargeDoubleInString"] == .double(123456789012345.12))
        #expect(byName["LargeDouble"] == .double(123456789012345.12))
        #expect(byName["PositiveInfinityDouble"] == .double(.infinity))
        #expect(byName["NegativeInfinityDouble"] == .double(-.infinity))
        #expect(byName["MinDouble"] == .double(.leastNonzeroMagnitude))
        #expect(byName["MaxDouble"] == .double(.greatestFiniteMagnitude))
        #expect(byName["MaxInt64"] == .int64(.max))
        #expect(byName["MinInt64"] == .int64(.min))
    }

    @Test("the fixture's properties survive writing and reading again")
    func rewrite() throws {
        let properties = try JSONEntityReader.properties(fromObject: readFile(Self.path))
        var json = [UInt8]()
        JSONEntityWriter.appendPropertiesObject(properties, to: &json)
        #expect(try JSONEntityReader.properties(fromObject: json) == properties)
    }
}
