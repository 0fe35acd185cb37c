import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Our Azure Table JSON against azure-data-tables 12.7.0, the official Azure SDK for Python.
///
/// Skipped unless SPEAKEASY_INTEROP_PYTHON names the virtualenv's python
/// (`Tests/InteropTests/setup.sh` makes it and prints the export); on CI they always run.
@Suite("JSON interop with azure-data-tables", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct JSONInteropTests {
    static let fixtures = TestPaths.azureFixtures  // recorded Azure payloads; see its README.md

    static let ours = InteropEntities.common + [InteropEntities.jsonOnly]

    @Test(
        "JSON we write reads to the same entities, values and types in azure-data-tables",
        arguments: [JSONMetadata.minimal, .full]
    )
    func sdkReadsWhatWeWrite(metadata: JSONMetadata) throws {
        try withScratchDirectory { scratch in
            let path = scratch + "/ours.json"
            try Data(format(Self.ours, with: JSONFormatter(metadata: metadata, table: "speakers"))).write(
                to: URL(fileURLWithPath: path)
            )
            let theirs = try PythonSDK.dump("tables_json_read.py", [path])
            Comparison().expectSame(
                ours: Self.ours,
                theirs: theirs,
                "\(metadata) written by us, read by azure-data-tables"
            )
        }
    }

    @Test("at nometadata, azure-data-tables infers the same types from what we write as our reader does")
    func sdkInfersAsWeDoWithoutMetadata() throws {
        try withScratchDirectory { scratch in
            let path = scratch + "/ours.json"
            try Data(format(Self.ours, with: JSONFormatter(metadata: .none, table: "speakers"))).write(
                to: URL(fileURLWithPath: path)
            )
            let theirs = try PythonSDK.dump("tables_json_read.py", [path])
            let reread = try readJSONFile(path)
            // Without annotations JSON cannot tell Int64, Guid, DateTime, Binary or NaN from strings.
            #expect(reread.first?["Int64Max"] == .string("9223372036854775807"))
            #expect(reread.first?["DoubleTen"] == .double(10.0))
            Comparison(etags: false).expectSame(
                ours: reread,
                theirs: theirs,
                "nometadata written by us, read by azure-data-tables and by us"
            )
        }
    }

    @Test("JSON that azure-data-tables writes reads to the entities it was given, as a feed and as single bodies")
    func weReadWhatTheSDKWrites() throws {
        try withScratchDirectory { scratch in
            let expected = try PythonSDK.dump("tables_json_write.py", [scratch])
            try #require(expected.count == 2)
            let feed = try readJSONFile(scratch + "/feed.json")
            Comparison().expectSame(
                ours: feed,
                theirs: expected,
                "feed of azure-data-tables request bodies, read by us"
            )
            for index in expected.indices {
                let single = try readJSONFile(scratch + "/entity-\(index).json")
                Comparison().expectSame(
                    ours: single,
                    theirs: [expected[index]],
                    "azure-data-tables request body entity-\(index).json, read by us"
                )
            }
        }
    }

    @Test(
        "the recorded Azure responses read the same in azure-data-tables and in our reader",
        arguments: ["minimalmetadata", "fullmetadata", "nometadata"]
    )
    func recordedResponses(level: String) throws {
        try withScratchDirectory { scratch in
            let path = Self.fixtures + "/table-json-query-\(level).json"
            let theirs = try PythonSDK.dump("tables_json_read.py", [path])
            let ours = try readJSONFile(path)
            #expect(ours.count == 2)
            Comparison(etags: level != "nometadata").expectSame(
                ours: ours,
                theirs: theirs,
                "recorded \(level) response"
            )
        }
    }
}
