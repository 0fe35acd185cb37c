import Foundation
import Testing

/// Stores that are ours but damaged: every tool says so (65) before it serves or writes anything,
/// and a run that fails on one leaves the manifest it found.
@Suite("damaged stores")
struct DamagedStoreTests {
    @Test("a file with the store's application id but no tables: 65 'damaged' in every tool, serve included")
    func noTables() async throws {
        let scratch = try Scratch()
        let made = try await SQLiteShell.run(
            scratch.file("store.sqlite"),
            "PRAGMA application_id = 1397047620; CREATE TABLE notes (text TEXT)",
            readOnly: false
        )
        try #require(made.status == 0, "\(made)")
        let runs: [(String, [String])] = [
            ("validate", []), ("export", ["--to", "out.json"]), ("seed", ["--mode", "merge"]),
            ("serve", ["--table-port", "0", "--blob-port", "0", "--no-ui"]),
        ]
        for (tool, arguments) in runs {
            let result = try await OneVoiceTests.run(tool, ["--store", "store.sqlite"] + arguments, in: scratch.path)
            #expect(result.status == 65, "\(result)")
            #expect(
                result.stderr == "\(tool): error: store.sqlite: a damaged storage account: its tables are missing\n",
                "\(result)"
            )
        }
    }

    @Test("a merge into a store with corrupt pages fails (65) and leaves its completed manifest")
    func corruptPagesKeepTheManifest() async throws {
        let scratch = try Scratch()
        let seeded = try await SeedTool.run(
            ["--events", "2000", "--store", "store.sqlite", "--quiet"],
            in: scratch.path
        )
        try #require(seeded.status == 0, "\(seeded)")
        // A leaf page of the entities in the middle of the table, overwritten.
        let page = try await SQLiteShell.integer(
            scratch.file("store.sqlite"),
            "SELECT pageno FROM dbstat WHERE name = 'entities' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 100"
        )
        let file = try #require(FileHandle(forUpdatingAtPath: scratch.file("store.sqlite")))
        try file.seek(toOffset: UInt64((page - 1) * 16384 + 8))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 1000))
        try file.close()
        let merged = try await SeedTool.run(
            ["--mode", "merge", "--events", "10", "--seed", "3", "--store", "store.sqlite"],
            in: scratch.path
        )
        #expect(merged.status == 65, "\(merged)")
        let status = try await SQLiteShell.lines(
            scratch.file("store.sqlite"),
            "SELECT json_extract(properties, '$.Status') FROM entities WHERE table_name = 'seedmanifest'"
        )
        #expect(status == ["complete"], "the manifest was overwritten: \(status)")
    }
}
