import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Our JUnit and SARIF reports against the published schemas kept in `Tests/Fixtures/schemas`
/// (Jenkins' junit-10.xsd, the OASIS SARIF 2.1.0 schema), checked by xmlschema and jsonschema.
///
/// Skipped unless SPEAKEASY_INTEROP_PYTHON names the virtualenv's python
/// (`Tests/InteropTests/setup.sh` makes it and prints the export); on CI they always run.
@Suite("Reports against their published schemas", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ReportSchemaTests {
    static let schemas = TestPaths.packageRoot + "/Tests/Fixtures/schemas"

    static let sarifSchema = schemas + "/sarif-schema-2.1.0.json"
    static let junitSchema = schemas + "/junit-10.xsd"

    /// Writes `bytes` and validates them; throws with the validator's errors when they are invalid.
    static func validate(_ kind: String, schema: String, _ bytes: [UInt8], scratch: String) throws {
        let path = scratch + "/report." + kind
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        _ = try PythonSDK.run("validate_report.py", [kind, schema, path])
    }

    static let reportNames = SampleReports.all.map(\.name)

    static func report(_ name: String) throws -> ValidationReport {
        try #require(SampleReports.all.first { $0.name == name }).report
    }

    @Test(
        "SARIF validates against the OASIS SARIF 2.1.0 schema, formats (uri-reference) included",
        arguments: reportNames
    )
    func sarif(name: String) throws {
        let bytes = SARIFReportWriter(toolVersion: "0.1.0").render(try Self.report(name))
        try withScratchDirectory { scratch in
            try Self.validate("sarif", schema: Self.sarifSchema, bytes, scratch: scratch)
        }
    }

    @Test("JUnit validates against Jenkins' junit-10.xsd", arguments: reportNames)
    func junit(name: String) throws {
        let bytes = JUnitReportWriter().render(try Self.report(name))
        try withScratchDirectory { scratch in
            try Self.validate("junit", schema: Self.junitSchema, bytes, scratch: scratch)
        }
    }

    // The validators must be able to say no, or a pass above means nothing.

    @Test(
        "the SARIF check rejects a log with an unknown level or a path that is not a URI reference",
        arguments: [
            ("\"level\": \"warning\"", "\"level\": \"fatal\"", "'fatal' is not one of"),
            ("odd%20dir/", "odd dir/", "is not a 'uri-reference'"),
        ]
    )
    func sarifCheckRejects(original: String, broken: String, reason: String) throws {
        let rendered = SARIFReportWriter(toolVersion: "0.1.0").render(SampleReports.tricky)
        try Self.expectRejected(
            "sarif",
            schema: Self.sarifSchema,
            rendered,
            replacing: original,
            with: broken,
            because: reason
        )
    }

    @Test(
        "the JUnit check rejects a suite without its errors count, and a raw control character",
        arguments: [
            (" errors=\"0\" skipped", " skipped", "missing required attribute 'errors'"),
            ("\\u{7}", "\u{7}", "not well-formed"),
        ]
    )
    func junitCheckRejects(original: String, broken: String, reason: String) throws {
        try Self.expectRejected(
            "junit",
            schema: Self.junitSchema,
            JUnitReportWriter().render(SampleReports.tricky),
            replacing: original,
            with: broken,
            because: reason
        )
    }

    /// Expects the schema check of `kind` to reject `rendered` with `original` replaced by `broken`,
    /// and to say `reason`.
    static func expectRejected(
        _ kind: String,
        schema: String,
        _ rendered: [UInt8],
        replacing original: String,
        with broken: String,
        because reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = String(decoding: rendered, as: UTF8.self)
        #expect(text.contains(original), sourceLocation: sourceLocation)
        let bytes = Array(text.replacingOccurrences(of: original, with: broken).utf8)
        try withScratchDirectory { scratch in
            let failure = #expect(throws: PythonSDK.Failure.self, sourceLocation: sourceLocation) {
                try validate(kind, schema: schema, bytes, scratch: scratch)
            }
            #expect(
                failure?.description.contains(reason) == true,
                "rejected for another reason: \(failure?.description ?? "")",
                sourceLocation: sourceLocation
            )
        }
    }
}
