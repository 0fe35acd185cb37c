import SpeakEasyData

/// The recorded payloads of `Tests/Fixtures/azure`, as bytes and text.
enum AzureFixture {
    static func bytes(_ name: String) throws -> [UInt8] { try readFile(TestPaths.azureFixtures + "/" + name) }
    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// The endpoint of the account the JSON query fixtures were recorded against.
    static let xplat = TableEndpoint(url: "https://xplat.table.core.windows.net", account: "xplat")
}

/// A time from its lexical form, for tests.
func time(_ text: String) -> EdmDateTime {
    try! EdmDateTime(parsing: text)
}

/// An entity with every Edm type.
func everyTypeEntity(partitionKey: String = "speaker", rowKey: String = "ada") -> Entity {
    Entity(
        partitionKey: partitionKey,
        rowKey: rowKey,
        timestamp: time("2024-05-01T10:00:01.1234560Z"),
        properties: [
            Property("Name", .string("Ada \"Countess\" Lovelace\n")),
            Property("SessionCount", .int32(3)),
            Property("Followers", .int64(1_099_511_627_776)),
            Property("Rating", .double(4.5)),
            Property("Whole", .double(10)),
            Property("Tiny", .double(5e-324)),
            Property("NotANumber", .double(.nan)),
            Property("Verified", .boolean(true)),
            Property("FirstTalk", .dateTime(time("1843-07-01T09:00:00.0000000Z"))),
            Property("SpeakerId", .guid(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833")!)),
            Property("Avatar", .binary([0, 1, 0x68, 0x69])),
        ]
    )
}
