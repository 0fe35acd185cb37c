import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// `serve`'s Blob service judged by rclone 1.60 (Debian's package, Go, Azure's azblob SDK):
/// `rclone sync` and `rclone check` of nested folders, with the files' modification times, which
/// rclone keeps in the blob's metadata (`x-ms-meta-mtime`) and reads back from List Blobs with
/// `include=metadata`; folders come from List Blobs with `delimiter=/`.
@Suite("serve judged by rclone", .enabled(if: CommandLineClient.rclone.enabled, CommandLineClient.rclone.howToEnable))
struct RcloneTests {
    static let rclone = CommandLineClient.rclone

    /// The files synced, with modification times on the half second (exact in a `Date`).
    static let files: [(path: String, text: String, modified: TimeInterval)] = [
        ("top.txt", "at the top", 1_600_000_000.5),
        ("photos/ada.jpg", String(repeating: "jpeg ", count: 300), 1_600_003_600.5),
        ("photos/2024/keynote.png", "png bytes", 1_600_007_200.5),
        ("docs/deep/nested/readme.md", "# nested three deep", 1_600_010_800.5),
        ("docs/notes.txt", "", 1_600_014_400.5),
    ]

    @Test(
        "sync and check nested folders with their modification times; a second sync uploads nothing; removed files are deleted"
    )
    func syncAndCheck() async throws {
        try await withRunningServer { server in
            try await offPool {
                try withScratchDirectory { scratch in
                    let source = scratch + "/source"
                    for file in Self.files {
                        let path = source + "/" + file.path
                        try FileManager.default.createDirectory(
                            atPath: (path as NSString).deletingLastPathComponent,
                            withIntermediateDirectories: true
                        )
                        try Data(file.text.utf8).write(to: URL(fileURLWithPath: path))
                        try FileManager.default.setAttributes(
                            [.modificationDate: Date(timeIntervalSince1970: file.modified)],
                            ofItemAtPath: path
                        )
                    }
                    // An on-the-fly remote. rclone 1.60 makes `https://<account>.<endpoint>` of an
                    // account and key, so a loopback endpoint goes with `use_emulator`, whose account
                    // and key are the development account's (serve's too).
                    let endpoint = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)"
                    let remote = ":azureblob,use_emulator=true,endpoint='\(endpoint)':speakers"
                    let config = scratch + "/rclone.conf"
                    try Data().write(to: URL(fileURLWithPath: config))
                    let log = scratch + "/rclone.log"
                    @discardableResult func rclone(_ arguments: [String]) throws -> String {
                        try? FileManager.default.removeItem(atPath: log)
                        return try Self.rclone.run(
                            arguments + ["--config", config, "--retries", "1", "--low-level-retries", "2"]
                        )
                    }
                    func logged() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
                    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).sorted() }

                    try rclone(["sync", source, remote, "-v", "--log-file", log])
                    #expect(!logged().contains("ERROR"), "\(logged())")
                    try rclone(["check", source, remote])
                    // Sizes, modification times (to the nanosecond rclone prints) and paths as
                    // rclone sees them on both sides.
                    let local = lines(try rclone(["lsl", source]))
                    #expect(local.count == Self.files.count)
                    #expect(lines(try rclone(["lsl", remote])) == local)
                    #expect(lines(try rclone(["lsf", "--dirs-only", remote])) == ["docs/", "photos/"])
                    #expect(lines(try rclone(["lsf", "--dirs-only", remote + "/docs"])) == ["deep/"])

                    try rclone(["sync", source, remote, "-v", "--log-file", log])
                    #expect(!logged().contains("Copied"), "a second sync uploads nothing:\n\(logged())")
                    #expect(!logged().contains("ERROR"), "\(logged())")

                    try FileManager.default.removeItem(atPath: source + "/photos/2024/keynote.png")
                    try Data("changed at the top".utf8).write(to: URL(fileURLWithPath: source + "/top.txt"))
                    try rclone(["sync", source, remote, "-v", "--log-file", log])
                    #expect(logged().contains("photos/2024/keynote.png: Deleted"), "\(logged())")
                    #expect(logged().contains("top.txt: Copied"), "\(logged())")
                    #expect(!logged().contains("ERROR"), "\(logged())")
                    try rclone(["check", source, remote])
                    #expect(lines(try rclone(["lsl", remote])) == lines(try rclone(["lsl", source])))
                    #expect(!lines(try rclone(["lsf", "-R", remote])).contains("photos/2024/keynote.png"))
                }
            }
        }
    }
}
