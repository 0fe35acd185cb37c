import SpeakEasyData
import Testing

@testable import SpeakEasyFormats

/// The one-pass copy of a reply's entity (``JSONReplyCopy``) takes the objects Azure spells as the
/// formatter writes them, and writes what decoding and formatting them writes; it refuses the rest,
/// which the copier's member-list path reads (``JSONPageCopierTests`` holds the whole copier to the
/// decoder's bytes). Without the first half, the copier's equality would hold with the pass never
/// taken.
@Suite("JSON reply copy")
struct JSONReplyCopyTests {
    /// The object copied alone, with the keys it says it wrote; nil when it is refused.
    static func copy(_ object: String) -> (String, String, String)? {
        let raw = Array(object.utf8)
        var names: [Range<Int>] = []
        var out: [UInt8] = []
        return raw.withUnsafeBytes { bytes in
            guard let copied = JSONReplyCopy.append(bytes, at: 0, names: &names, to: &out) else { return nil }
            #expect(copied.end == raw.count, "\(object)")
            return (
                String(decoding: out, as: UTF8.self), String(decoding: out[copied.partitionKey], as: UTF8.self),
                String(decoding: out[copied.rowKey], as: UTF8.self)
            )
        }
    }

    static let etag = #""odata.etag":"W/\"datetime'2026-03-01T18%3A30%3A05.1Z'\"""#

    /// Objects as Azure sends them, each taken by the pass.
    static let taken = [
        // As seeded, and dates trimmed by Azure (one on a whole second).
        "{\(etag),\"PartitionKey\":\"Events\",\"RowKey\":\"0f6c\",\"Timestamp\":\"2026-03-01T18:30:05.1234567Z\","
            + #""EventDate@odata.type":"Edm.DateTime","EventDate":"2026-03-01T18:30:00.0000001Z","#
            + #""EventName":"Swift Night","SpeakerName":"Ada"}"#,
        "{\(etag),\"PartitionKey\":\"Events\",\"RowKey\":\"r\",\"Timestamp\":\"2026-03-01T18:30:05Z\","
            + #""EventDate@odata.type":"Edm.DateTime","EventDate":"2026-03-01T18:30:00.12Z","A":"1","B":"2"}"#,
        // No etag, no Timestamp, no properties.
        #"{"PartitionKey":"p","RowKey":"r"}"#,
        // Escapes as the writer writes them, raw UTF-8, empty strings and names.
        #"{"PartitionKey":"Zürich","RowKey":"é😀","S":"quote \" back \\ line\n\r\ttab \u0001\u001f","T":"","":"x"}"#,
        // A DateTime that is not the first property, and a name that only starts like a key.
        #"{"PartitionKey":"p","RowKey":"r","A":"1","W@odata.type":"Edm.DateTime","W":"2026-03-01T18:30:05Z","RowKeys":"x"}"#,
    ]

    @Test("objects spelled as the formatter writes them are copied as decoding and formatting them writes")
    func takenObjects() throws {
        for object in Self.taken {
            let copied = try #require(Self.copy(object), "\(object)")
            let page = JSONPageCopierTests.page(object)
            let (text, partitionKeys, rowKeys) = try JSONPageCopierTests.reference(page, .lines)
            #expect(copied.0 + "\n" == text)
            #expect([copied.1] == partitionKeys)
            #expect([copied.2] == rowKeys)
        }
    }

    /// Objects the pass leaves to the member list: white space, escapes the writer would not write,
    /// escaped keys, values other than strings, annotations the copy does not know, names it must not
    /// copy, repeats, and bytes that are not UTF-8 or not JSON.
    static let refused = [
        #"{ "PartitionKey":"p","RowKey":"r"}"#,
        #"{"PartitionKey":"p","RowKey":"r" ,"A":"1"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A": "1"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"\/"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"\u00e9"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"\u000a"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"\u001F"}"#,
        #"{"PartitionKey":"p\"","RowKey":"r"}"#,
        #"{"PartitionKey":"p","RowKey":"r\n"}"#,
        #"{"PartitionKey":"p","RowKey":"r","N":1}"#,
        #"{"PartitionKey":"p","RowKey":"r","B":true}"#,
        #"{"PartitionKey":"p","RowKey":"r","Gone":null}"#,
        #"{"PartitionKey":"p","RowKey":"r","S@odata.type":"Edm.String","S":"x"}"#,
        #"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","E":"2026-03-01T18:30:00Z"}"#,
        #"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","D":"2026-03-01"}"#,
        #"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","D":"2026-03-01T18:30:00\u005a"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-03-01"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"1","Timestamp":"2026-03-01T18:30:00Z"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2026-03-01T18:30:00Z"}"#,
        #"{"RowKey":"r","PartitionKey":"p"}"#,
        #"{"odata.type":"a.t","PartitionKey":"p","RowKey":"r"}"#,
        #"{"PartitionKey":"p","RowKey":"r","odata.id":"x"}"#,
        #"{"PartitionKey":"p","RowKey":"r","PartitionKey":"p"}"#,
        #"{"PartitionKey":"p","RowKey":"r","a@b":"x"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Nam\u0065":"escaped name"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Namé":"non-ASCII name"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"1","A":"2"}"#,
        #"{"PartitionKey":"p","RowKey":"r","A":"1""#,
        #"{"PartitionKey":"p","RowKey":"r","A":"1}"#,
        "{}",
        "",
    ]

    @Test("other objects are left to the member list")
    func refusedObjects() {
        for object in Self.refused {
            #expect(Self.copy(object) == nil, "\(object)")
        }
        // More than 32 properties are the member list's to check for repeats.
        func properties(_ count: Int) -> String {
            #"{"PartitionKey":"p","RowKey":"r","# + (0..<count).map { #""P\#($0)":"x""# }.joined(separator: ",") + "}"
        }
        #expect(Self.copy(properties(32)) != nil)
        #expect(Self.copy(properties(33)) == nil)
        // Bytes that are not UTF-8, in a key and in a value.
        for object in [#"{"PartitionKey":"p","RowKey":"rr"}"#, #"{"PartitionKey":"p","RowKey":"r","A":"xx"}"#] {
            var raw = Array(object.utf8)
            raw[raw.count - 3] = 0xC3
            var names: [Range<Int>] = []
            var out: [UInt8] = []
            #expect(raw.withUnsafeBytes { JSONReplyCopy.append($0, at: 0, names: &names, to: &out) } == nil)
        }
    }
}
