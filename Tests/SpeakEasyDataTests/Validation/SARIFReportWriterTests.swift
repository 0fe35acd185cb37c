import Foundation
import SpeakEasyData
import TestSupport
import Testing

@Suite("SARIFReportWriter")
struct SARIFReportWriterTests {
    typealias Object = [String: Any]

    /// The rendered log, parsed back by Foundation's JSON parser: every string must read back exactly.
    static func parse(_ report: ValidationReport) throws -> Object {
        let bytes = SARIFReportWriter(toolVersion: "1.2.3").render(report)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? Object)
    }

    static func run(_ log: Object) throws -> Object {
        let runs = try #require(log["runs"] as? [Object])
        try #require(runs.count == 1)
        return runs[0]
    }

    static func results(_ report: ValidationReport) throws -> [Object] {
        try #require(try run(parse(report))["results"] as? [Object])
    }

    @Test("the log names SARIF 2.1.0, the tool and its rules with default levels")
    func logAndDriver() throws {
        let log = try Self.parse(SampleReports.tricky)
        #expect(
            log["$schema"] as? String
                == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
        )
        #expect(log["version"] as? String == "2.1.0")
        let run = try Self.run(log)
        let driver = try #require((run["tool"] as? Object)?["driver"] as? Object)
        #expect(driver["name"] as? String == "speakeasy-validate")
        #expect(driver["version"] as? String == "1.2.3")
        let rules = try #require(driver["rules"] as? [Object])
        #expect(rules.map { $0["id"] as? String } == SampleReports.rules.map(\.id))
        #expect(
            rules.map { ($0["shortDescription"] as? Object)?["text"] as? String } == SampleReports.rules.map(\.summary)
        )
        #expect(
            rules.map { ($0["defaultConfiguration"] as? Object)?["level"] as? String } == [
                "error", "error", "error", "warning", "warning",
            ]
        )

        let invocation = try #require((run["invocations"] as? [Object])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        #expect(invocation["toolExecutionNotifications"] == nil)
        let properties = try #require(invocation["properties"] as? Object)
        #expect(properties["entitiesChecked"] as? Int == 42)
        #expect(properties["inputs"] as? [String] == SampleReports.tricky.inputs)
    }

    @Test("results point at their rule by id and index, with level and the message exactly as found")
    func results() throws {
        let results = try Self.results(SampleReports.tricky)
        #expect(
            results.map { $0["ruleId"] as? String } == [
                "dates.format", "dates.format", "refs.mismatch", "contract.rowkey-guid", "photos.unused",
                "photos.unused",
            ]
        )
        #expect(results.map { $0["ruleIndex"] as? Int } == [0, 0, 2, 3, 4, 4])
        #expect(results.map { $0["level"] as? String } == ["error", "error", "error", "warning", "warning", "warning"])
        let findings = SampleReports.tricky.findings
        let byRule = [findings[0], findings[4], findings[1], findings[2], findings[3], findings[5]]
        #expect(results.map { ($0["message"] as? Object)?["text"] as? String } == byRule.map(\.message))
    }

    @Test("a file location is a physical location: the path as a percent-encoded URI reference, and the line")
    func fileLocations() throws {
        let results = try Self.results(SampleReports.tricky)
        func physical(_ result: Object) -> Object? {
            ((result["locations"] as? [Object])?.first)?["physicalLocation"] as? Object
        }
        let uris = results.map { (physical($0)?["artifactLocation"] as? Object)?["uri"] as? String }
        #expect(
            uris == [
                "data/events.csv", "file:///abs/path/events.csv", "odd%20dir/a%3Ab%2Cc%25d%23e%3F%C3%A9.csv", nil, nil,
                nil,
            ]
        )
        let lines = results.map { (physical($0)?["region"] as? Object)?["startLine"] as? Int }
        #expect(lines == [12, 20, 3, nil, nil, nil])

        // The entity's keys ride along as a logical location.
        let logical = try #require((results[0]["locations"] as? [Object])?.first?["logicalLocations"] as? [Object])
        #expect(logical.first?["fullyQualifiedName"] as? String == "Events/0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect((results[1]["locations"] as? [Object])?.first?["logicalLocations"] == nil)
    }

    @Test("a table or container location is a logical location named table/partition/row or container/blob")
    func logicalLocations() throws {
        let results = try Self.results(SampleReports.tricky)
        func logical(_ result: Object) -> Object? {
            ((result["locations"] as? [Object])?.first?["logicalLocations"] as? [Object])?.first
        }
        #expect(logical(results[3])?["fullyQualifiedName"] as? String == "events/Events/not-a-guid")
        #expect(logical(results[3])?["name"] as? String == "not-a-guid")
        #expect(logical(results[3])?["kind"] as? String == "resource")
        #expect(logical(results[4])?["fullyQualifiedName"] as? String == "speakers/Old Photo, 2019.jpg")
        #expect(logical(results[5])?["fullyQualifiedName"] as? String == "speakers")
        #expect((results[3]["locations"] as? [Object])?.first?["physicalLocation"] == nil)
    }

    @Test(
        "a store run's places also name the account as their artifact, which GitHub code scanning needs to show a result"
    )
    func storeArtifact() throws {
        func uri(_ result: Object) -> String? {
            (((result["locations"] as? [Object])?.first?["physicalLocation"] as? Object)?["artifactLocation"] as? Object)?[
                "uri"
            ] as? String
        }
        for (address, expected) in [
            ("data/my store.sqlite", "data/my%20store.sqlite"),
            ("https://acct.table.core.windows.net", "https://acct.table.core.windows.net"),
        ] {
            var report = SampleReports.tricky
            report.storeAddress = address
            let results = try Self.results(report)
            #expect(uri(results[3]) == expected)
            #expect(uri(results[5]) == expected)
            #expect(uri(results[0]) != expected, "a file's own place stays the file")
            let related = try #require(results[2]["relatedLocations"] as? [Object])
            #expect(
                ((related[1]["physicalLocation"] as? Object)?["artifactLocation"] as? Object)?["uri"] as? String
                    == expected
            )
        }
    }

    @Test("related locations have ids from 1 and say where they are")
    func relatedLocations() throws {
        let results = try Self.results(SampleReports.tricky)
        let related = try #require(results[2]["relatedLocations"] as? [Object])
        #expect(related.map { $0["id"] as? Int } == [1, 2])
        #expect(
            related.map { ($0["message"] as? Object)?["text"] as? String } == [
                "speakers.json:40", "events/speakers/6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11",
            ]
        )
        #expect(
            ((related[0]["physicalLocation"] as? Object)?["artifactLocation"] as? Object)?["uri"] as? String
                == "speakers.json"
        )
        #expect(
            (related[1]["logicalLocations"] as? [Object])?.first?["fullyQualifiedName"] as? String
                == "events/speakers/6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
        )
        #expect(results[0]["relatedLocations"] == nil)
    }

    @Test("strings escape quotes, backslashes and control characters and keep non-ASCII and non-BMP as UTF-8")
    func stringEscaping() throws {
        let text = String(decoding: SARIFReportWriter(toolVersion: "1\"\\").render(SampleReports.tricky), as: UTF8.self)
        #expect(text.contains("\"version\": \"1\\\"\\\\\""))
        #expect(text.contains(#"\"Bart Tubalinál\"\nline two\r\nCR-LF, tab\there, bell\u0007 esc\u001b nul\u0000 😀"#))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("an empty report is a valid log with no rules and no results")
    func empty() throws {
        let run = try Self.run(try Self.parse(SampleReports.empty))
        #expect((run["results"] as? [Any])?.isEmpty == true)
        #expect(((run["tool"] as? Object)?["driver"] as? Object)?["rules"] as? [Any] != nil)
        #expect(try Self.results(SampleReports.clean).isEmpty)
    }

    @Test("a run cut short carries a notification; an undescribed rule is added to the rules")
    func truncatedAndUndescribed() throws {
        let run = try Self.run(try Self.parse(SampleReports.truncatedWithUndescribedRule))
        let rules = try #require(((run["tool"] as? Object)?["driver"] as? Object)?["rules"] as? [Object])
        #expect(rules.map { $0["id"] as? String } == ["dates.format", "keys.duplicate"])
        #expect(rules[1]["shortDescription"] == nil)
        let results = try #require(run["results"] as? [Object])
        #expect(results.map { $0["ruleIndex"] as? Int } == [0, 1])
        let notifications = try #require(
            (run["invocations"] as? [Object])?.first?["toolExecutionNotifications"] as? [Object]
        )
        #expect(notifications.first?["level"] as? String == "warning")
    }
}
