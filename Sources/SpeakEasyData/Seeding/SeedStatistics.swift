/// What a seed run produced, gathered while streaming: for the summary and the manifest.
package struct SeedStatistics: Sendable {
    package var speakers = 0
    package var events = 0
    package var earliest: EdmDateTime?
    package var latest: EdmDateTime?
    /// Events per speaker RowKey.
    package var eventsPerSpeaker: [String: Int] = [:]
    /// Events per month, keyed "yyyy-MM".
    package var eventsPerMonth: [String: Int] = [:]
    package var hash = ContentHash()

    package init() {}

    package mutating func add(_ speaker: Speaker) {
        speakers += 1
        hash.add(speaker.entity)
    }

    package mutating func add(_ event: Event, entity: EncodedEntity) {
        events += 1
        earliest = min(earliest ?? event.date, event.date)
        latest = max(latest ?? event.date, event.date)
        eventsPerSpeaker[event.speakerKey, default: 0] += 1
        let c = event.date.components
        let month = String(c.year) + "-" + (c.month < 10 ? "0" : "") + String(c.month)
        eventsPerMonth[month, default: 0] += 1
        hash.add(entity)
    }
}
