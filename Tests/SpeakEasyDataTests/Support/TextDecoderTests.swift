import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// The encodings Excel writes besides UTF-8, decoded as Python's codecs decode them (issue 48).
@Suite("text decoding: UTF-16, Windows-1252, Latin-1")
struct TextDecoderTests {
    /// What python3 prints for `script` (bytes on stdout).
    static func python(_ script: String) throws -> [UInt8] {
        let run = try ChildProcess.run(
            "/usr/bin/env",
            ["python3", "-c", script],
            environment: ProcessInfo.processInfo.environment
        )
        try #require(run.status == 0, "python3: \(String(decoding: run.stderr, as: UTF8.self))")
        return Array(run.stdout)
    }

    /// `bytes` decoded by a ``TextDecoder`` fed `piece` bytes at a time, so that every code unit and
    /// surrogate pair is also cut between two chunks.
    static func decode(_ bytes: [UInt8], _ encoding: TextEncoding, piece: Int) throws -> [UInt8] {
        var decoder = TextDecoder(encoding)
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            try Array(bytes[start..<end]).withUnsafeBytes { try decoder.decode($0, into: &output) }
            start = end
        }
        try decoder.finish()
        return output
    }

    /// Text with ASCII, Latin-1 letters, characters of Windows-1252's 0x80–0x9F, another plane
    /// (a surrogate pair in UTF-16), and line ends.
    static let text = #"'PartitionKey\tRowKey\tName\r\nspeakers\tr1\tMüller “Café” – 5 € … Šđ 😀 中文\r\n'"#

    @Test(
        "UTF-16 with either byte order mark, and little-endian without, as Python's codec",
        arguments: [1, 2, 3, 5, 4096]
    )
    func utf16(piece: Int) throws {
        let expected = try Self.python("import sys; sys.stdout.buffer.write(\(Self.text).encode('utf-8'))")
        for codec in ["utf-16", "utf-16-le", "utf-16-be"] {
            var bytes = try Self.python("import sys; sys.stdout.buffer.write(\(Self.text).encode('\(codec)'))")
            if codec == "utf-16-be" { bytes = [0xFE, 0xFF] + bytes }
            #expect(try Self.decode(bytes, .utf16, piece: piece) == expected, "\(codec)")
        }
    }

    @Test("Windows-1252 as Python's cp1252, and its five undefined bytes as WHATWG maps them")
    func windows1252() throws {
        // Python refuses 0x81, 0x8D, 0x8F, 0x90 and 0x9D; the WHATWG table (browsers, Excel's
        // readers) maps each to the C1 control of the same number, which this handler does.
        let expected = try Self.python(
            """
            import codecs, sys
            codecs.register_error('c1', lambda e: (chr(e.object[e.start]), e.start + 1))
            sys.stdout.buffer.write(bytes(range(256)).decode('cp1252', 'c1').encode('utf-8'))
            """
        )
        #expect(try Self.decode(Array(0...255), .windows1252, piece: 7) == expected)
        #expect(TextEncoding.windows1252Character(0x80) == "€" && TextEncoding.windows1252Character(0x9F) == "Ÿ")
    }

    @Test("Latin-1 as Python's latin-1")
    func latin1() throws {
        let expected = try Self.python(
            "import sys; sys.stdout.buffer.write(bytes(range(256)).decode('latin-1').encode('utf-8'))"
        )
        #expect(try Self.decode(Array(0...255), .latin1, piece: 3) == expected)
    }

    @Test("bad UTF-16 is an error at its byte, as Python's codec refuses it")
    func badUTF16() throws {
        let cases: [(bytes: [UInt8], offset: Int64, reason: String)] = [
            ([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xDC, 0x41, 0x00], 4, "a lone surrogate (0xDC00)"),
            ([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xD8, 0x41, 0x00], 4, "a lone surrogate (0xD800)"),
            ([0xFF, 0xFE, 0x41, 0x00, 0x42], 4, "the input ends in an odd byte"),
            ([0xFF, 0xFE, 0x3D, 0xD8], 2, "the input ends in a high surrogate with no low surrogate after it"),
        ]
        for (bytes, offset, reason) in cases {
            for piece in [1, 2, 3, 64] {
                #expect(throws: TextDecoder.Failure(offset: offset, reason: reason)) {
                    try Self.decode(bytes, .utf16, piece: piece)
                }
            }
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            let refused = try Self.python(
                "import sys\ntry: bytes.fromhex('\(hex)').decode('utf-16'); print('read')\nexcept UnicodeDecodeError: print('refused')"
            )
            #expect(String(decoding: refused, as: UTF8.self) == "refused\n", "\(hex)")
        }
    }

    @Test("a decoded input hands out UTF-8 in any read size, peeks, and counts the file's bytes")
    func decodedInput() throws {
        let utf16 = try Self.python("import sys; sys.stdout.buffer.write((\(Self.text) * 3000).encode('utf-16'))")
        let expected = try Self.python("import sys; sys.stdout.buffer.write((\(Self.text) * 3000).encode('utf-8'))")
        for size in [1, 7, 4096, 1 << 20] {
            let input = ByteInput(decoding: ByteInput(name: "excel.txt", bytes: utf16), from: .utf16)
            #expect(try input.peek(count: 10) == Array(expected.prefix(10)))
            #expect(input.bytesRead == 0)
            var output: [UInt8] = []
            while try input.read(appendingTo: &output, maximum: size) > 0 {
                #expect(input.bytesRead <= Int64(utf16.count))
            }
            #expect(output == expected)
            #expect(input.bytesRead == Int64(utf16.count), "progress ends at the file's size")
        }
    }
}
