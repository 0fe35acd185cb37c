import Foundation
import SpeakEasyData
import TestServer
import Testing

/// An export names the table endpoint of the account it read, in Atom's `xml:base` and JSON's
/// `odata.metadata` alike.
@Suite("export: the addresses it names")
struct ExportAddressTests {
    /// The `xml:base` of an Atom feed and the `odata.metadata` of a JSON one, exported from `store`.
    static func addresses(store: String, in scratch: borrowing Scratch) async throws -> (atom: String, json: String) {
        let atom = try await BuiltTool.export.run(["--store", store, "--format", "atom"], in: scratch.path)
        #expect(atom.status == 0, "\(atom)")
        let json = try await BuiltTool.export.run(["--store", store, "--format", "json"], in: scratch.path)
        #expect(json.status == 0, "\(json)")
        let base = try #require(atom.stdout.firstMatch(of: /xml:base="([^"]*)"/)?.1, "\(atom.stdout.prefix(400))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        return (String(base), try #require(object["odata.metadata"] as? String))
    }

    @Test("a local store: the table endpoint serve answers for it, on the Table port")
    func local() async throws {
        let scratch = try Scratch()
        let seeded = try await SeedTool.run(["--events", "3", "--store", "s.sqlite"], in: scratch.path)
        try #require(seeded.status == 0, "\(seeded)")
        let (atom, json) = try await Self.addresses(store: "s.sqlite", in: scratch)
        #expect(atom == "http://127.0.0.1:10002/speakeasy/")
        #expect(json == atom + "$metadata#events")
    }

    @Test("a served account: its own table endpoint and account")
    func served() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            let connection = server.connectionString()
            let seeded = try await SeedTool.run(["--events", "3", "--store", connection], in: scratch.path)
            try #require(seeded.status == 0, "\(seeded)")
            let endpoint = DevelopmentAccount.endpoint(.table, port: server.port(.table))
            let (atom, json) = try await Self.addresses(store: connection, in: scratch)
            #expect(atom == endpoint + "/")
            #expect(json == endpoint + "/$metadata#events")
        }
    }
}
