import SpeakEasyData
import Testing

/// A range asked of a blob, and the bytes it must give of a 100-byte blob.
struct RangeCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let range: ByteRange
    let bytes: Range<Int>

    init(_ description: String, _ range: ByteRange, _ bytes: Range<Int>) {
        testDescription = description
        self.range = range
        self.bytes = bytes
    }
}

/// Ranged reads as HTTP asks for them (`bytes=first-last`, `bytes=first-`): the last byte past the
/// end stops at the end; a first byte past it cannot be satisfied (416 InvalidRange).
@Suite("Storage conformance: ranged blob reads")
struct ConformanceBlobRanges {
    static let data = (0..<100).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }

    static let cases: [RangeCase] = [
        RangeCase("bytes=0-9: the first ten bytes", ByteRange(first: 0, last: 9), 0..<10),
        RangeCase("bytes=10-: from a byte to the end", ByteRange(first: 10), 10..<100),
        RangeCase("bytes=75-: the last 25 bytes", ByteRange(first: 75), 75..<100),
        RangeCase("bytes=0-: the whole blob", ByteRange(first: 0), 0..<100),
        RangeCase("bytes=0-99: exactly the whole blob", ByteRange(first: 0, last: 99), 0..<100),
        RangeCase("bytes=99-99: the last byte alone", ByteRange(first: 99, last: 99), 99..<100),
        RangeCase("bytes=42-42: one byte inside", ByteRange(first: 42, last: 42), 42..<43),
        RangeCase("bytes=90-200: a last byte past the end stops at the end", ByteRange(first: 90, last: 200), 90..<100),
    ]

    @Test("a range gives exactly its bytes, and the whole blob's properties", arguments: ConformanceBackend.all, cases)
    func satisfiable(backend: ConformanceBackend, rangeCase: RangeCase) async throws {
        try await backend.withAccount(containers: [Conformance.container]) { account in
            _ = try await account.putBlob(
                container: Conformance.container,
                name: "data.bin",
                contentType: "application/octet-stream",
                data: Self.data
            )
            let blob = try #require(
                try await account.blob(
                    container: Conformance.container,
                    name: "data.bin",
                    range: rangeCase.range,
                    conditions: .none
                )
            )
            #expect(blob.range == rangeCase.bytes)
            #expect(blob.data == Array(Self.data[rangeCase.bytes]))
            #expect(blob.properties.size == 100)
            #expect(blob.properties == (try await account.blobProperties(container: Conformance.container)).first)
        }
    }

    @Test("no range gives the whole blob", arguments: ConformanceBackend.all)
    func noRange(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Conformance.container]) { account in
            _ = try await account.putBlob(
                container: Conformance.container,
                name: "data.bin",
                contentType: "application/octet-stream",
                data: Self.data
            )
            let blob = try #require(
                try await account.blob(
                    container: Conformance.container,
                    name: "data.bin",
                    range: nil,
                    conditions: .none
                )
            )
            #expect(blob.range == 0..<100)
            #expect(blob.data == Self.data)
        }
    }

    @Test(
        "a range starting at or past the end is invalidRange (InvalidRange), also of an empty blob",
        arguments: ConformanceBackend.all,
        [
            (100, ByteRange(first: 100)), (100, ByteRange(first: 100, last: 150)), (100, ByteRange(first: 1_000)),
            (0, ByteRange(first: 0)), (0, ByteRange(first: 0, last: 10)),
        ]
    )
    func unsatisfiable(backend: ConformanceBackend, blob: (size: Int, range: ByteRange)) async throws {
        let (size, range) = blob
        try await backend.withAccount(containers: [Conformance.container]) { account in
            let data = Array(Self.data.prefix(size))
            _ = try await account.putBlob(
                container: Conformance.container,
                name: "data.bin",
                contentType: "application/octet-stream",
                data: data
            )
            let error = await storageError {
                _ = try await account.blob(
                    container: Conformance.container,
                    name: "data.bin",
                    range: range,
                    conditions: .none
                )
            }
            #expect(error?.reason == .invalidRange)
            #expect(error?.code == "InvalidRange")
        }
    }
}
