internal import Crypto
internal import FoundationEssentials
package import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel

/// The sample data the generator draws from, read from a `samples/` directory.
///
/// `catalog.json` lists the sample speakers (with their photo files), event names, locations (with
/// their UTC offsets, ``SampleLocation``), the event description, the bio template, and the name and title pools for generated speakers.
package struct SampleCatalog: Sendable {
    package struct SampleSpeaker: Sendable, Equatable {
        package var name: String
        package var title: String
        /// The photo's blob name, from its file name (`BTubalinal.jpg`).
        package var photoBlobName: String
        package var photo: Photo
    }

    package var speakers: [SampleSpeaker]
    package var eventNames: [String]
    package var locations: [SampleLocation]
    package var eventDescription: String
    /// `{name}`, `{title}` and `{description}` are replaced: "{name} is a {title} in the {description}"
    /// (with "an" before a title that starts with a vowel).
    package var bioTemplate: String
    package var firstNames: [String]
    package var lastNames: [String]
    package var titles: [String]
    /// SHA-256 of the catalog file and every photo: identifies "the same samples".
    package var fingerprint: String

    /// The file inside a samples directory that lists everything but the photos.
    package static let catalogFileName = "catalog.json"
    /// Upper bounds that keep every event combination index inside 128 bits.
    package static let maximumListSize = 65_535

    private struct File: Decodable {
        struct Speaker: Decodable {
            var name: String
            var title: String
            var photo: String
        }
        var speakers: [Speaker]
        var eventNames: [String]
        var locations: [SampleLocation]
        var eventDescription: String
        var bioTemplate: String
        var firstNames: [String]
        var lastNames: [String]
        var titles: [String]
    }

    /// Loads and checks `catalog.json` and every photo it names.
    package init(directory: String) throws(SampleCatalogError) {
        try self.init(directory: directory) { path, maximumSize throws(FileError) in
            try FileSystem.readFile(path, maximumSize: maximumSize)
        }
    }

    /// The same with each file's bytes from `read` (its path under `directory`, and the largest size
    /// allowed), as for the samples built into the tools.
    package init(directory: String, read: (String, Int) throws(FileError) -> [UInt8]) throws(SampleCatalogError) {
        let path = directory + "/" + Self.catalogFileName
        let bytes: [UInt8]
        do { bytes = try read(path, 64 << 20) } catch {
            throw SampleCatalogError(path: path, reason: error.reason, kind: error.kind)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch let error as DecodingError {
            // Foundation does not say where the JSON goes wrong; our scanner does.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let syntax = JSONSyntaxCheck.firstError(in: bytes)
            {
                throw SampleCatalogError(
                    path: path,
                    reason: "not valid JSON: \(syntax.reason)",
                    kind: .malformedInput,
                    line: syntax.line,
                    column: syntax.column
                )
            }
            throw SampleCatalogError(path: path, reason: Self.describe(error), kind: .malformedInput)
        } catch {
            throw SampleCatalogError(path: path, reason: "\(error)", kind: .malformedInput)
        }
        func check(_ list: [String], _ field: String) throws(SampleCatalogError) {
            guard !list.isEmpty else {
                throw SampleCatalogError(path: path, reason: "\(field) is empty", kind: .malformedInput)
            }
            guard list.count <= Self.maximumListSize else {
                throw SampleCatalogError(
                    path: path,
                    reason: "\(field) has more than \(Self.maximumListSize) items",
                    kind: .malformedInput
                )
            }
            if let blank = list.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
                throw SampleCatalogError(path: path, reason: "\(field)[\(blank)] is blank", kind: .malformedInput)
            }
            var seen = Set<String>()
            for (index, item) in list.enumerated() where !seen.insert(item).inserted {
                throw SampleCatalogError(
                    path: path,
                    reason: "\(field)[\(index)] repeats '\(item)'",
                    kind: .malformedInput
                )
            }
        }
        try check(file.speakers.map(\.name), "speakers (names)")
        try check(file.eventNames, "eventNames")
        try check(file.locations.map(\.name), "locations")
        if let index = file.locations.firstIndex(where: { !SampleLocation.offsetRange.contains($0.utcOffsetMinutes) }) {
            throw SampleCatalogError(
                path: path,
                reason:
                    "locations[\(index)].utcOffsetMinutes \(file.locations[index].utcOffsetMinutes) is not between \(SampleLocation.offsetRange.lowerBound) and \(SampleLocation.offsetRange.upperBound)",
                kind: .malformedInput
            )
        }
        try check(file.firstNames, "firstNames")
        try check(file.lastNames, "lastNames")
        try check(file.titles, "titles")
        if let blank = file.speakers.firstIndex(where: { $0.title.allSatisfy(\.isWhitespace) }) {
            throw SampleCatalogError(path: path, reason: "speakers[\(blank)].title is blank", kind: .malformedInput)
        }

        var speakers: [SampleSpeaker] = []
        for (index, speaker) in file.speakers.enumerated() {
            let photoPath = directory + "/" + speaker.photo
            let photoBytes: [UInt8]
            do { photoBytes = try read(photoPath, 4 << 20) } catch {
                throw SampleCatalogError(
                    path: photoPath,
                    reason: "photo of speakers[\(index)] (\(speaker.name)): \(error.reason)",
                    kind: error.kind
                )
            }
            guard let format = ImageFormat(sniffing: photoBytes) else {
                throw SampleCatalogError(
                    path: photoPath,
                    reason: "photo of \(speaker.name) is not a JPEG or PNG image",
                    kind: .malformedInput
                )
            }
            let blobName = String(speaker.photo.split(separator: "/").last ?? "")
            speakers.append(
                SampleSpeaker(
                    name: speaker.name,
                    title: speaker.title,
                    photoBlobName: blobName,
                    photo: Photo(bytes: photoBytes, format: format)
                )
            )
        }
        var blobNames = Set<String>()
        for speaker in speakers where !blobNames.insert(speaker.photoBlobName).inserted {
            throw SampleCatalogError(
                path: path,
                reason: "two speakers share the photo '\(speaker.photoBlobName)'",
                kind: .malformedInput
            )
        }
        self.speakers = speakers
        self.eventNames = file.eventNames
        self.locations = file.locations
        self.eventDescription = file.eventDescription
        self.bioTemplate = file.bioTemplate
        self.firstNames = file.firstNames
        self.lastNames = file.lastNames
        self.titles = file.titles
        var hasher = SHA256()
        hasher.update(data: bytes)
        for speaker in speakers { hasher.update(data: speaker.photo.bytes) }
        self.fingerprint = "sha256:" + hasher.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The bio of a speaker, from the template. The template's article before the title agrees with
    /// it: " a {title}" reads " an {title}" before a title that starts with a vowel ("an Engineering
    /// Manager").
    package func bio(name: String, title: String) -> String {
        let startsWithVowel = title.first.map { "AEIOUaeiou".contains($0) } ?? false
        let template = startsWithVowel ? bioTemplate.replacing(" a {title}", with: " an {title}") : bioTemplate
        return template.replacing("{name}", with: name)
            .replacing("{title}", with: title)
            .replacing("{description}", with: eventDescription)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }
                .description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(path(context).isEmpty ? key.stringValue : path(context) + "." + key.stringValue)'"
        case .typeMismatch(let type, let context):
            return "'\(path(context))' should be \(type == String.self ? "a string" : "\(type)")"
        case .valueNotFound(_, let context): return "'\(path(context))' is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))"
                : "'\(path(context))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A photo's bytes and format.
package struct Photo: Sendable, Equatable {
    package var bytes: [UInt8]
    package var format: ImageFormat
}

/// A samples directory that is missing or malformed.
package struct SampleCatalogError: ClassifiedError, Equatable {
    package let path: String
    package let reason: String
    package let kind: FailureKind
    /// Where in the file, for JSON that is not JSON.
    package var line: Int?
    package var column: Int?

    package init(path: String, reason: String, kind: FailureKind, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.reason = reason
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// `path: reason`, or `path:line:column: reason`, as a data file's errors are written.
    package var description: String {
        let place = [line, column].compactMap { $0 }.map { ":\($0)" }.joined()
        return "\(path)\(place): \(reason)"
    }
}
