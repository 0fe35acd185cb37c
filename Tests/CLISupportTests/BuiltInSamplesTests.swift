import BuiltInSamples
import Foundation
import SpeakEasyData
import Testing

@testable import CLISupport

@Suite("the samples built into the tools")
struct BuiltInSamplesTests {
    /// The repository's `samples/`: this file is `Tests/CLISupportTests/BuiltInSamplesTests.swift`.
    static let samples: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/samples"
    }()

    @Test("they are exactly the files of samples/, byte for byte")
    func sameFiles() throws {
        var onDisk: [String: [UInt8]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.samples))
        for case let name as String in enumerator {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Self.samples + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            onDisk[name] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.samples + "/" + name)))
        }
        #expect(onDisk.keys.sorted() == BuiltInSamples.files.keys.sorted())
        for (name, bytes) in onDisk { #expect(BuiltInSamples.files[name] == bytes, "\(name)") }
    }

    @Test("they load as the same catalog, with the same fingerprint, as samples/")
    func sameCatalog() throws {
        let builtIn = try SampleCatalog.builtIn()
        let directory = try SampleCatalog(directory: Self.samples)
        #expect(builtIn.fingerprint == directory.fingerprint)
        #expect(builtIn.speakers == directory.speakers)
        #expect(builtIn.eventNames == directory.eventNames)
        #expect(builtIn.locations == directory.locations)
        #expect(builtIn.speakers.count == 8)
    }

    @Test("--samples first, then ./samples when it holds a catalog.json, else the built-in copy")
    func precedence() throws {
        let scratch = FileManager.default.temporaryDirectory.path + "/samples-locator-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let local = scratch + "/samples"
        #expect(SamplesLocator.source(given: nil, local: local) == .builtIn)
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        #expect(
            SamplesLocator.source(given: nil, local: local) == .builtIn,
            "a samples directory without a catalog is not a catalog"
        )
        try Data("{}".utf8).write(to: URL(fileURLWithPath: local + "/catalog.json"))
        #expect(SamplesLocator.source(given: nil, local: local) == .directory(local))
        #expect(SamplesLocator.source(given: "mine", local: local) == .directory("mine"))
    }
}
