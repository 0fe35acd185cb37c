import SpeakEasyData
import Testing

@Suite("Range headers")
struct RangeHeaderTests {
    @Test("reads bytes=a-b and bytes=a-")
    func forms() {
        #expect(ByteRangeHeader.parse("bytes=0-33554431") == ByteRange(first: 0, last: 33_554_431))
        #expect(ByteRangeHeader.parse("bytes=10-") == ByteRange(first: 10))
        #expect(ByteRangeHeader.parse("bytes=5-5") == ByteRange(first: 5, last: 5))
        #expect(ByteRangeHeader.parse(" bytes=1-2 ") == ByteRange(first: 1, last: 2))
    }

    @Test(
        "malformed values, suffix ranges and multiple ranges are ignored (the whole blob)",
        arguments: [
            "", "bytes=", "bytes=-500", "bytes=5-3", "bytes=a-b", "bytes=1-2,4-5", "items=0-1", "bytes=+1-2",
            "bytes 0-1",
            "bytes=99999999999999999999-", "bytes=1--2",
        ]
    )
    func ignored(_ value: String) {
        #expect(ByteRangeHeader.parse(value) == nil)
    }

    @Test("x-ms-range wins over Range, even when it is malformed")
    func precedence() {
        #expect(
            ByteRangeHeader.byteRange(
                in: RequestHead(
                    method: "GET",
                    path: "/",
                    headers: [("Range", "bytes=0-1"), ("x-ms-range", "bytes=2-3")]
                )
            )
                == ByteRange(first: 2, last: 3)
        )
        #expect(
            ByteRangeHeader.byteRange(in: RequestHead(method: "GET", path: "/", headers: [("Range", "bytes=0-1")]))
                == ByteRange(first: 0, last: 1)
        )
        #expect(
            ByteRangeHeader.byteRange(
                in: RequestHead(method: "GET", path: "/", headers: [("Range", "bytes=0-1"), ("X-MS-Range", "junk")])
            )
                == nil
        )
        #expect(ByteRangeHeader.byteRange(in: RequestHead(method: "GET", path: "/")) == nil)
    }
}
