import CLISupport
import SpeakEasyData
import Testing

/// Malformed CSV is reported with the file, line and column, as exit status 65.
@Suite("CSV reader: syntax errors with line and column")
struct CSVSyntaxErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var line: Int
        var column: Int
        var reason: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, line: Int, column: Int, reason: String) {
            self.init(name, Array(text.utf8), line: line, column: column, reason: reason)
        }

        init(_ name: String, _ bytes: [UInt8], line: Int, column: Int, reason: String) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.column = column
            self.reason = reason
        }
    }

    static let header = "PartitionKey,RowKey,Name\r\n"

    static let cases: [Case] = [
        Case(
            "unterminated quote names where it opened",
            header + "p,r,\"abc\r\nmore\r\n",
            line: 2,
            column: 5,
            reason: "the quote opened at line 2, column 5 is never closed"
        ),
        Case("unterminated quote in the header", "PartitionKey,\"RowKey", line: 1, column: 14, reason: "never closed"),
        Case(
            "quote inside an unquoted field",
            header + "p,r,ab\"c\r\n",
            line: 2,
            column: 7,
            reason: "a quote inside an unquoted field"
        ),
        Case(
            "bytes after a closing quote",
            header + "p,r,\"ab\"c\r\n",
            line: 2,
            column: 9,
            reason: "after the closing quote"
        ),
        Case(
            "space after a closing quote",
            header + "p,\"r\" ,x\r\n",
            line: 2,
            column: 6,
            reason: "after the closing quote"
        ),
        Case(
            "too many fields",
            header + "p,r,x,y\r\n",
            line: 2,
            column: 7,
            reason: "this row has 4 fields but the header has 3"
        ),
        Case(
            "too few fields: located at the line end",
            header + "p,r\r\n",
            line: 2,
            column: 4,
            reason: "this row has 2 fields but the header has 3"
        ),
        Case(
            "too few fields on a later line, after a multi-line field",
            header + "p,r,\"a\nb\"\r\np,r\r\n",
            line: 4,
            column: 4,
            reason: "2 fields"
        ),
        Case(
            "invalid UTF-8 in a value",
            Array((header + "p,r,ab").utf8) + [0xC3, 0x28] + Array("\r\n".utf8),
            line: 2,
            column: 7,
            reason: "invalid UTF-8"
        ),
        Case(
            "invalid UTF-8 in a quoted value on its second line",
            Array((header + "p,r,\"a\nbc").utf8) + [0xFF] + Array("\"\r\n".utf8),
            line: 3,
            column: 3,
            reason: "invalid UTF-8 (byte 0xFF)"
        ),
        Case(
            "truncated UTF-8 sequence",
            Array((header + "p,r,x").utf8) + [0xF0, 0x9F, 0x98],
            line: 2,
            column: 6,
            reason: "invalid UTF-8"
        ),
        Case(
            "a surrogate encoded in UTF-8",
            Array((header + "p,").utf8) + [0xED, 0xA0, 0x80] + Array(",x\r\n".utf8),
            line: 2,
            column: 3,
            reason: "invalid UTF-8"
        ),
        Case(
            "a header of 1,025 columns",
            "PartitionKey,RowKey," + String(repeating: "a,", count: 1022) + "b\r\np,r\r\n",
            line: 1,
            column: 2065,
            reason: "more than 1024 fields"
        ),
        Case(
            "invalid UTF-8 in the header",
            [0x41, 0x80] + Array(",PartitionKey,RowKey\r\n".utf8),
            line: 1,
            column: 2,
            reason: "invalid UTF-8"
        ),
    ]

    @Test("malformed CSV is located", arguments: cases)
    func located(_ testCase: Case) throws {
        for chunkSize in [1, 3, CSVRecordScanner.defaultChunkSize] {
            let error = try #require(csvReadError(testCase.bytes, chunkSize: chunkSize))
            #expect(error.source == "test.csv")
            #expect(error.line == testCase.line, "\(error)")
            #expect(error.column == testCase.column, "\(error)")
            #expect(error.reason.contains(testCase.reason), "\(error)")
            #expect(error.kind == .malformedInput)
            #expect(ExitStatus.code(for: error.kind) == 65)
        }
    }

    @Test("a header of 2.9 million short column names is refused at the bound, not read into memory (fuzzer finding)")
    func hugeHeader() throws {
        let header =
            "PartitionKey,RowKey," + (0..<2_900_000).map { "c\($0 % 10)" }.joined(separator: ",") + "\r\np,r\r\n"
        let error = try #require(csvReadError(header))
        #expect(error.reason.contains("more than \(CSVRecordScanner.maximumFields) fields"), "\(error)")
        #expect(error.line == 1)
    }

    @Test("the error prints as file:line:column: reason")
    func printed() throws {
        let error = try #require(csvReadError(Self.header + "p,r,ab\"c\r\n"))
        #expect(error.description.hasPrefix("test.csv:2:7: a quote inside an unquoted field"))
    }
}
