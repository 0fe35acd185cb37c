internal import Crypto
import SpeakEasyCore
package import SpeakEasyModel

/// Generates the SpeakEasy data set: speakers with photos, then events, from one seeded stream.
///
/// Algorithm (version 4), all draws from ``SplitMix64`` seeded with the seed:
/// 1. The sample speakers come first, in catalog order.
/// 2. Each generated speaker draws a (first name, last name) pair uniformly among the pairs not
///    yet used by any speaker (redrawing used ones), then a title.
/// 3. Each event draws, in this order: a (name, location) pair uniformly among the pairs whose
///    name and location allow at least one date of the window (``EventDateChoices``: listed name
///    by name, then location by location, in catalog order); a speaker uniformly; then a rank
///    uniformly below the number of dates that pair allows, which is the date: the allowed dates in
///    date order, the rank-th one (``AllowedSlots``). A date is allowed when it is a date of the
///    window (``DateWindow``: every step of the resolution, plus one tick in the app's format) and,
///    in the location's local time (its UTC offset in standard time; ``LocalTimeRule``), starts
///    from 08:00 and before 21:00, on the weekday the name names if it names one ("Mobile
///    Mondays": Mondays only; ``Weekday/init(namedIn:)``). A combination already drawn is drawn
///    again whole, from the pair on.
///
/// RowKeys are not drawn: they are name-based GUIDs (``EdmGuid/init(nameBased:in:)``) of who or
/// what an entity is, so `seed --mode merge` with another seed updates the same person and the same
/// event instead of adding a second one. A speaker's is that of `speaker`, a line feed and its Name;
/// an event's that of `event`, EventName, EventLocation, SpeakerKey and EventDate (seven digits),
/// each after a line feed. Uniform draws use ``SplitMix64/uniform(below:)``. A speaker's Bio is the
/// catalog's template, its article agreeing with the title (``SampleCatalog/bio(name:title:)``). Any
/// change to this is a new version.
package struct SeedGenerator: Sendable {
    /// Bumped whenever the same seed would give different data.
    package static let version = 4

    /// The namespace of every RowKey the generator makes (a random GUID, fixed once).
    package static let keyNamespace = EdmGuid(high: 0xEB3C_908C_F027_4F50, low: 0x8047_EA23_89F8_FBFE)

    /// A speaker's RowKey: the same person has the same key in every run.
    package static func speakerKey(name: String) -> EdmGuid {
        EdmGuid(nameBased: Array(("speaker\n" + name).utf8), in: keyNamespace)
    }

    package struct GeneratedSpeaker: Sendable, Equatable {
        package var speaker: Speaker
        package var photoBlobName: String
        package var photo: Photo
    }

    package let catalog: SampleCatalog
    package let options: GeneratorOptions
    package let window: DateWindow
    /// The (name, location) pairs that allow a date of the window, with the dates each allows.
    package let dateChoices: EventDateChoices
    package let speakers: [GeneratedSpeaker]
    /// The random stream as it stands after the speakers, where events begin.
    private let eventStream: SplitMix64

    /// Checks the options against the catalog and generates the speakers; nothing is written.
    package init(catalog: SampleCatalog, options: GeneratorOptions) throws(GenerationError) {
        guard options.eventCount >= 0 else {
            throw GenerationError { "\($0.events) must be 0 or more, not \(options.eventCount)" }
        }
        guard options.speakerCount >= 1 else {
            throw GenerationError { "\($0.speakers) must be at least 1, not \(options.speakerCount)" }
        }
        guard options.speakerCount <= 1 << 24 else {
            throw GenerationError { "\($0.speakers) can be at most \(1 << 24)" }
        }
        guard options.from <= options.cutoff else {
            throw GenerationError { "\($0.cutoff) \(options.cutoff) is before \($0.from) \(options.from)" }
        }
        guard options.from >= EdmDateTime.azureMinimum else {
            throw GenerationError {
                "\($0.from) \(options.from) is before 1601-01-01, the earliest date Azure Table Storage accepts"
            }
        }
        guard
            let window = DateWindow(
                from: options.from,
                cutoff: options.cutoff,
                resolution: options.resolution,
                format: options.dateFormat
            )
        else {
            let kind = options.dateFormat == .app ? " that Azure serves with seven digits (ending in 1)" : ""
            throw GenerationError { _ in
                "no date at \(options.resolution.rawValue) resolution\(kind) lies between \(options.from) and \(options.cutoff)"
            }
        }
        let dateChoices = EventDateChoices(catalog: catalog, window: window)
        guard dateChoices.total > 0 else {
            throw GenerationError { names in
                let day =
                    options.resolution == .day
                    ? "; at day resolution every date is 00:00 UTC, a plausible local time only west of UTC-03:00 or from UTC+08:00 east: try \(names.resolution) hour"
                    : ""
                return
                    "no date at \(options.resolution.rawValue) resolution between \(options.from) and \(options.cutoff) is a plausible start at any location: events start at \(LocalTimeRule.hoursText), on the weekday their name names if it names one\(day)"
            }
        }
        let samples = min(options.speakerCount, catalog.speakers.count)
        let sampleNames = Set(catalog.speakers.map(\.name))
        let needed = options.speakerCount - samples
        let freshPairs = needed == 0 ? 0 : Self.namePairs(catalog).subtracting(sampleNames).count
        guard needed <= freshPairs else {
            throw GenerationError {
                "\($0.speakers) \(options.speakerCount) needs \(needed) generated names, but the name pools give only \(freshPairs)"
            }
        }
        let combinations = dateChoices.total * UInt128(options.speakerCount)
        guard UInt128(options.eventCount) <= combinations else {
            throw GenerationError {
                "\($0.events) \(options.eventCount) is more than the \(combinations) distinct events possible (\(options.speakerCount) speakers × \(dateChoices.total) (name, location, date) choices: \(catalog.eventNames.count) names × \(catalog.locations.count) locations at dates every \(options.resolution.rawValue) that start at \(LocalTimeRule.hoursText), on the weekday the name names if it names one)"
            }
        }

        let memory = Self.memoryNeeded(events: options.eventCount)
        if let available = PhysicalMemory.bytes, memory > available {
            throw GenerationError {
                "\($0.events) \(options.eventCount) needs about \(ByteCount(memory)) of memory to keep the events unique and in key order; this machine has \(ByteCount(available))"
            }
        }

        var random = SplitMix64(seed: options.seed)
        var speakers: [GeneratedSpeaker] = []
        speakers.reserveCapacity(options.speakerCount)
        for sample in catalog.speakers.prefix(samples) {
            let speaker = Speaker(
                key: Self.speakerKey(name: sample.name).description,
                name: sample.name,
                title: sample.title,
                bio: catalog.bio(name: sample.name, title: sample.title),
                imageUrl: options.photoBaseURL + BlobURL.escape(sample.photoBlobName)
            )
            speakers.append(
                GeneratedSpeaker(speaker: speaker, photoBlobName: sample.photoBlobName, photo: sample.photo)
            )
        }
        var usedNames = sampleNames
        while speakers.count < options.speakerCount {
            let first = catalog.firstNames[random.index(below: catalog.firstNames.count)]
            let last = catalog.lastNames[random.index(below: catalog.lastNames.count)]
            let name = first + " " + last
            guard usedNames.insert(name).inserted else { continue }
            let title = catalog.titles[random.index(below: catalog.titles.count)]
            let blobName = Self.blobName(first: first, last: last)
            let speaker = Speaker(
                key: Self.speakerKey(name: name).description,
                name: name,
                title: title,
                bio: catalog.bio(name: name, title: title),
                imageUrl: options.photoBaseURL + BlobURL.escape(blobName)
            )
            speakers.append(
                GeneratedSpeaker(
                    speaker: speaker,
                    photoBlobName: blobName,
                    photo: Photo(bytes: PlaceholderPhoto.png(forName: name), format: .png)
                )
            )
        }
        self.catalog = catalog
        self.options = options
        self.window = window
        self.dateChoices = dateChoices
        self.speakers = speakers
        self.eventStream = random
    }

    /// Bytes a run holds per event at its peak: its draw (32), the duplicate set's slot (16 with its
    /// spare room) and the sort's scratch space (16).
    static let bytesPerEvent = 64

    /// The memory the events of a run need, beyond the catalog and the speakers.
    package static func memoryNeeded(events: Int) -> Int {
        events.multipliedReportingOverflow(by: bytesPerEvent).overflow ? .max : events * bytesPerEvent
    }

    /// How many distinct events the options allow: the (name, location, date) choices × speakers.
    package var combinationCount: UInt128 { dateChoices.total * UInt128(speakers.count) }

    /// The events, generated one at a time in draw order.
    package func events() -> EventIterator {
        EventIterator(draws: EventDraws(generator: self, random: eventStream), generator: self)
    }

    /// Every event's draw, sorted by RowKey: writing in key order appends to the store's key index
    /// instead of scattering inserts over it. 32 bytes an event (32 MB for a million).
    package func eventDrawsInKeyOrder() -> [EventDraw] {
        var all = allEventDraws()  // the duplicate-detection set is gone by the time this sorts
        all.sort { $0.key < $1.key }
        return all
    }

    private func allEventDraws() -> [EventDraw] {
        var draws = EventDraws(generator: self, random: eventStream)
        var all: [EventDraw] = []
        all.reserveCapacity(options.eventCount)
        while let draw = draws.next() { all.append(draw) }
        return all
    }

    /// The event a draw stands for.
    package func event(for draw: EventDraw) -> Event {
        let speaker = speakers[Int(draw.speaker)].speaker
        return Event(
            key: draw.key.description,
            date: window.date(at: draw.slot),
            name: catalog.eventNames[Int(draw.name)],
            location: catalog.locations[Int(draw.location)].name,
            description: catalog.eventDescription,
            speakerKey: speaker.key,
            speakerName: speaker.name
        )
    }

    /// Every (first, last) name a generated speaker can take.
    static func namePairs(_ catalog: SampleCatalog) -> Set<String> {
        var pairs = Set<String>()
        for first in catalog.firstNames { for last in catalog.lastNames { pairs.insert(first + " " + last) } }
        return pairs
    }

    /// `AdaLovelace.png`: letters and digits of both names, unique because names are.
    static func blobName(first: String, last: String) -> String {
        String((first + last).filter { $0.isLetter || $0.isNumber }) + ".png"
    }

    /// One event as drawn: indexes into the catalog and the speakers, a date slot and the RowKey.
    package struct EventDraw: Sendable, Equatable {
        package var key: EdmGuid
        package var slot: UInt64
        package var speaker: UInt32
        package var name: UInt16
        package var location: UInt16
    }

    /// The events in draw order, materialised.
    package struct EventIterator: IteratorProtocol, Sendable {
        private var draws: EventDraws
        private let generator: SeedGenerator

        init(draws: EventDraws, generator: SeedGenerator) {
            self.draws = draws
            self.generator = generator
        }

        package mutating func next() -> Event? { draws.next().map(generator.event(for:)) }
    }

    /// Draws the events; each is unique by (name, location, speaker, date).
    struct EventDraws: IteratorProtocol, Sendable {
        private let pairs: [EventDateChoices.Pair]
        private let locationCount: Int
        /// Names × locations: the radix of a pair in a combination's index.
        private let pairRadix: UInt128
        private let speakerCount: Int
        private var random: SplitMix64
        private var remaining: Int
        /// Combinations drawn so far, as 64-bit keys: the combination index itself when every
        /// (slot, speaker, name, location) index is below 2^64 (exact), else a 64-bit mix of it. A mix
        /// collision only makes a draw be redrawn; a real duplicate always collides, so events stay
        /// unique either way.
        private var drawn: Set<UInt64>
        private let exactKeys: Bool
        private let keys: EventKeys

        init(generator: SeedGenerator, random: SplitMix64) {
            pairs = generator.dateChoices.pairs
            locationCount = generator.catalog.locations.count
            pairRadix = UInt128(generator.catalog.eventNames.count) * UInt128(locationCount)
            speakerCount = generator.speakers.count
            self.random = random
            remaining = generator.options.eventCount
            drawn = Set(minimumCapacity: generator.options.eventCount)
            exactKeys = pairRadix * UInt128(speakerCount) * UInt128(generator.window.slotCount) <= UInt128(UInt64.max)
            keys = EventKeys(generator)
        }

        mutating func next() -> EventDraw? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            while true {
                let pair = pairs[random.index(below: pairs.count)]
                let name = Int(pair.name)
                let location = Int(pair.location)
                let speaker = random.index(below: speakerCount)
                let slot = pair.slots.slot(at: random.uniform(below: pair.slots.count))
                let combination =
                    (UInt128(slot) * UInt128(speakerCount) + UInt128(speaker)) * pairRadix
                    + UInt128(name * locationCount + location)
                guard drawn.insert(exactKeys ? UInt64(combination) : Self.mix(combination)).inserted else { continue }
                return EventDraw(
                    key: keys.key(name: name, location: location, speaker: speaker, slot: slot),
                    slot: slot,
                    speaker: UInt32(speaker),
                    name: UInt16(name),
                    location: UInt16(location)
                )
            }
        }

        /// Folds 128 bits into 64 (SplitMix64's finaliser over both halves).
        static func mix(_ value: UInt128) -> UInt64 {
            ByteHash.mix(UInt64(truncatingIfNeeded: value >> 64) &* ByteHash.golden ^ UInt64(truncatingIfNeeded: value))
        }
    }

    /// An event's RowKey: the name-based GUID of its identity (see the algorithm above). The hash of
    /// `event`, name and location is taken once per pair, so each event hashes only its speaker key
    /// and date (one SHA-1 block), in a stack buffer.
    ///
    /// `@unchecked`: swift-crypto does not mark its hashers Sendable, but they are values (copy on
    /// write), and these are only ever copied, never changed, after `init`.
    struct EventKeys: @unchecked Sendable {
        private let beginnings: [Insecure.SHA1]
        private let locationCount: Int
        private let speakerKeys: [[UInt8]]
        private let window: DateWindow

        init(_ generator: SeedGenerator) {
            let newline = UInt8(ascii: "\n")
            var beginnings: [Insecure.SHA1] = []
            for name in generator.catalog.eventNames {
                var named = EdmGuid.nameHasher(in: SeedGenerator.keyNamespace)
                named.update(data: Array("event".utf8) + [newline] + Array(name.utf8) + [newline])
                for location in generator.catalog.locations {
                    var located = named
                    located.update(data: Array(location.name.utf8) + [newline])
                    beginnings.append(located)
                }
            }
            self.beginnings = beginnings
            locationCount = generator.catalog.locations.count
            speakerKeys = generator.speakers.map { Array($0.speaker.key.utf8) + [newline] }
            window = generator.window
        }

        func key(name: Int, location: Int, speaker: Int, slot: UInt64) -> EdmGuid {
            var hasher = beginnings[name * locationCount + location]
            speakerKeys[speaker].withUnsafeBytes { hasher.update(bufferPointer: $0) }
            window.date(at: slot).withLexicalForm { hasher.update(bufferPointer: $0) }
            return EdmGuid(finishing: hasher)
        }
    }
}
