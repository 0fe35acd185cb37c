/// Every rule `validate` knows, with its stable id, severity and one-sentence summary.
///
/// Ids are part of the tool's interface (`--rule`, `--skip`, reports, the README's table): never
/// rename one; retire it and add a new one instead.
package enum Rule: String, Sendable, Hashable, CaseIterable {
    case datesMissing = "dates.missing"
    case datesFormat = "dates.format"
    case datesRange = "dates.range"
    case datesBefore1601 = "dates.before-1601"
    case referencesOrphan = "references.orphan"
    case referencesNameMismatch = "references.name-mismatch"
    case duplicatesKeys = "duplicates.keys"
    case duplicatesEvents = "duplicates.events"
    case duplicatesSpeakerNames = "duplicates.speaker-names"
    case contractRequired = "contract.required"
    case contractType = "contract.type"
    case contractPartition = "contract.partition"
    case contractRowKeyGUID = "contract.rowkey-guid"
    case contractKeyChars = "contract.key-chars"
    case contractEntitySize = "contract.entity-size"
    case contractImageURL = "contract.image-url"
    case photosMissing = "photos.missing"
    case photosContentType = "photos.content-type"
    case photosUnused = "photos.unused"
    case photosAccess = "photos.access"
    case manifestIncomplete = "manifest.incomplete"
    case manifestCounts = "manifest.counts"
    case manifestHash = "manifest.hash"

    package var id: String { rawValue }

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
        }
    }

    package var severity: Severity {
        switch self {
        case .contractRowKeyGUID, .photosUnused: .warning
        default: .error
        }
    }

    /// Whether the rule needs a storage account (photos and the seed manifest exist only there).
    package var needsStore: Bool {
        switch self {
        case .photosMissing, .photosContentType, .photosUnused, .photosAccess, .manifestIncomplete, .manifestCounts,
            .manifestHash:
            true
        default: false
        }
    }

    package var summary: String {
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
        case .photosMissing: "Every speaker's ImageUrl names a blob in the photo container."
        case .photosContentType: "Every photo blob has an image content type."
        case .photosUnused: "Every blob in the photo container is some speaker's photo."
        case .photosAccess: "The photo container allows anonymous read access, as the app needs."
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
