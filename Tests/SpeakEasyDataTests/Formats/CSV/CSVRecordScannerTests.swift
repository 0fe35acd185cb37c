import Foundation
import SpeakEasyData
import Testing

/// RFC 4180 records and fields, whatever the chunk boundaries.
@Suite("CSV record scanner")
struct CSVRecordScannerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var records: [[String]]
        var testDescription: String { name }
        init(_ name: String, _ text: String, _ records: [[String]]) {
            self.name = name
            self.text = text
            self.records = records
        }
    }

    static let cases: [Case] = [
        Case("plain fields, CRLF", "a,b,c\r\n1,2,3\r\n", [["a", "b", "c"], ["1", "2", "3"]]),
        Case("LF line ends", "a,b\n1,2\n", [["a", "b"], ["1", "2"]]),
        Case("lone CR line ends", "a,b\r1,2\r", [["a", "b"], ["1", "2"]]),
        Case("no final line end", "a,b\r\n1,2", [["a", "b"], ["1", "2"]]),
        Case("empty fields", ",a,,\r\n", [["", "a", "", ""]]),
        Case("quoted fields", "\"a\",\"b c\"\r\n", [["a", "b c"]]),
        Case("empty quoted field", "\"\",x\r\n", [["", "x"]]),
        Case("doubled quotes", "\"say \"\"hi\"\"\",\"\"\"\"\r\n", [["say \"hi\"", "\""]]),
        Case(
            "doubled quotes first, last, twice in a row and alone",
            "\"\"\"start\",\"end\"\"\",\"a\"\"\"\"b\",\"\"\"\"\"\"\r\n",
            [["\"start", "end\"", "a\"\"b", "\"\""]]
        ),
        Case(
            "delimiter, CR, LF and CRLF inside quotes",
            "\"a,b\",\"1\r2\",\"x\ny\",\"p\r\nq\"\r\n",
            [["a,b", "1\r2", "x\ny", "p\r\nq"]]
        ),
        Case("quoted field at the end of the input", "a,\"b\"", [["a", "b"]]),
        Case("empty lines are skipped", "\r\n\na,b\r\n\r\n\n1,2\r\n\r\n", [["a", "b"], ["1", "2"]]),
        Case("spaces are kept", " a , b \r\n", [[" a ", " b "]]),
        Case("a BOM is skipped", "\u{FEFF}a,b\r\n", [["a", "b"]]),
        Case("a BOM is only skipped at the start", "a\r\n\u{FEFF}b\r\n", [["a"], ["\u{FEFF}b"]]),
        Case("Unicode outside the BMP", "😀,\"𝄞,x\"\r\n", [["😀", "𝄞,x"]]),
        Case("only a BOM", "\u{FEFF}", []),
        Case("empty input", "", []),
    ]

    @Test("splits records and fields", arguments: cases, csvChunkSizes)
    func splits(_ testCase: Case, chunkSize: Int) throws {
        #expect(try csvRecords(testCase.text, chunkSize: chunkSize) == testCase.records)
    }

    @Test("a tab or semicolon delimiter", arguments: csvChunkSizes)
    func otherDelimiters(chunkSize: Int) throws {
        #expect(
            try csvRecords("a\tb,c\t\"d\te\"\r\n", delimiter: 0x09, chunkSize: chunkSize) == [["a", "b,c", "d\te"]]
        )
        #expect(
            try csvRecords("a;b,c;\"d;e\"\r\n", delimiter: UInt8(ascii: ";"), chunkSize: chunkSize) == [
                ["a", "b,c", "d;e"]
            ]
        )
    }

    @Test("fields start where the input says, lines counted inside quotes")
    func locations() throws {
        let scanner = CSVRecordScanner(
            ByteInput(name: "t.csv", bytes: Array("\u{FEFF}ab,\"c\nd\",e\r\n\nx,y".utf8)),
            chunkSize: 2
        )
        #expect(try scanner.nextRecord())
        #expect(scanner.fields.map { [$0.line, $0.column] } == [[1, 1], [1, 4], [2, 4]])
        #expect(scanner.recordLine == 1)
        #expect(try scanner.nextRecord())
        #expect(scanner.recordLine == 4)
        #expect(scanner.fields.map { [$0.line, $0.column] } == [[4, 1], [4, 3]])
        #expect(try !scanner.nextRecord())
    }

    @Test("a long quoted field split across many reads")
    func longQuotedField() throws {
        let value = String(repeating: "ab\"\"c,\r\n😀", count: 10_000)
        let text = "x,\"" + value + "\",y\r\n"
        let expected = value.replacingOccurrences(of: "\"\"", with: "\"")
        for chunkSize in [7, 4096] {
            #expect(try csvRecords(text, chunkSize: chunkSize) == [["x", expected, "y"]])
        }
    }

    @Test("many records across chunk boundaries")
    func manyRecords() throws {
        var text = ""
        var expected: [[String]] = []
        for index in 0..<3_000 {
            let quoted = "line \(index), \"quoted\"\nnext"
            text += "\(index),\"\(quoted.replacingOccurrences(of: "\"", with: "\"\""))\",plain \(index)\r\n"
            expected.append(["\(index)", quoted, "plain \(index)"])
        }
        for chunkSize in [5, 1000, 65_536] {
            #expect(try csvRecords(text, chunkSize: chunkSize) == expected)
        }
    }

    @Test("a record of exactly the limit is read; a field one byte over is an error at its start")
    func fieldLimit() throws {
        let limit = CSVRecordScanner.maximumRecordSize
        var bytes = Array("a,b\r\nx,".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "z"), count: limit - 2))
        bytes.append(contentsOf: Array("\r\n".utf8))
        let scanner = CSVRecordScanner(ByteInput(name: "big.csv", bytes: bytes), chunkSize: 65_536)
        #expect(try scanner.nextRecord())
        #expect(try scanner.nextRecord())
        #expect(scanner.fields.last?.count == limit - 2)
        #expect(try !scanner.nextRecord())

        for quoted in [false, true] {
            var bytes = Array("a,b\r\nx,".utf8)
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "z"), count: limit + 1))
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            bytes.append(contentsOf: Array(",more\r\n".utf8))
            let error = #expect(throws: FormatError.self) {
                let scanner = CSVRecordScanner(ByteInput(name: "big.csv", bytes: bytes))
                while try scanner.nextRecord() {}
            }
            #expect(error?.line == 2)
            #expect(error?.column == 3)
            #expect(error?.kind == .malformedInput)
            #expect(error?.reason.contains("a field longer than 16 MiB") == true)
        }
    }

    @Test("a record over the limit made of small fields is an error at the record's start")
    func recordLimit() throws {
        var bytes = Array("a\r\n".utf8)
        let field = Array(repeating: UInt8(ascii: "q"), count: 1 << 20) + [UInt8(ascii: ",")]
        for _ in 0..<17 { bytes.append(contentsOf: field) }
        let error = #expect(throws: FormatError.self) {
            let scanner = CSVRecordScanner(ByteInput(name: "big.csv", bytes: bytes))
            while try scanner.nextRecord() {}
        }
        #expect(error?.line == 2)
        #expect(error?.column == 1)
        #expect(error?.reason.contains("a record longer than 16 MiB") == true)
    }
}
