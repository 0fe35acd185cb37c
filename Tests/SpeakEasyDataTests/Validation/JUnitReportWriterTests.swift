import Foundation
import SpeakEasyData
import TestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("JUnitReportWriter")
struct JUnitReportWriterTests {
    /// The rendered report, parsed back by an XML parser: whatever the writer escaped must read back.
    static func parse(_ report: ValidationReport) throws -> XMLElement {
        let bytes = JUnitReportWriter().render(report)
        let document = try XMLDocument(data: Data(bytes), options: [])
        return try #require(document.rootElement())
    }

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    @Test("a testsuite per rule, a failing testcase per finding, a passing one for a rule without findings")
    func structure() throws {
        let root = try Self.parse(SampleReports.tricky)
        #expect(root.name == "testsuites")
        #expect(Self.attribute(root, "tests") == "7")
        #expect(Self.attribute(root, "failures") == "6")
        #expect(Self.attribute(root, "errors") == "0")

        let suites = root.elements(forName: "testsuite")
        #expect(
            suites.map { Self.attribute($0, "name") } == [
                "dates.format", "refs.orphan", "refs.mismatch", "contract.rowkey-guid", "photos.unused",
            ]
        )
        #expect(suites.map { Self.attribute($0, "tests") } == ["2", "1", "1", "1", "2"])
        #expect(suites.map { Self.attribute($0, "failures") } == ["2", "0", "1", "1", "2"])

        let passing = try #require(suites[1].elements(forName: "testcase").first)
        #expect(Self.attribute(passing, "classname") == "refs.orphan")
        #expect(Self.attribute(passing, "name") == "every SpeakerKey names a speaker")
        #expect(passing.elements(forName: "failure").isEmpty)

        let properties = try #require(suites[0].elements(forName: "properties").first).elements(forName: "property")
        #expect(properties.map { Self.attribute($0, "name") } == ["severity", "summary"])
        #expect(
            properties.map { Self.attribute($0, "value") } == ["error", "EventDate is a DateTime in the app's pattern"]
        )
    }

    @Test("failure message, type and text carry the finding, its location, keys and related locations")
    func failureContents() throws {
        let root = try Self.parse(SampleReports.tricky)
        let suites = root.elements(forName: "testsuite")

        let first = try #require(suites[0].elements(forName: "testcase").first)
        #expect(Self.attribute(first, "classname") == "dates.format")
        #expect(Self.attribute(first, "name") == "data/events.csv:12")
        let failure = try #require(first.elements(forName: "failure").first)
        #expect(Self.attribute(failure, "type") == "error")
        #expect(Self.attribute(failure, "message") == SampleReports.tricky.findings[0].message)
        #expect(
            failure.stringValue
                == "location: data/events.csv:12\nkeys: PartitionKey=Events RowKey=0f8fad5b-d9cb-469f-a165-70867728950e"
        )

        let mismatch = try #require(suites[2].elements(forName: "testcase").first?.elements(forName: "failure").first)
        #expect(
            Self.text(
                of: mismatch,
                is: [
                    "location: odd dir/a:b,c%d#e?é.csv:3", "keys: PartitionKey=Events RowKey=x",
                    "related: speakers.json:40", "related: events/speakers/6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11",
                ]
            )
        )

        let blob = try #require(suites[4].elements(forName: "testcase").first)
        #expect(Self.attribute(blob, "name") == "speakers/Old Photo, 2019.jpg")
        #expect(Self.attribute(try #require(blob.elements(forName: "failure").first), "type") == "warning")
    }

    static func text(of element: XMLElement, is lines: [String]) -> Bool {
        element.stringValue == lines.joined(separator: "\n")
    }

    @Test(
        "quotes, <&>, line breaks, tab and non-ASCII read back exactly; characters XML cannot hold become visible escapes"
    )
    func escaping() throws {
        let root = try Self.parse(SampleReports.tricky)
        let mismatch = try #require(
            root.elements(forName: "testsuite")[2].elements(forName: "testcase").first?.elements(forName: "failure")
                .first
        )
        #expect(
            Self.attribute(mismatch, "message")
                == "SpeakerName \"Bart Tubalinal\" ≠ \"Bart Tubalinál\"\nline two\r\nCR-LF, tab\there, bell\\u{7} esc\\u{1B} nul\\u{0} 😀"
        )

        let text = String(decoding: JUnitReportWriter().render(SampleReports.tricky), as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(
            text.contains(
                "message=\"EventDate &quot;2024-05-01T10:00:00.2Z&quot; has 1 fractional digit, the app needs 7 &lt;&amp;&gt; 100%\""
            )
        )
        #expect(text.contains("&#13;&#10;CR-LF, tab&#9;here"))
    }

    @Test("text and attributes escape every special character and nothing else")
    func exactEscapes() {
        let report = ValidationReport(
            rules: [],
            findings: [
                Finding(
                    rule: "r\"<",
                    severity: .error,
                    message: "a\"b<c>d&e\rf\ng\th\u{1}i\u{FFFE}j]]>k",
                    location: FindingLocation(.container("c&<>\"", blob: nil))
                )
            ],
            inputs: [],
            entitiesChecked: 0,
            truncated: false
        )
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="speakeasy-validate" tests="1" failures="1" errors="0">
              <testsuite name="r&quot;&lt;" tests="1" failures="1" errors="0" skipped="0">
                <properties>
                  <property name="severity" value="error"/>
                </properties>
                <testcase classname="r&quot;&lt;" name="c&amp;&lt;&gt;&quot;">
                  <failure message="a&quot;b&lt;c&gt;d&amp;e&#13;f&#10;g&#9;h\\u{1}i\\u{FFFE}j]]&gt;k" type="error">location: c&amp;&lt;&gt;"</failure>
                </testcase>
              </testsuite>
            </testsuites>

            """
        #expect(String(decoding: JUnitReportWriter().render(report), as: UTF8.self) == expected)
    }

    @Test("an empty report is an empty testsuites element")
    func empty() throws {
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="speakeasy-validate" tests="0" failures="0" errors="0">
            </testsuites>

            """
        #expect(String(decoding: JUnitReportWriter().render(SampleReports.empty), as: UTF8.self) == expected)
        let root = try Self.parse(SampleReports.clean)
        #expect(Self.attribute(root, "tests") == "5")
        #expect(Self.attribute(root, "failures") == "0")
    }

    @Test("a finding whose rule the report does not describe gets a suite of its own")
    func undescribedRule() throws {
        let root = try Self.parse(SampleReports.truncatedWithUndescribedRule)
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { Self.attribute($0, "name") } == ["dates.format", "keys.duplicate", "max-errors"])
        #expect(Self.attribute(root, "tests") == "3")
        #expect(Self.attribute(root, "failures") == "3")
        let note = try #require(suites.last?.elements(forName: "testcase").first?.elements(forName: "failure").first)
        #expect(Self.attribute(note, "message")?.contains("lower bounds") == true)
    }
}
