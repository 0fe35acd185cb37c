import Foundation
import SpeakEasyData
import Testing

/// A plain `seed` run, end to end: the built executable writes a store; the store is read back.
@Suite("seed: a plain run")
struct SeedRunTests {
    @Test("the summary's 'repeat with' names every option that decides the data, and makes the same data")
    func repeatCommand() async throws {
        let scratch = try Scratch()
        for options in [
            ["--events", "20"], ["--events", "5", "--resolution", "hour", "--cutoff", "2031-02-03T04:05:06Z"],
        ] {
            let first = try await SeedTool.run(
                ["--seed", "42", "--store", "first.sqlite", "--reset"] + options,
                in: scratch.path
            )
            #expect(first.status == 0, "\(first)")
            let line = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("  repeat with   ") })
            let words = line.dropFirst("  repeat with   ".count).split(separator: " ").map(String.init)
            #expect(words.first == "seed" && words.contains("--from") && words.contains("--cutoff"), "\(line)")
            // Today's date is spelt out, so the command means the same tomorrow.
            let today = String(EdmDateTime.now().description.prefix(10))
            #expect(words.contains(today) || options.contains("--cutoff"), "\(line)")
            let again = try await SeedTool.run(
                Array(words.dropFirst()) + ["--store", "again.sqlite", "--reset"],
                in: scratch.path
            )
            #expect(again.status == 0, "\(again)")
            let hash = { (text: String) in text.split(separator: "\n").first { $0.contains("content hash") } }
            #expect(hash(first.stdout) != nil && hash(first.stdout) == hash(again.stdout), "\(first)\n\(again)")
        }
    }

    @Test("seed --seed 42 writes the data contract: 8 speakers, 8 photos, 100 valid events")
    func plainRun() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(
            ["--seed", "42", "--from", "2026-01-01", "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(!result.killedBySignal)
        #expect(result.stdout.contains("seed          42"), "\(result)")
        #expect(result.stdout.contains("events: Events 100 · speakers 8"), "\(result)")
        #expect(result.stdout.contains("Events per month"), "\(result)")
        #expect(
            result.stderr.isEmpty,
            "stderr is not a terminal: no progress bar and no diagnostics expected\n\(result)"
        )

        let contents = try await StoreContents.read(store)
        #expect(contents.counts == [DataContract.speakersPartition: 8, DataContract.eventsPartition: 100])
        #expect(contents.speakers.count == 8)
        #expect(contents.events.count == 100)

        // Photos: 8 JPEG blobs in a container that is publicly readable at container level.
        #expect(contents.access == .container)
        #expect(contents.blobs.count == 8)
        for blob in contents.blobs {
            #expect(blob.contentType == "image/jpeg", "\(blob.name)")
            #expect(blob.size > 0, "\(blob.name)")
        }
        let blobNames = Set(contents.blobs.map(\.name))

        // Speakers: the eight samples, each ImageUrl naming an existing blob of this account.
        let expectedNames: Set = [
            "Bart Tubalinal", "Bert Johnson", "Travis Nielsen", "Matt Morse", "Mo Omar", "Darya Orlova", "Callie Jones",
            "Ela Gardner",
        ]
        #expect(Set(contents.speakers.compactMap { $0.string("Name") }) == expectedNames)
        var speakerNames: [String: String] = [:]
        for speaker in contents.speakers {
            #expect(isLowerCaseGUID(speaker.rowKey), "speaker RowKey \(speaker.rowKey)")
            for property in ["Name", "Title", "Bio", "ImageUrl"] {
                #expect(speaker.string(property) != nil, "speaker \(speaker.rowKey) lacks String \(property)")
            }
            speakerNames[speaker.rowKey] = speaker.string("Name")
            let url = try #require(speaker.string("ImageUrl"))
            let parsed = try #require(BlobURL(url), "ImageUrl \(url) is not a blob URL")
            #expect(parsed.account == StorageLocation.localAccountName, "\(url)")
            #expect(parsed.container == DataContract.photoContainer, "\(url)")
            #expect(blobNames.contains(parsed.blob), "ImageUrl \(url) names no stored blob")
        }

        // Events: each names a speaker by key and name, inside the window.
        let from = try EdmDateTime(parsing: "2026-01-01T00:00:00Z")
        let cutoff = try EdmDateTime(parsing: "2027-01-01T00:00:00Z")
        var identities = Set<String>()
        for event in contents.events {
            #expect(isLowerCaseGUID(event.rowKey), "event RowKey \(event.rowKey)")
            let key = try #require(event.string("SpeakerKey"), "event \(event.rowKey) lacks SpeakerKey")
            #expect(speakerNames[key] != nil, "event \(event.rowKey) names unknown speaker \(key)")
            #expect(event.string("SpeakerName") == speakerNames[key], "event \(event.rowKey)")
            guard case .dateTime(let date)? = event["EventDate"] else {
                Issue.record("event \(event.rowKey): EventDate is not an Edm.DateTime")
                continue
            }
            #expect(date >= from && date <= cutoff, "event \(event.rowKey) dated \(date)")
            let identity = [
                event.string("EventName") ?? "", event.string("EventLocation") ?? "", key, date.description,
            ].joined(separator: "|")
            #expect(identities.insert(identity).inserted, "duplicate event \(identity)")
        }

        // The stored text, as the sqlite3 shell (and the app) sees it: exactly 7 fractional digits.
        let dates = try await SQLiteShell.lines(store, "SELECT EventDate FROM events_view")
        #expect(dates.count == 100)
        for date in dates {
            #expect(isSevenDigitDate(date), "EventDate '\(date)' does not match yyyy-MM-ddTHH:mm:ss.fffffffZ")
        }
        let types = try await SQLiteShell.lines(
            store,
            "SELECT DISTINCT type FROM properties_view WHERE table_name = 'events' AND name = 'EventDate'"
        )
        #expect(types == ["Edm.DateTime"])

        // The manifest says complete and its hash is the hash of what is stored.
        let manifest = try #require(contents.manifest)
        #expect(manifest.status == .complete)
        #expect(manifest.options?.seed == 42)
        #expect(manifest.speakerEntities == 8 && manifest.eventEntities == 100)
        var hash = ContentHash()
        for entity in contents.content { hash.add(entity) }
        #expect(manifest.contentHash == hash.description)
        #expect(result.stdout.contains(hash.description), "the summary shows the content hash\n\(result)")
    }

    @Test("the same seed gives the same data in another store; another seed gives other data")
    func reproducible() async throws {
        let scratch = try Scratch()
        let arguments = ["--events", "250", "--from", "2026-01-01"]
        let first = scratch.file("first.sqlite")
        let second = scratch.file("second.sqlite")
        let other = scratch.file("other.sqlite")
        let directory = scratch.path
        async let runFirst = SeedTool.run(arguments + ["--seed", "1234", "--store", first], in: directory)
        async let runSecond = SeedTool.run(arguments + ["--seed", "1234", "--store", second], in: directory)
        async let runOther = SeedTool.run(arguments + ["--seed", "1235", "--store", other], in: directory)
        for result in try await [runFirst, runSecond, runOther] { #expect(result.status == 0, "\(result)") }

        let a = try await StoreContents.read(first)
        let b = try await StoreContents.read(second)
        let c = try await StoreContents.read(other)
        #expect(a.content.count == 258)
        #expect(a.content == b.content, "same seed, different entities")
        #expect(a.manifest?.contentHash == b.manifest?.contentHash)
        #expect(a.blobs.map(\.contentMD5) == b.blobs.map(\.contentMD5))
        #expect(
            try await SQLiteShell.eventsTableDigest(first) == SQLiteShell.eventsTableDigest(second),
            "stored JSON differs"
        )

        #expect(a.content != c.content, "another seed gave the same entities")
        #expect(a.manifest?.contentHash != c.manifest?.contentHash)
        let events = { (content: [Entity]) in Set(content.filter { $0.partitionKey == DataContract.eventsPartition }) }
        #expect(events(a.content).isDisjoint(with: events(c.content)), "another seed should give other events")
        // The sample speakers are the same people, with the same keys, whatever the seed.
        let speakerKeys = { (content: [Entity]) in
            Set(content.filter { $0.partitionKey == DataContract.speakersPartition }.map(\.rowKey))
        }
        #expect(speakerKeys(a.content).intersection(speakerKeys(c.content)).count >= 8)
    }

    @Test("--speakers 20 adds 12 generated speakers with PNG placeholder photos")
    func generatedSpeakers() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(
            ["--seed", "9", "--speakers", "20", "--events", "50", "--from", "2026-01-01", "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("events: Events 50 · speakers 20"), "\(result)")

        let contents = try await StoreContents.read(store)
        #expect(contents.speakers.count == 20)
        #expect(contents.events.count == 50)
        #expect(Set(contents.speakers.compactMap { $0.string("Name") }).count == 20, "speaker names repeat")
        #expect(contents.blobs.count == 20)
        #expect(contents.blobs.filter { $0.contentType == "image/jpeg" }.count == 8)
        let pngs = contents.blobs.filter { $0.contentType == "image/png" }
        #expect(pngs.count == 12)
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for blob in pngs {
            let bytes = try #require(
                try await StoreContents.blobData(store, name: blob.name),
                "\(blob.name) has no data"
            )
            #expect(Array(bytes.prefix(8)) == pngSignature, "\(blob.name) does not start with the PNG signature")
            #expect(bytes.count == blob.size)
            #expect(blob.name.hasSuffix(".png"), "\(blob.name)")
        }
        let blobNames = Set(contents.blobs.map(\.name))
        for speaker in contents.speakers {
            let url = try #require(speaker.string("ImageUrl"))
            #expect(BlobURL(url).map { blobNames.contains($0.blob) } == true, "ImageUrl \(url) names no stored blob")
        }
        let speakerKeys = Set(contents.speakers.map(\.rowKey))
        for event in contents.events {
            #expect(event.string("SpeakerKey").map(speakerKeys.contains) == true, "event \(event.rowKey)")
        }
    }
}

/// The command line itself: help, version, quiet.
@Suite("seed: command line")
struct SeedCommandLineTests {
    @Test("--help shows examples and every option")
    func help() async throws {
        let scratch = try Scratch()
        let result = try await SeedTool.run(["--help"], in: scratch.path, samples: nil)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Examples:"), "\(result)")
        for option in [
            "--seed", "--events", "--speakers", "--from", "--cutoff", "--resolution", "--mode", "--reset", "--dry-run",
            "--samples", "--store", "--quiet", "--version", "--help",
        ] {
            #expect(result.stdout.contains(option), "--help does not mention \(option)")
        }
        #expect(directoryListing(scratch.path).isEmpty, "--help created files")
    }

    @Test("--version prints a version")
    func version() async throws {
        let scratch = try Scratch()
        let result = try await SeedTool.run(["--version"], in: scratch.path, samples: nil)
        #expect(result.status == 0, "\(result)")
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.split(separator: ".").count >= 2 && text.first?.isNumber == true, "'\(text)' is not a version")
        #expect(directoryListing(scratch.path).isEmpty)
    }

    @Test("--quiet prints nothing on success", arguments: ["--quiet", "-q"])
    func quiet(flag: String) async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(
            ["--seed", "3", "--events", "20", flag, "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(
            try await StoreContents.read(store).counts == [
                DataContract.speakersPartition: 8, DataContract.eventsPartition: 20,
            ]
        )
    }

    @Test("without --store it writes ./speakeasy.sqlite in the working directory")
    func defaultStore() async throws {
        let scratch = try Scratch()
        let result = try await SeedTool.run(["--seed", "3", "--events", "5", "--quiet"], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        // A new store's rollback journal, if any stays beside it, is empty.
        #expect(directoryListing(scratch.path).filter { $0 != "speakeasy.sqlite-journal" } == ["speakeasy.sqlite"])
        #expect(
            fileBytes(scratch.file("speakeasy.sqlite-journal")).map(\.isEmpty) ?? true,
            "a completed run left a non-empty journal"
        )
        #expect(try await StoreContents.read(scratch.file("speakeasy.sqlite")).events.count == 5)
    }
}

/// `yyyy-MM-ddTHH:mm:ss.fffffffZ`, exactly.
func isSevenDigitDate(_ text: String) -> Bool {
    let pattern = Array("dddd-dd-ddTdd:dd:dd.dddddddZ".utf8)
    let bytes = Array(text.utf8)
    guard bytes.count == pattern.count else { return false }
    for (byte, expected) in zip(bytes, pattern) {
        if expected == UInt8(ascii: "d") {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
        } else if byte != expected {
            return false
        }
    }
    return true
}

/// Lower-case 8-4-4-4-12 hex.
func isLowerCaseGUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
        if [8, 13, 18, 23].contains(index) {
            guard byte == UInt8(ascii: "-") else { return false }
        } else {
            guard
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            else { return false }
        }
    }
    return true
}
