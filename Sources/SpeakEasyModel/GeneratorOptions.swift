/// Everything that decides what the generator produces. Same catalog + same options ⇒ same entities.
package struct GeneratorOptions: Hashable, Sendable {
    package var seed: UInt64
    /// Exactly this many events, unique by (name, location, speaker, date).
    package var eventCount: Int
    /// The sample speakers first; beyond them, generated ones.
    package var speakerCount: Int
    package var from: EdmDateTime
    package var cutoff: EdmDateTime
    package var resolution: DateResolution
    /// `app` (the default): only dates Azure serves with all seven digits; `azure`: any multiple of the resolution.
    package var dateFormat: EventDateFormat
    /// Where the photos live: a speaker's ImageUrl is this base + the blob name.
    package var photoBaseURL: String

    package init(
        seed: UInt64,
        eventCount: Int,
        speakerCount: Int,
        from: EdmDateTime,
        cutoff: EdmDateTime,
        resolution: DateResolution,
        dateFormat: EventDateFormat = .app,
        photoBaseURL: String
    ) {
        self.seed = seed
        self.eventCount = eventCount
        self.speakerCount = speakerCount
        self.from = from
        self.cutoff = cutoff
        self.resolution = resolution
        self.dateFormat = dateFormat
        self.photoBaseURL = photoBaseURL
    }
}
