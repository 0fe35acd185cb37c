import SpeakEasyData
import Testing

@Suite("Table resource paths")
struct TableResourcePathTests {
    @Test(
        "paths parse to what they address",
        arguments: [
            ("/devstoreaccount1/Tables", TableResourcePath.tables),
            ("/Tables('speakers')", .table("speakers")),
            ("/Tables(%27speakers%27)", .table("speakers")),
            ("/speakers", .entities(table: "speakers")),
            ("/acct/speakers()", .entities(table: "speakers")),
            ("/$batch", .batch),
            (
                "/speakers(PartitionKey='speaker',RowKey='ada')",
                .entity(table: "speakers", partitionKey: "speaker", rowKey: "ada")
            ),
            (
                "/speakers(PartitionKey=%27speaker%27,RowKey=%27ada%27)",
                .entity(table: "speakers", partitionKey: "speaker", rowKey: "ada")
            ),
            ("/t(PartitionKey='O''Brien',RowKey='')", .entity(table: "t", partitionKey: "O'Brien", rowKey: "")),
            ("/t(RowKey='r',PartitionKey='p')", .entity(table: "t", partitionKey: "p", rowKey: "r")),
            (
                "/t(PartitionKey='a%20b%25c',RowKey='%C3%BC''')",
                .entity(table: "t", partitionKey: "a b%c", rowKey: "ü'")
            ),
            ("/t(PartitionKey='a,b=c',RowKey='(x)')", .entity(table: "t", partitionKey: "a,b=c", rowKey: "(x)")),
        ]
    )
    func parses(path: String, expected: TableResourcePath) throws {
        #expect(try TableResourcePath(parsing: path) == expected)
    }

    @Test(
        "malformed paths are 400 InvalidInput",
        arguments: [
            "/", "/t(", "/t(PartitionKey='a')", "/t(PartitionKey='a',RowKey='b'", "/t(PartitionKey='a,RowKey='b')",
            "/t(PartitionKey=a,RowKey='b')",
            "/t(PartitionKey='a',RowKey='b',)", "/t(PartitionKey='a',PartitionKey='b')", "/t(Foo='a',RowKey='b')",
            "/Tables('a'", "/ta-ble",
            "/t(PartitionKey='%ZZ',RowKey='b')", "/t(PartitionKey='%C3',RowKey='b')", "/Tables('a')x",
        ]
    )
    func refuses(path: String) {
        #expect(throws: TableResourcePath.syntaxError) { try TableResourcePath(parsing: path) }
    }

    @Test("keys are written quoted, quotes doubled, unsafe bytes encoded, and read back")
    func writes() throws {
        let path = TableResourcePath.entity(table: "t", partitionKey: "O'Brien ü", rowKey: "50%/x")
        #expect(path.segment == "t(PartitionKey='O''Brien%20%C3%BC',RowKey='50%25%2Fx')")
        #expect(
            path.url(endpoint: "https://a.table.core.windows.net") == "https://a.table.core.windows.net/" + path.segment
        )
        #expect(try TableResourcePath(parsing: "/" + path.segment) == path)
        #expect(TableResourcePath.table("speakers").segment == "Tables('speakers')")
    }
}
