import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// `serve` answering azure-storage 0.20.3, which speaks Atom only (python/serve_atom_legacy.py):
/// Create Table, inserts, a merge whose body leaves the keys out, a get and a query, all in Atom;
/// the DateTime texts served are Azure's, trailing zeros trimmed.
@Suite("serve judged by azure-storage 0.20.3 (Atom)", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ServeAtomLegacyTests {
    @Test("the legacy Atom client inserts, merges and queries")
    func atomClient() async throws {
        try await withRunningServer { server in
            let output = try await offPool {
                try PythonSDK.run("serve_atom_legacy.py", ["127.0.0.1:\(server.port(.table))"])
            }
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
            #expect(seen["tables"] as? [String] == ["legacy"])
            let one = try #require(seen["one"] as? [String: Any])
            #expect(one["Name"] as? String == "O'Brien & <Co>")
            #expect(one["Count"] as? Int == 3)
            #expect(one["Big"] as? Int == 1 << 40)
            #expect(one["When"] as? String == "2026-07-01T04:34:00+00:00")
            // The text on the wire, which the app parses: Azure serves a whole second without a
            // fraction, and so must serve (seven zeros would hide the app's date bug).
            let servedWhen = try #require(seen["servedWhen"] as? [String: [String]])
            #expect(servedWhen["get"] == ["2026-07-01T04:34:00Z"], "\(servedWhen)")
            #expect(servedWhen["query"] == ["2026-07-01T04:34:00Z"], "\(servedWhen)")
            let rows = try #require(seen["rows"] as? [[Any]])
            #expect(rows.count == 2)
            #expect(rows.first?.first as? String == "1")
            #expect(rows.last?[1] as? String == "second")
            #expect(rows.last?[2] as? Bool == true, "the merged property")
        }
    }
}
