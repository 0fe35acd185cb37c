import SpeakEasyData
import Testing

@Suite("TableETag: Azure's weak ETag from a Timestamp")
struct TableETagTests {
    @Test(
        "the time as Azure writes it, trailing zeros trimmed, colons percent-encoded",
        arguments: [
            ("2017-01-05T03:26:03.5166820Z", #"W/"datetime'2017-01-05T03%3A26%3A03.516682Z'""#),
            ("2017-01-05T03:26:03.5166821Z", #"W/"datetime'2017-01-05T03%3A26%3A03.5166821Z'""#),
            ("2017-01-05T03:26:03Z", #"W/"datetime'2017-01-05T03%3A26%3A03Z'""#),
        ]
    )
    func weak(timestamp: String, etag: String) {
        #expect(TableETag.weak(.at(timestamp)) == etag)
    }

    /// Azure's ETags are trimmed as its times are: the recorded replies (table-json-query-fullmetadata.json,
    /// table-json-batch-response.txt) carry `03.516682Z` and `12.93486Z`, not seven digits.
    @Test(
        "If-Match takes * and weak ETags; anything else is malformed (Azurite's isEtagValid)",
        arguments: [
            ("*", true), (#"W/"datetime'2017-01-05T03%3A26%3A03.516682Z'""#, true), (#"w/"x""#, true), (#"W/"""#, true),
            (#"W/"a\"b""#, true),
            ("MalformedEtag", false), ("wrong", false), (#"""#, false), (#""x""#, false), (#"W/"a"b""#, false),
            ("W/", false), ("", false), (#"W/"x"#, false),
        ]
    )
    func condition(text: String, valid: Bool) {
        #expect(TableETag.isCondition(text) == valid)
    }
}
