import Foundation
import SpeakEasyData
import Testing

@Suite("SampleCatalog")
struct SampleCatalogTests {
    @Test("the shipped samples load: 8 speakers, 6 event names, 8 locations")
    func shippedSamples() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        #expect(
            catalog.speakers.map(\.name) == [
                "Bart Tubalinal", "Bert Johnson", "Travis Nielsen", "Matt Morse", "Mo Omar", "Darya Orlova",
                "Callie Jones", "Ela Gardner",
            ]
        )
        #expect(
            catalog.speakers.map(\.title) == [
                "Solutions Architect", "Solutions Architect", "Principal Consultant", "Principal Consultant",
                "Practice Manager",
                "Consultant", "Consultant", "Consultant",
            ]
        )
        #expect(
            catalog.speakers.map(\.photoBlobName) == [
                "BTubalinal.jpg", "BJohnson.jpg", "TNielsen.jpg", "MMorse.jpg", "MOmar.jpg", "DOrlova.jpg",
                "CJones.jpg", "EGardner.jpg",
            ]
        )
        #expect(catalog.speakers.allSatisfy { $0.photo.format == .jpeg && !$0.photo.bytes.isEmpty })
        #expect(
            catalog.eventNames == [
                "Mobile Mondays", "iOS Meetup", "Windows Phone Meetup", "Android Meetup", "HTML5 Meetup",
                "SharePoint Saturdays",
            ]
        )
        #expect(
            catalog.locations.map(\.name) == [
                "Chicago, IL", "Milwaukee, WI", "Madison, WI", "Boston, MA", "Washington, DC", "Los Angeles, CA",
                "Las Vegas, NV", "New York City, NY",
            ]
        )
        // Standard time (UTC-6, -5, -8): daylight saving time is ignored.
        #expect(catalog.locations.map(\.utcOffsetMinutes) == [-360, -360, -360, -300, -300, -480, -480, -300])
        #expect(catalog.eventDescription.hasPrefix("Lorem ipsum"))
        #expect(!catalog.firstNames.isEmpty && !catalog.lastNames.isEmpty && !catalog.titles.isEmpty)
    }

    @Test("a bio follows '<Name> is a <Title> in the <description>'")
    func bio() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        #expect(
            catalog.bio(name: "Mo Omar", title: "Practice Manager") == "Mo Omar is a Practice Manager in the "
                + catalog.eventDescription
        )
    }

    @Test("a bio's article agrees with the title: 'an Engineering Manager', not 'a Engineering Manager'")
    func bioArticle() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        #expect(
            catalog.bio(name: "Hiro Baker", title: "Engineering Manager")
                == "Hiro Baker is an Engineering Manager in the "
                + catalog.eventDescription
        )
        #expect(catalog.bio(name: "Ann Lee", title: "Consultant").hasPrefix("Ann Lee is a Consultant in the "))
    }

    @Test("catalog.json that is not JSON is reported with the line and column of the fault")
    func malformedJSONPosition() throws {
        try withBrokenSamples { directory in
            try writeFile(directory + "/catalog.json", "{\n  \"speakers\": [\n    }\n")
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.line == 3 && error?.column == 5, "\(String(describing: error))")
            #expect(
                error?.description == directory
                    + "/catalog.json:3:5: not valid JSON: unexpected character, expected a value"
            )
        }
    }

    @Test("the fingerprint is a stable SHA-256 that changes with any photo")
    func fingerprint() throws {
        let first = try SampleCatalog(directory: TestPaths.samples)
        let second = try SampleCatalog(directory: TestPaths.samples)
        #expect(first.fingerprint == second.fingerprint)
        #expect(first.fingerprint.hasPrefix("sha256:"))
        #expect(first.fingerprint.count == 7 + 64)
        #expect(first.fingerprint.dropFirst(7).allSatisfy { "0123456789abcdef".contains($0) })
        try withBrokenSamples { directory in
            let path = directory + "/photos/MOmar.jpg"
            var bytes = try readFile(path)
            bytes.insert(0x00, at: 10)
            try writeFile(path, bytes)
            #expect(try SampleCatalog(directory: directory).fingerprint != first.fingerprint)
        }
    }

    // MARK: Errors

    @Test("a missing directory is reported as missing input")
    func missingDirectory() throws {
        try withTemporaryDirectorySync { directory in
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory + "/nope") }
            #expect(error?.kind == .inputMissing)
            #expect(error?.path == directory + "/nope/catalog.json")
        }
    }

    @Test("malformed JSON is reported as malformed input")
    func malformedJSON() throws {
        try withBrokenSamples { directory in
            try writeFile(directory + "/catalog.json", "{ \"speakers\": [ ")
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.path.hasSuffix("/catalog.json") == true)
            #expect(error?.reason.contains("not valid JSON") == true, "\(String(describing: error))")
        }
    }

    @Test("a missing field is named", arguments: ["locations", "eventNames", "bioTemplate", "titles"])
    func missingField(field: String) throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { $0.removeValue(forKey: field) }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.reason.contains("missing field '\(field)'") == true, "\(String(describing: error))")
        }
    }

    @Test("a missing field inside a speaker is named with its path")
    func missingSpeakerField() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { catalog in
                var speakers = catalog["speakers"] as! [[String: Any]]
                speakers[2].removeValue(forKey: "title")
                catalog["speakers"] = speakers
            }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.reason.contains("speakers[2]") == true, "\(String(describing: error))")
            #expect(error?.reason.contains("title") == true, "\(String(describing: error))")
        }
    }

    @Test("a field of the wrong type is named")
    func wrongType() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { $0["eventNames"] = "Mobile Mondays" }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.reason.contains("eventNames") == true, "\(String(describing: error))")
        }
    }

    @Test(
        "an empty list is named",
        arguments: ["eventNames", "locations", "speakers", "firstNames", "lastNames", "titles"]
    )
    func emptyList(field: String) throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { $0[field] = [Any]() }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.reason.contains(field) == true, "\(String(describing: error))")
            #expect(error?.reason.contains("empty") == true, "\(String(describing: error))")
        }
    }

    @Test("a duplicate item is named with its index")
    func duplicateItem() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) {
                $0["locations"] = ($0["locations"] as! [Any]) + [["name": "Chicago, IL", "utcOffsetMinutes": -360]]
            }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.reason == "locations[8] repeats 'Chicago, IL'", "\(String(describing: error))")
        }
    }

    @Test("a location given as a plain string, as catalogs wrote before offsets, is a place on UTC")
    func plainStringLocation() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) {
                $0["locations"] = ["Reykjavík", ["name": "Mumbai", "utcOffsetMinutes": 330]]
            }
            let catalog = try SampleCatalog(directory: directory)
            #expect(
                catalog.locations == [
                    SampleLocation(name: "Reykjavík", utcOffsetMinutes: 0),
                    SampleLocation(name: "Mumbai", utcOffsetMinutes: 330),
                ]
            )
        }
    }

    @Test("a UTC offset beyond UTC-12:00 … UTC+14:00 is named with its index", arguments: [-721, 841])
    func offsetOutOfRange(minutes: Int) throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) {
                $0["locations"] = [
                    ["name": "Chicago, IL", "utcOffsetMinutes": -360],
                    ["name": "Nowhere", "utcOffsetMinutes": minutes],
                ]
            }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(
                error?.reason.contains("locations[1].utcOffsetMinutes \(minutes)") == true,
                "\(String(describing: error))"
            )
        }
    }

    @Test("a duplicate speaker name is rejected")
    func duplicateSpeaker() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { catalog in
                var speakers = catalog["speakers"] as! [[String: Any]]
                speakers[1]["name"] = "Bart Tubalinal"
                catalog["speakers"] = speakers
            }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.reason.contains("repeats 'Bart Tubalinal'") == true, "\(String(describing: error))")
        }
    }

    @Test("a blank item is rejected")
    func blankItem() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { $0["eventNames"] = ["Mobile Mondays", "  "] }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.reason.contains("eventNames[1] is blank") == true, "\(String(describing: error))")
        }
    }

    @Test("two speakers sharing a photo are rejected")
    func sharedPhoto() throws {
        try withBrokenSamples { directory in
            try editCatalog(directory) { catalog in
                var speakers = catalog["speakers"] as! [[String: Any]]
                speakers[7]["photo"] = "photos/BTubalinal.jpg"
                catalog["speakers"] = speakers
            }
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.reason.contains("BTubalinal.jpg") == true, "\(String(describing: error))")
        }
    }

    @Test("a photo that is not an image is named with its speaker")
    func photoNotAnImage() throws {
        try withBrokenSamples { directory in
            try writeFile(directory + "/photos/MOmar.jpg", "this is not a JPEG")
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .malformedInput)
            #expect(error?.path == directory + "/photos/MOmar.jpg")
            #expect(error?.reason.contains("Mo Omar") == true, "\(String(describing: error))")
            #expect(error?.reason.contains("not a JPEG or PNG") == true, "\(String(describing: error))")
        }
    }

    @Test("a missing photo is named with its speaker")
    func missingPhoto() throws {
        try withBrokenSamples { directory in
            try FileManager.default.removeItem(atPath: directory + "/photos/CJones.jpg")
            let error = #expect(throws: SampleCatalogError.self) { try SampleCatalog(directory: directory) }
            #expect(error?.kind == .inputMissing)
            #expect(error?.path == directory + "/photos/CJones.jpg")
            #expect(error?.reason.contains("Callie Jones") == true, "\(String(describing: error))")
        }
    }

    @Test("a PNG photo is accepted as PNG")
    func pngPhoto() throws {
        try withBrokenSamples { directory in
            try writeFile(directory + "/photos/MOmar.jpg", PlaceholderPhoto.png(forName: "Mo Omar"))
            let catalog = try SampleCatalog(directory: directory)
            #expect(catalog.speakers[4].photo.format == .png)
        }
    }

    // MARK: Helpers

    /// Copies the shipped samples into a temporary directory to be broken by `body`.
    func withBrokenSamples(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectorySync { directory in
            let copy = directory + "/samples"
            try FileManager.default.copyItem(atPath: TestPaths.samples, toPath: copy)
            try body(copy)
        }
    }

    func editCatalog(_ directory: String, _ edit: (inout [String: Any]) -> Void) throws {
        let path = directory + "/catalog.json"
        var catalog = try JSONSerialization.jsonObject(with: Data(readFile(path))) as! [String: Any]
        edit(&catalog)
        try JSONSerialization.data(withJSONObject: catalog).write(to: URL(fileURLWithPath: path))
    }
}
