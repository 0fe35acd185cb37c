import SpeakEasyData
import Testing

@Suite("TableETag: Azure's weak ETag from a Timestamp")
struct TableETagTests {
    @Test("the time as Azure writes it, trailing zeros trimmed, colons percent-encoded", arguments: [
        ("2017-01-05T03:26:03.5166820Z", #"W/"datetime'2017-01-05T03%3A26%3A03.516682Z'""#),
        ("2017-01-05T03:26:03.5166821Z", #"W/"datetime'2017-01-05T03%3A26%3A03.5166821Z'""#),
        ("2017-01-05T03:26:03Z", #"W/"datetime'2017-01-05T03%3A26%3A03Z'""#),
    ])
    func weak(timestamp: String, etag: String) {
        #expect(TableETag.weak(.at(timestamp)) == etag)
    }
}
