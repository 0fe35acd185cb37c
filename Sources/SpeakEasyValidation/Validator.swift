package import SpeakEasyModel

/// The one pass over a stream of entities: checks each entity as it comes and remembers only the
/// speaker index and the compact duplicate-detection sets.
///
/// Events whose speaker has not been seen yet wait as 8 bytes each (their record number and the
/// interned SpeakerName) and are resolved by ``finishReferences()`` once the input has ended, so
/// speakers may come before, between or after the events that reference them.
package struct Validator: Sendable {
    /// Where entities come from: a file as named on the command line, or a store's table.
    package enum Source: Sendable, Hashable {
        case file(String)
        case table(String)
    }

    package internal(set) var log: FindingLog
    package private(set) var entitiesChecked = 0
    let options: ValidationOptions
    private(set) var sources: [Source] = []
    private var source: UInt16 = 0
    /// The current source's number.
    var sourceNumber: UInt16 { source }
    /// Nearest speaker names already computed, by the name asked about.
    var nearestNames: [String: String?] = [:]

    var speakers = SpeakerIndex()
    /// Every SpeakerKey and speaker RowKey, numbered: speakers and references meet by number.
    var speakerKeys = StringNumbering()
    private var eventNames = StringNumbering()
    private var eventLocations = StringNumbering()
    var speakerNames = StringNumbering()
    /// RowKeys of events that are not lower-case GUIDs.
    var otherRowKeys = StringNumbering()
    var events: EventIndex
    /// Entities of partitions the contract does not know, by "PartitionKey NUL RowKey".
    private var otherKeys: [String: (source: UInt16, line: UInt32)] = [:]
    /// The first speaker of each Name, to find two people the events could not tell apart.
    private var speakersByName: [String: SpeakerIndex.Entry] = [:]
    /// Events whose speaker was not known when they were read.
    var pending: [(event: UInt32, speakerName: UInt32)] = []
    /// Name mismatches found before the end, whose nearest speaker name is told once every speaker
    /// is known: the finding, the event's SpeakerName, and the speaker's Name.
    var unhinted: [(finding: Int, speakerName: UInt32, name: String)] = []

    /// Dates written without the `Z` (the records keep ticks, not how a date was written).
    var unzonedDates = 0

    static let noName = UInt32.max

    /// `expectedEvents` sizes the duplicate sets up front (an estimate: they grow if needed).
    package init(options: ValidationOptions, expectedEvents: Int = 0) {
        self.options = options
        log = FindingLog(options: options)
        events = EventIndex(expected: expectedEvents)
    }

    /// True once `--max-errors` is reached: the caller stops reading.
    package var isFull: Bool { log.isFull }

    /// The findings so far.
    package var findings: [Finding] { log.findings }

    /// Starts reading a new source; the entities checked next come from it.
    package mutating func begin(_ newSource: Source) {
        if let index = sources.firstIndex(of: newSource) {
            source = UInt16(index)
        } else {
            sources.append(newSource)
            source = UInt16(sources.count - 1)
        }
    }

    /// Makes an earlier source current again.
    mutating func restoreSource(_ number: UInt16) { source = number }

    func location(source: UInt16, line: UInt32, partitionKey: String?, rowKey: String?) -> FindingLocation {
        switch sources[Int(source)] {
        case .file(let path):
            FindingLocation(.file(path: path, line: Int(line)), partitionKey: partitionKey, rowKey: rowKey)
        case .table(let table): FindingLocation(.table(table), partitionKey: partitionKey, rowKey: rowKey)
        }
    }

    func rowKey(of key: CompactKey) -> String {
        key.isGUID ? EdmGuid(high: key.high, low: key.low).description : otherRowKeys[UInt32(key.low)]
    }

    func location(of record: EventRecord) -> FindingLocation {
        location(
            source: record.source,
            line: record.line,
            partitionKey: DataContract.eventsPartition,
            rowKey: rowKey(of: record.key)
        )
    }

    /// Where the event with `key` at `line` of the current source is.
    func eventLocation(_ key: CompactKey, line: UInt32) -> FindingLocation {
        location(source: source, line: line, partitionKey: DataContract.eventsPartition, rowKey: rowKey(of: key))
    }

    func location(of speaker: SpeakerIndex.Entry) -> FindingLocation {
        location(
            source: speaker.source,
            line: speaker.line,
            partitionKey: DataContract.speakersPartition,
            rowKey: speaker.rowKey
        )
    }

    /// Checks one entity; `line` is where it starts in the current file (0 for a store).
    package mutating func check(_ entity: Entity, line: Int) {
        entitiesChecked += 1
        let line = UInt32(clamping: line)
        checkSize(entity, line: line)
        switch entity.partitionKey {
        case DataContract.eventsPartition:
            // A lower-case GUID RowKey and a known PartitionKey cannot break the key rules.
            let guid = CompactKey.guid(entity.rowKey)
            if guid == nil { checkKeys(entity, line: line) }
            checkEvent(entity, guid: guid, line: line)
        case DataContract.speakersPartition:
            checkKeys(entity, line: line)
            checkSpeaker(entity, line: line)
        default:
            checkKeys(entity, line: line)
            checkOtherPartition(entity, line: line)
        }
    }

    // MARK: Events

    private mutating func checkEvent(_ entity: Entity, guid: CompactKey?, line: UInt32) {
        var date: EdmDateTime?
        var dateValue: EdmValue?
        var name: String?
        var location: String?
        var description: String?
        var speakerKey: String?
        var speakerName: String?
        var wrongTypes: [Property] = []
        var unknown: [Property] = []
        for property in entity.properties {
            let text: String?
            if case .string(let value) = property.value { text = value } else { text = nil }
            switch property.name {
            case "EventDate":
                if case .dateTime(let value) = property.value { date = value } else { dateValue = property.value }
                continue
            case "EventName": name = text
            case "EventLocation": location = text
            case "EventDescription": description = text
            case "SpeakerKey": speakerKey = text
            case "SpeakerName": speakerName = text
            default:
                unknown.append(property)
                continue
            }
            if text == nil { wrongTypes.append(property) }
        }
        var here: FindingLocation {
            self.location(source: source, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        }
        if !unknown.isEmpty { checkUnknown(unknown, of: "event", in: entity, line: line) }

        // A blank string is as good as none, whatever the format could say (plain CSV cannot tell
        // an empty cell from an absent property): reported once, then treated as absent.
        var blank: [String] = []
        func keep(_ value: String?, _ property: String) -> String? {
            guard let value, Self.isBlank(value) else { return value }
            blank.append(property)
            return nil
        }
        name = keep(name, "EventName")
        location = keep(location, "EventLocation")
        description = keep(description, "EventDescription")
        speakerKey = keep(speakerKey, "SpeakerKey")
        speakerName = keep(speakerName, "SpeakerName")
        if !blank.isEmpty {
            log.add(
                .contractRequired,
                "\(Self.list(blank)) \(blank.count == 1 ? "is" : "are") empty or only white space",
                at: here
            )
        }

        if name == nil || location == nil || description == nil || speakerKey == nil || speakerName == nil {
            let present = Set(entity.properties.map(\.name))
            let missing = ["EventName", "EventLocation", "EventDescription", "SpeakerKey", "SpeakerName"].filter {
                !present.contains($0) && !blank.contains($0)
            }
            if !missing.isEmpty { log.add(.contractRequired, "event has no \(Self.list(missing))", at: here) }
            for property in wrongTypes {
                log.add(
                    .contractType,
                    "\(property.name) is \(property.value.type.rawValue), expected Edm.String",
                    at: here
                )
            }
        }
        if date == nil {
            log.add(
                .datesMissing,
                dateValue.map { "EventDate \(Self.describe($0)), not Edm.DateTime: the app cannot read it as a date" }
                    ?? "event has no EventDate",
                at: here
            )
        }
        let key = guid ?? CompactKey(high: 0, low: UInt64(otherRowKeys.number(entity.rowKey)), isGUID: false)
        checkEventFields(
            key: key,
            date: date,
            name: name,
            location: location,
            speakerKey: speakerKey,
            speakerName: speakerName,
            line: line
        )
    }

    /// Checks an event that a reader found in the contract's plain shape: all that can be wrong with
    /// it is its date, and how it relates to other entities.
    package mutating func check(_ event: PlainEvent, line: Int) {
        entitiesChecked += 1
        checkEventFields(
            key: CompactKey(guid: event.key),
            date: event.date,
            name: event.name,
            location: event.location,
            speakerKey: event.speakerKey,
            speakerName: event.speakerName,
            line: UInt32(clamping: line)
        )
    }

    /// What every event goes through, however it was read: its date, its record (which duplicate
    /// detection compares), and its speaker reference.
    private mutating func checkEventFields(
        key: CompactKey,
        date: EdmDateTime?,
        name: String?,
        location: String?,
        speakerKey: String?,
        speakerName: String?,
        line: UInt32
    ) {
        // Locations are made only for findings: a GUID RowKey's text costs an allocation.
        if let date { checkDate(date, of: key, line: line) }
        if !key.isGUID {
            log.add(
                .contractRowKeyGUID,
                "RowKey '\(Self.excerpt(rowKey(of: key)))' is not a lower-case GUID (8-4-4-4-12)",
                at: eventLocation(key, line: line)
            )
        }

        let speakerNumber = speakerKey.map { speakerKeys.number($0) }
        let complete = date != nil && name != nil && location != nil && speakerNumber != nil
        let record = EventRecord(
            key: key,
            ticks: date?.ticks ?? 0,
            name: name.map { eventNames.number($0) } ?? 0,
            location: location.map { eventLocations.number($0) } ?? 0,
            speaker: speakerNumber ?? 0,
            line: line,
            source: source,
            isComplete: complete,
            hasDate: date != nil,
            hasSpeaker: speakerNumber != nil
        )
        let added = events.add(record, checkEvents: log.isOn(.duplicatesEvents))
        if let first = added.sameKey {
            log.add(
                .duplicatesKeys,
                "RowKey '\(Self.excerpt(rowKey(of: key)))' appears twice in partition 'Events'",
                at: eventLocation(key, line: line),
                related: [self.location(of: events[first])]
            )
        }
        if let first = added.sameEvent {
            log.add(
                .duplicatesEvents,
                "the same event (EventName, EventLocation, SpeakerKey and EventDate) as \(self.location(of: events[first]))",
                at: eventLocation(key, line: line),
                related: [self.location(of: events[first])]
            )
        }

        // The reference: now if the speaker is known, else when the input has ended.
        if let speakerNumber {
            if let speaker = speakers[speakerNumber] {
                if let speakerName, let name = speaker.name, name != speakerName {
                    compareName(speakerName, of: eventLocation(key, line: line), with: speaker, atEnd: false)
                }
            } else {
                pending.append((added.number, speakerName.map { speakerNames.number($0) } ?? Self.noName))
            }
        }
    }

    private mutating func checkDate(_ date: EdmDateTime, of key: CompactKey, line: UInt32) {
        if date.lexicalShape?.hasZone == false { unzonedDates += 1 }
        if log.isOn(.datesFormat), let message = Self.servedDateProblem(date, check: options.dateFormat) {
            log.add(.datesFormat, message, at: eventLocation(key, line: line))
        }
        if date < EdmDateTime.azureMinimum {
            log.add(
                .datesBefore1601,
                "EventDate \(date) is before 1601-01-01, the earliest date Azure Table Storage accepts",
                at: eventLocation(key, line: line)
            )
        }
        if let from = options.from, date < from {
            log.add(.datesRange, "EventDate \(date) is before --from \(from)", at: eventLocation(key, line: line))
        } else if let cutoff = options.cutoff, date > cutoff {
            log.add(.datesRange, "EventDate \(date) is after --cutoff \(cutoff)", at: eventLocation(key, line: line))
        }
    }

    /// What keeps the date's reader from reading it as Azure serves it, or nil when it reads it.
    ///
    /// Azure keeps ticks, not text, and serves a date with trailing fractional zeros trimmed, so
    /// what matters is the served form, not the text a file holds. The app's parser (ICU, see
    /// ``EventDateCheck/app``) reads 1 to 7 fractional digits but needs the `.`: it refuses exactly
    /// the dates on a whole second. `AppDateParserTests` holds this to the parser itself.
    package static func servedDateProblem(_ date: EdmDateTime, check: EventDateCheck) -> String? {
        let written =
            date.lexicalShape.map { Self.written(date, $0) } ?? String(decoding: date.formatted(), as: UTF8.self)
        if let shape = date.lexicalShape, !shape.hasZone {
            return "EventDate '\(written)' has no 'Z': Azure reads an Edm.DateTime as UTC only with it"
        }
        let served = date.formattedTrimmed()
        switch check {
        case .app:
            guard date.isWholeSecond else { return nil }
            return written == served
                ? "EventDate '\(written)' lies on a whole second and has no fraction, as Azure serves it, which the app's date pattern refuses: the event shows no date"
                : "EventDate '\(written)' lies on a whole second, so Azure serves it as '\(served)', which the app's date pattern refuses: the event shows no date"
        case .exact7:
            guard !date.survivesAzureTrimming else { return nil }
            let digits = served.count - 21  // between `yyyy-MM-ddTHH:mm:ss.` and `Z`
            let count =
                digits <= 0 ? "no fractional digits" : "\(digits) fractional digit\(digits == 1 ? "" : "s"), not 7"
            return written == served
                ? "EventDate '\(written)' has \(count), as Azure serves it, which a seven-digit pattern (.NET's fffffff) refuses"
                : "EventDate '\(written)' ends in 0, so Azure serves it as '\(served)', with \(count), which a seven-digit pattern (.NET's fffffff) refuses"
        case .azure:
            return nil
        }
    }

    /// The date as it was written: the 7-digit form cut to the digits the text had.
    static func written(_ date: EdmDateTime, _ shape: EdmDateTime.LexicalShape) -> String {
        let full = date.formatted()
        var text = Array(full[0..<19])
        if shape.fractionDigits > 0 { text += full[19..<(20 + Int(shape.fractionDigits))] }
        if shape.hasZone { text.append(UInt8(ascii: "Z")) }
        return String(decoding: text, as: UTF8.self)
    }

    /// A value that should have been a date: its type, and its text when it is a string.
    static func describe(_ value: EdmValue) -> String {
        if case .string(let text) = value { return "'\(excerpt(printable(text)))' is Edm.String" }
        return "is \(value.type.rawValue)"
    }

    // MARK: Speakers

    private mutating func checkSpeaker(_ entity: Entity, line: UInt32) {
        var name: String?
        var imageUrl: String?
        var seen: Set<String> = []
        var blank: [String] = []
        var unknown: [Property] = []
        var here: FindingLocation {
            self.location(source: source, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        }
        for property in entity.properties {
            switch property.name {
            case "Name", "Title", "Bio", "ImageUrl":
                seen.insert(property.name)
                guard case .string(let text) = property.value else {
                    log.add(
                        .contractType,
                        "\(property.name) is \(property.value.type.rawValue), expected Edm.String",
                        at: here
                    )
                    continue
                }
                if Self.isBlank(text) {
                    blank.append(property.name)
                    continue
                }
                if property.name == "Name" { name = text }
                if property.name == "ImageUrl" { imageUrl = text }
            default: unknown.append(property)
            }
        }
        if !unknown.isEmpty { checkUnknown(unknown, of: "speaker", in: entity, line: line) }
        let missing = ["Name", "Title", "Bio", "ImageUrl"].filter { !seen.contains($0) }
        if !missing.isEmpty { log.add(.contractRequired, "speaker has no \(Self.list(missing))", at: here) }
        if !blank.isEmpty {
            log.add(
                .contractRequired,
                "\(Self.list(blank)) \(blank.count == 1 ? "is" : "are") empty or only white space",
                at: here
            )
        }
        if let imageUrl, let problem = Self.imageURLProblem(imageUrl) {
            log.add(.contractImageURL, "ImageUrl '\(Self.excerpt(Self.printable(imageUrl)))' \(problem)", at: here)
        }
        if CompactKey.guid(entity.rowKey) == nil {
            log.add(
                .contractRowKeyGUID,
                "RowKey '\(Self.excerpt(entity.rowKey))' is not a lower-case GUID (8-4-4-4-12)",
                at: here
            )
        }
        let number = speakerKeys.number(entity.rowKey)
        let entry = SpeakerIndex.Entry(
            rowKey: entity.rowKey,
            name: name,
            imageUrl: imageUrl,
            source: source,
            line: line
        )
        if !speakers.add(entry, key: number), let first = speakers[number] {
            log.add(
                .duplicatesKeys,
                "RowKey '\(Self.excerpt(entity.rowKey))' appears twice in partition 'speakers'",
                at: here,
                related: [location(of: first)]
            )
        } else if let name, log.isOn(.duplicatesSpeakerNames) {
            if let first = speakersByName[name] {
                log.add(
                    .duplicatesSpeakerNames,
                    "speaker '\(Self.excerpt(name))' has the same Name as speaker \(first.rowKey): an event's SpeakerName cannot tell them apart",
                    at: here,
                    related: [location(of: first)]
                )
            } else {
                speakersByName[name] = entry
            }
        }
    }

    /// Properties the contract does not name for the entity's partition: Azure stores them, but the
    /// app never reads them, so they are likely a mistake, such as the other partition's columns of a
    /// CSV that holds both (where a quoted empty cell, `""`, is an empty string, not nothing).
    private mutating func checkUnknown(
        _ properties: [Property],
        of kind: String,
        in entity: Entity,
        line: UInt32
    ) {
        guard log.isOn(.contractUnknownProperty) else { return }
        let names = properties.map(\.name)
        let listed = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        let one = names.count == 1
        var message =
            "\(kind) has \(listed), which the contract does not name for \(kind)s: the app never reads \(one ? "it" : "them")"
        if properties.allSatisfy({ if case .string(let text) = $0.value { text.isEmpty } else { false } }) {
            message += " (\(one ? "an empty string" : "empty strings"): in plain CSV a quoted empty cell, \"\", is one)"
        }
        let here = location(source: source, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        log.add(.contractUnknownProperty, message, at: here)
    }

    // MARK: Other partitions

    private mutating func checkOtherPartition(_ entity: Entity, line: UInt32) {
        let here = location(source: source, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        let lowered = entity.partitionKey.lowercased()
        let hint =
            lowered == DataContract.eventsPartition.lowercased()
            ? " (did you mean 'Events'? keys are case-sensitive)"
            : lowered == DataContract.speakersPartition ? " (did you mean 'speakers'? keys are case-sensitive)" : ""
        log.add(
            .contractPartition,
            "PartitionKey '\(Self.excerpt(entity.partitionKey))' is neither 'speakers' nor 'Events'\(hint)",
            at: here
        )
        let key = entity.partitionKey + "\u{0}" + entity.rowKey
        if let first = otherKeys[key] {
            log.add(
                .duplicatesKeys,
                "RowKey '\(Self.excerpt(entity.rowKey))' appears twice in partition '\(Self.excerpt(entity.partitionKey))'",
                at: here,
                related: [
                    location(
                        source: first.source,
                        line: first.line,
                        partitionKey: entity.partitionKey,
                        rowKey: entity.rowKey
                    )
                ]
            )
        } else {
            otherKeys[key] = (source, line)
        }
    }

    // MARK: Helpers

    /// Empty, or nothing but white space.
    static func isBlank(_ text: String) -> Bool {
        // Most values start with a visible ASCII character: decided by one byte.
        if PlainEvent.Parts.surelyNotBlank(text.utf8.first) { return false }
        return text.allSatisfy(\.isWhitespace)
    }

    /// Why an ImageUrl is not an absolute http(s) URL the app can load; nil when it is one.
    static func imageURLProblem(_ url: String) -> String? {
        let lowered = url.prefix(8).lowercased()
        let scheme = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : 0
        guard scheme > 0 else { return "is not an absolute http or https URL" }
        let rest = url.utf8.dropFirst(scheme)
        guard let host = rest.split(separator: UInt8(ascii: "/"), maxSplits: 1, omittingEmptySubsequences: false).first,
            !host.isEmpty
        else {
            return "has no host"
        }
        if url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return "contains white space or a control character"
        }
        return nil
    }

    static func list(_ names: [String]) -> String {
        names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// A value short enough for a one-line message.
    static func excerpt(_ text: String) -> String {
        text.count <= 64 ? text : text.prefix(64) + "…"
    }
}
