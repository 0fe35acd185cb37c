package import SpeakEasyData
import TestSupport

/// A small seeded store for the tests of `serve`'s browser view, with what they look for planted in
/// it: the seed's speakers, photos and events, one event on a whole second (which the app cannot
/// read as Azure serves it), and a table of hostile text in keys, property names and values.
package enum ViewedStore {
    /// The seeded table, `events`.
    package static let table = DataContract.table
    /// An event whose EventDate lies on a whole second: Azure serves it as `…:00Z`.
    package static let wholeSecondRowKey = "planted-whole-second"
    package static let wholeSecondDate = "2026-03-01T18:30:00.0000000Z"
    /// The table of hostile text, and its one entity's keys.
    package static let hostileTable = "hostile"
    package static let hostilePartition = "p<script>\"&'\u{202E}🎤"
    package static let hostileRow = "r<b>&amp;\"'\u{202E}👩🏽‍💻"
    /// Sets `window.pwned` if it ever runs.
    package static let script = "<script>window.pwned=1</script>"
    /// Property names and values that are markup, quotes, entities, a right-to-left override and
    /// characters outside the BMP (4 bytes in UTF-8, two UTF-16 units).
    package static let hostileProperties: [(name: String, value: String)] = [
        ("Script", script),
        ("Quotes", "\"double\" 'single' & &amp; <b>bold</b> </td></tr></table>"),
        ("Rtl", "\u{202E}txet desrever"),
        ("Emoji", "🎤 𝄞 👩🏽‍💻"),
        ("<img src=x onerror=\"window.pwned=1\">", "a property name that is markup"),
        ("Name\"&'", "a property name with quotes"),
        ("\u{202E}Rtl🎤", "a property name with a right-to-left mark and an emoji"),
    ]

    /// Seeds `path` (8 speakers with photos, `events` events) and plants the rest.
    package static func make(_ path: String, events: Int = 250) async throws {
        var request = SeedRequest()
        request.seed = 42
        request.eventCount = events
        request.from = .at("2026-01-01T00:00:00Z")
        let store = try StorageLocation.local(path: path).open(readOnly: false)
        _ = try await Seeder(catalog: try SampleCatalog(directory: TestPaths.samples), request: request).run(
            store: store,
            photoBaseURL: StorageLocation.localBlobEndpoint + DataContract.photoContainer + "/"
        )
        let planted = Entity(
            partitionKey: DataContract.eventsPartition,
            rowKey: wholeSecondRowKey,
            properties: [
                Property("EventDate", .dateTime(try EdmDateTime(parsing: wholeSecondDate))),
                Property("EventName", .string("Planted on a whole second")),
            ]
        )
        try await store.write([planted], table: table, mode: .insert)
        try await store.createTableIfNotExists(hostileTable)
        let hostile = Entity(
            partitionKey: hostilePartition,
            rowKey: hostileRow,
            properties: hostileProperties.map { Property($0.name, .string($0.value)) }
        )
        try await store.write([hostile], table: hostileTable, mode: .insert)
        try await store.flush()
    }
}
