package import SpeakEasyModel
package import SpeakEasyStorage

/// What a seed run produced, gathered while streaming: for the summary and the manifest.
package struct SeedStatistics: Sendable {
    package var speakers = 0
    package var events = 0
    package var earliest: EdmDateTime?
    package var latest: EdmDateTime?
    /// Events per speaker RowKey.
    package var eventsPerSpeaker: [String: Int] = [:]
    /// Events per month.
    package var eventsPerMonth: [MonthKey: Int] = [:]
    package var hash = ContentHash()

    package init() {}

    package mutating func add(_ speaker: Speaker) {
        speakers += 1
        hash.add(speaker.entity)
    }

    /// Entities per partition, as the run generated them.
    package var partitionCounts: [String: Int] {
        [DataContract.speakersPartition: speakers, DataContract.eventsPartition: events]
    }

    /// Counts one generated event, read from its draw as `encoder` reads it, and adds its digest.
    package mutating func add(_ draw: SeedGenerator.EventDraw, digest: EntityDigest, encoder: EventEncoder) {
        let date = encoder.date(of: draw)
        let speakerKey = encoder.speakerKeys[Int(draw.speaker)]
        events += 1
        earliest = min(earliest ?? date, date)
        latest = max(latest ?? date, date)
        eventsPerSpeaker[speakerKey, default: 0] += 1
        let c = date.components
        eventsPerMonth[MonthKey(year: c.year, month: c.month), default: 0] += 1
        hash.add(digest)
    }

    /// A calendar month, for the per-month histogram; ordered by time.
    package struct MonthKey: Hashable, Comparable, Sendable, CustomStringConvertible {
        package var year: Int
        package var month: Int

        package static func < (lhs: MonthKey, rhs: MonthKey) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
        /// "yyyy-MM".
        package var description: String { String(year) + "-" + (month < 10 ? "0" : "") + String(month) }
    }
}
