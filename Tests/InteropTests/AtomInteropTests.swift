import Foundation
import SpeakEasyData
import Testing

/// Our Atom against azure-storage 0.20.3, the last Azure SDK for Python that spoke Atom, within what
/// its serialiser can do: it writes DateTimes to the whole second, strings with
/// `m:type="Edm.String"` and None as `m:null`; it reads Int32 and Int64 alike as Python ints and
/// DateTimes to the microsecond.
///
/// Skipped unless SPEAKEASY_INTEROP_PYTHON names the virtualenv's python
/// (`Tests/InteropTests/setup.sh` makes it and prints the export); on CI they always run.
@Suite("Atom interop with azure-storage 0.20.3", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct AtomInteropTests {
    /// What the SDK can read back as it was: Int64s that fit 32 bits come back as Int32, DateTimes
    /// as microseconds.
    static let sdkReading = Comparison(dateTimes: .microseconds, intTypeByRange: true)

    /// The writer script's entities (see python/storage_atom_write.py), by RowKey.
    static let plainEntities = ["every-type", "row with spaces & <xml> 'quotes'", "carriage-returns"]

    @Test("Atom we write reads to the same entities, values and types in azure-storage")
    func sdkReadsWhatWeWrite() throws {
        try withScratchDirectory { scratch in
            let path = scratch + "/ours.xml"
            let ours = InteropEntities.common
            try Data(format(ours, with: AtomFormatter(options: .init(table: "speakers")))).write(
                to: URL(fileURLWithPath: path)
            )
            let theirs = try PythonSDK.dump("storage_atom_read.py", [path])
            Self.sdkReading.expectSame(ours: ours, theirs: theirs, "Atom written by us, read by azure-storage")
        }
    }

    @Test("Atom entries that azure-storage writes read to the entities it was given")
    func weReadWhatTheSDKWrites() throws {
        try withScratchDirectory { scratch in
            let expected = try PythonSDK.dump("storage_atom_write.py", [scratch])
            try #require(expected.count == 4)
            var checked = 0
            for (index, entity) in expected.enumerated() where Self.plainEntities.contains(entity.rowKey) {
                let ours = try readAtomFile(scratch + "/entry-\(index).xml")
                Comparison().expectSame(ours: ours, theirs: [entity], "azure-storage entry-\(index).xml, read by us")
                checked += 1
            }
            #expect(checked == Self.plainEntities.count)
        }
    }

    /// azure-storage 0.20.3 writes a float NaN/±inf with Python's `str()`: `<d:DoubleNaN
    /// m:type="Edm.Double">nan</d:DoubleNaN>`, `inf`, `-inf`. Not the service's spellings, but
    /// unambiguous, so our reader accepts them (and writes `NaN`, `Infinity`, `-Infinity`).
    @Test("NaN and ±Infinity that azure-storage writes (Python's nan, inf, -inf) read as those doubles")
    func specialDoublesTheSDKWrites() throws {
        try withScratchDirectory { scratch in
            let expected = try PythonSDK.dump("storage_atom_write.py", [scratch])
            let index = try #require(expected.firstIndex { $0.rowKey == "special-doubles" })
            let written = String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: scratch + "/entry-\(index).xml")),
                as: UTF8.self
            )
            #expect(written.contains(#"<d:DoubleNaN m:type="Edm.Double">nan</d:DoubleNaN>"#))
            // azure-storage 0.20.3 spells them with Python's str(): nan, inf, -inf. We read those too.
            let ours = try readAtomFile(scratch + "/entry-\(index).xml")
            Comparison().expectSame(
                ours: ours,
                theirs: [expected[index]],
                "azure-storage entry-\(index).xml, read by us"
            )
        }
    }

    @Test(
        "the recorded Azure Atom payloads read the same in azure-storage and in our reader",
        arguments: ["table-atom-query-entities-feed.xml", "table-atom-insert-entity-request.xml"]
    )
    func recordedPayloads(file: String) throws {
        try withScratchDirectory { scratch in
            let path = JSONInteropTests.fixtures + "/" + file
            let theirs = try PythonSDK.dump("storage_atom_read.py", [path])
            let ours = try readAtomFile(path)
            #expect(!ours.isEmpty)
            Self.sdkReading.expectSame(ours: ours, theirs: theirs, "recorded \(file)")
        }
    }
}
