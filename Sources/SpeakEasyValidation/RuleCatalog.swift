/// Every rule `validate` knows, with its stable id, severity and one-sentence summary.
///
/// Ids are part of the tool's interface (`--rule`, `--skip`, reports, the ValidatingData article's table): never
/// rename one; retire it and add a new one instead.
public enum Rule: String, Sendable, Hashable, CaseIterable {
    /// `dates.missing`: see ``summary``.
    case datesMissing = "dates.missing"
    /// `dates.format`: see ``summary``.
    case datesFormat = "dates.format"
    /// `dates.range`: see ``summary``.
    case datesRange = "dates.range"
    /// `dates.before-1601`: see ``summary``.
    case datesBefore1601 = "dates.before-1601"
    /// `references.orphan`: see ``summary``.
    case referencesOrphan = "references.orphan"
    /// `references.name-mismatch`: see ``summary``.
    case referencesNameMismatch = "references.name-mismatch"
    /// `duplicates.keys`: see ``summary``.
    case duplicatesKeys = "duplicates.keys"
    /// `duplicates.events`: see ``summary``.
    case duplicatesEvents = "duplicates.events"
    /// `duplicates.speaker-names`: see ``summary``.
    case duplicatesSpeakerNames = "duplicates.speaker-names"
    /// `contract.required`: see ``summary``.
    case contractRequired = "contract.required"
    /// `contract.type`: see ``summary``.
    case contractType = "contract.type"
    /// `contract.partition`: see ``summary``.
    case contractPartition = "contract.partition"
    /// `contract.rowkey-guid`: see ``summary``.
    case contractRowKeyGUID = "contract.rowkey-guid"
    /// `contract.key-chars`: see ``summary``.
    case contractKeyChars = "contract.key-chars"
    /// `contract.entity-size`: see ``summary``.
    case contractEntitySize = "contract.entity-size"
    /// `contract.image-url`: see ``summary``.
    case contractImageURL = "contract.image-url"
    /// `contract.unknown-property`: see ``summary``.
    case contractUnknownProperty = "contract.unknown-property"
    /// `photos.missing`: see ``summary``.
    case photosMissing = "photos.missing"
    /// `photos.content-type`: see ``summary``.
    case photosContentType = "photos.content-type"
    /// `photos.unused`: see ``summary``.
    case photosUnused = "photos.unused"
    /// `photos.access`: see ``summary``.
    case photosAccess = "photos.access"
    /// `photos.content-md5`: see ``summary``.
    case photosContentMD5 = "photos.content-md5"
    /// `manifest.incomplete`: see ``summary``.
    case manifestIncomplete = "manifest.incomplete"
    /// `manifest.counts`: see ``summary``.
    case manifestCounts = "manifest.counts"
    /// `manifest.hash`: see ``summary``.
    case manifestHash = "manifest.hash"

    /// The stable id: `dates.format`.
    public var id: String { rawValue }

    /// A small number per rule, for bit sets checked on every entity (hashing a `Set` would cost more).
    package var bit: Int {
        switch self {
        case .datesMissing: 0
        case .datesFormat: 1
        case .datesRange: 2
        case .datesBefore1601: 3
        case .referencesOrphan: 4
        case .referencesNameMismatch: 5
        case .duplicatesKeys: 6
        case .duplicatesEvents: 7
        case .contractRequired: 8
        case .contractType: 9
        case .contractPartition: 10
        case .contractRowKeyGUID: 11
        case .contractKeyChars: 12
        case .contractEntitySize: 13
        case .photosMissing: 14
        case .photosContentType: 15
        case .photosUnused: 16
        case .photosAccess: 17
        case .manifestIncomplete: 18
        case .manifestCounts: 19
        case .manifestHash: 20
        case .duplicatesSpeakerNames: 21
        case .contractImageURL: 22
        case .photosContentMD5: 23
        case .contractUnknownProperty: 24
        }
    }

    /// Whether a finding of the rule is an error or a warning.
    public var severity: Severity {
        switch self {
        case .contractRowKeyGUID, .photosUnused, .contractUnknownProperty: .warning
        default: .error
        }
    }

    /// Whether the rule needs a storage account (photos and the seed manifest exist only there).
    package var needsStore: Bool {
        switch self {
        case .photosMissing, .photosContentType, .photosUnused, .photosAccess, .photosContentMD5, .manifestIncomplete,
            .manifestCounts, .manifestHash:
            true
        default: false
        }
    }

    /// What the rule holds the data to, in one or two sentences.
    public var summary: String {
        switch self {
        case .datesMissing: "Every event has an EventDate, typed Edm.DateTime."
        case .datesFormat:
            "EventDate as Azure serves it, trailing zeros trimmed, is read by the app's date pattern, which refuses a date on a whole second, served without a fraction (--date-format app); or has exactly 7 fractional digits (exact7); or is what Azure accepts, 0-7 fractional digits and Z (azure)."
        case .datesRange: "EventDate lies within --from and --cutoff, when given."
        case .datesBefore1601: "EventDate is not before 1601-01-01, the earliest date Azure Table Storage accepts."
        case .referencesOrphan: "Every event's SpeakerKey is the RowKey of a speaker."
        case .referencesNameMismatch: "Every event's SpeakerName is the Name of the speaker its SpeakerKey names."
        case .duplicatesKeys: "No two entities have the same PartitionKey and RowKey."
        case .duplicatesEvents: "No two events have the same name, location, speaker and date."
        case .duplicatesSpeakerNames:
            "No two speakers have the same Name: an event's SpeakerName could not tell them apart."
        case .contractRequired:
            "Speakers have Name, Title, Bio and ImageUrl; events have EventName, EventLocation, EventDescription, SpeakerKey and SpeakerName; none of them empty or only white space."
        case .contractType: "The contract's properties have the types the app reads (Edm.String)."
        case .contractPartition: "Every entity's PartitionKey is 'speakers' or 'Events'."
        case .contractRowKeyGUID: "RowKeys are lower-case GUIDs (8-4-4-4-12)."
        case .contractKeyChars:
            "Keys hold no character Azure refuses (/ \\ # ? and control characters) and are at most 1 KiB."
        case .contractEntitySize:
            "An entity is at most 1 MiB and has at most 252 properties of its own, as Azure allows."
        case .contractImageURL: "A speaker's ImageUrl is an absolute http or https URL the app can load."
        case .contractUnknownProperty:
            "Speakers have no properties but Name, Title, Bio and ImageUrl, and events none but EventDate, EventName, EventLocation, EventDescription, SpeakerKey and SpeakerName: the app reads no other."
        case .photosMissing: "Every speaker's ImageUrl names a blob in the photo container."
        case .photosContentType: "Every photo blob has an image content type."
        case .photosUnused: "Every blob in the photo container is some speaker's photo."
        case .photosAccess: "The photo container allows anonymous read access, as the app needs."
        case .photosContentMD5: "Every photo's bytes still have the length and Content-MD5 they were stored with."
        case .manifestIncomplete: "The seed manifest, where one exists, says its run completed."
        case .manifestCounts: "The table still holds the entity counts per partition the seed manifest recorded."
        case .manifestHash: "The table's content hash still equals the seed manifest's."
        }
    }

    package var descriptor: RuleDescriptor { RuleDescriptor(id: id, severity: severity, summary: summary) }

    /// The rules a selection names: ids, or groups (`dates` is every `dates.*` rule). Nil entries are
    /// names that match no rule.
    package static func matching(_ name: String) -> [Rule] {
        if let rule = Rule(rawValue: name) { return [rule] }
        return allCases.filter { $0.rawValue.hasPrefix(name + ".") }
    }
}
