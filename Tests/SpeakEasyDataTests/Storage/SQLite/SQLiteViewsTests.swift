import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// The documented views let the `sqlite3` shell read the store without knowing its JSON layout.
@Suite("SQLite storage account: views for the sqlite3 shell")
struct SQLiteViewsTests {
    static let speaker = Speaker(
        key: "c9da6455-213d-42c9-9a79-3e9149a57833",
        name: "Bart Tubalinal",
        title: "Solutions Architect",
        bio: "Bart is…",
        imageUrl: "http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg"
    )
    static let event = Event(
        key: "dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2",
        date: .at("2026-03-01T09:30:00.2Z"),
        name: "iOS Meetup",
        location: "Chicago, IL",
        description: "Lorem ipsum",
        speakerKey: speaker.key,
        speakerName: speaker.name
    )

    @Test("speakers_view and events_view show the contract's columns")
    func contractViews() async throws {
        try await withStore(tables: [DataContract.table, "other"]) { store, path in
            try await store.createTableIfNotExists(DataContract.table)
            try await store.write([Self.speaker.entity, Self.event.entity], table: DataContract.table, mode: .insert)
            let raw = try RawSQLite(path: path)
            #expect(try raw.strings("SELECT Name FROM speakers_view") == ["Bart Tubalinal"])
            #expect(
                try raw.rows("SELECT RowKey, Title, ImageUrl FROM speakers_view") == [
                    [Self.speaker.key, Self.speaker.title, Self.speaker.imageUrl]
                ]
            )
            #expect(
                try raw.rows(
                    "SELECT RowKey, EventDate, EventName, EventLocation, SpeakerKey, SpeakerName FROM events_view"
                ) == [
                    [
                        Self.event.key, "2026-03-01T09:30:00.2000000Z", "iOS Meetup", "Chicago, IL", Self.speaker.key,
                        "Bart Tubalinal",
                    ]
                ]
            )
        }
    }

    @Test("properties_view names each property's Edm type")
    func propertiesView() async throws {
        try await withStore(tables: [DataContract.table, "other"]) { store, path in
            try await store.write([Self.speaker.entity, Self.event.entity], table: DataContract.table, mode: .insert)
            try await store.write(
                [Entity(partitionKey: "p", rowKey: "every", properties: SampleProperties.everyType)],
                table: "other",
                mode: .insert
            )
            let raw = try RawSQLite(path: path)
            #expect(try raw.strings("SELECT type FROM properties_view WHERE name='EventDate'") == ["Edm.DateTime"])
            #expect(try raw.strings("SELECT type FROM properties_view WHERE name='SpeakerKey'") == ["Edm.String"])
            let types = try raw.rows("SELECT name, type FROM properties_view WHERE table_name = 'other'")
            let byName = Dictionary(uniqueKeysWithValues: types.map { ($0[0]!, $0[1]!) })
            #expect(types.count == SampleProperties.everyType.count)
            for property in SampleProperties.everyType {
                #expect(byName[property.name] == property.value.type.rawValue, "\(property.name)")
            }
        }
    }
}
