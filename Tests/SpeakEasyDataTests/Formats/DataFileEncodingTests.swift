import SpeakEasyData
import TestSupport
import Testing

/// Files as Excel and other tools save them: tab-separated `.tsv`, UTF-16 "Unicode Text", and
/// Windows-1252 CSV, read by what they are, or told what they look like (issue 48). The files are
/// made by python3's codecs.
@Suite("data files: .tsv, UTF-16 and Windows-1252")
struct DataFileEncodingTests {
    /// Speakers with text that differs between the encodings; `\t` separated.
    static let rows =
        #"'PartitionKey\tRowKey\tName\tTitle\r\nspeakers\ts1\tJosé Müller\t“Café” – 5 €\r\nspeakers\ts2\tŠárka\t…\r\n'"#

    static let expected = [
        [Property("Name", .string("José Müller")), Property("Title", .string("“Café” – 5 €"))],
        [Property("Name", .string("Šárka")), Property("Title", .string("…"))],
    ]

    /// Writes `rows` (with `,` for tabs when `commas`) in Python's `codec` to `path`.
    static func write(_ path: String, codec: String, commas: Bool = false) throws {
        let text = commas ? Self.rows + ".replace('\\t', ',')" : Self.rows
        try writeFile(
            path,
            try TextDecoderTests.python("import sys; sys.stdout.buffer.write((\(text)).encode('\(codec)'))")
        )
    }

    /// The properties of every entity of `path`, read whole and in pieces on several threads.
    static func read(
        _ path: String,
        _ options: EntityFiles.ReadOptions = EntityFiles.ReadOptions()
    ) throws -> [[Property]] {
        var opened = try EntityFiles.open(path, options: options)
        var whole: [[Property]] = []
        while let entity = try opened.reader.next() { whole.append(entity.properties) }
        var reader = PrefetchingFileReader(paths: [path], options: options)
        (reader.pieceReaders, reader.pieceSize) = (3, 16)
        var pieces: [[Property]] = []
        try reader.forEach { entity, _ in pieces.append(entity.properties) }
        #expect(pieces == whole, "in pieces")
        return whole
    }

    static func error(_ path: String, _ options: EntityFiles.ReadOptions = EntityFiles.ReadOptions()) -> FormatError? {
        do {
            _ = try read(path, options)
            return nil
        } catch {
            return error as? FormatError
        }
    }

    @Test(".tsv is tab-separated unless a delimiter is given")
    func tsv() throws {
        try withTemporaryDirectorySync { directory in
            try Self.write(directory + "/speakers.tsv", codec: "utf-8")
            #expect(try Self.read(directory + "/speakers.tsv") == Self.expected)
            let comma = Self.error(directory + "/speakers.tsv", EntityFiles.ReadOptions(delimiter: UInt8(ascii: ",")))
            #expect(comma?.reason == "the header looks tab-separated")
            #expect(comma?.toolAdvice == ": use --delimiter tab")
            try Self.write(directory + "/commas.tsv", codec: "utf-8", commas: true)
            #expect(
                try Self.read(directory + "/commas.tsv", EntityFiles.ReadOptions(delimiter: UInt8(ascii: ",")))
                    == Self.expected
            )
        }
    }

    @Test("Excel's Unicode Text: UTF-16 by its byte order mark, tab-separated, whatever the extension")
    func excelUnicodeText() throws {
        try withTemporaryDirectorySync { directory in
            for (name, codec) in [("speakers.txt", "utf-16"), ("speakers", "utf-16"), ("speakers.csv", "utf-16")] {
                try Self.write(directory + "/" + name, codec: codec)
                #expect(try Self.read(directory + "/" + name) == Self.expected, "\(name)")
            }
            // Big-endian with its mark, and little-endian without one when named.
            let bigEndian = try TextDecoderTests.python(
                "import sys; sys.stdout.buffer.write(b'\\xfe\\xff' + (\(Self.rows)).encode('utf-16-be'))"
            )
            try writeFile(directory + "/be.txt", bigEndian)
            #expect(try Self.read(directory + "/be.txt") == Self.expected)
            try Self.write(directory + "/bare.txt", codec: "utf-16-le")
            let bare = Self.error(directory + "/bare.txt")
            #expect(
                bare.map { $0.reason + $0.toolAdvice }?
                    .contains("looks like UTF-16 without a byte order mark; read it with --encoding utf-16") == true,
                "\(String(describing: bare))"
            )
            #expect(try Self.read(directory + "/bare.txt", EntityFiles.ReadOptions(encoding: .utf16)) == Self.expected)
            // Told UTF-8, the mark is no UTF-8, and the error says what it is.
            let told = Self.error(directory + "/speakers.txt", EntityFiles.ReadOptions(encoding: .utf8))
            #expect(
                told?.reason.contains("invalid UTF-8 (byte 0xFF); the file starts with UTF-16's byte order mark")
                    == true,
                "\(String(describing: told))"
            )
        }
    }

    @Test("a UTF-16 JSON file is sniffed as JSON and read")
    func utf16JSON() throws {
        try withTemporaryDirectorySync { directory in
            let json = try TextDecoderTests.python(
                #"import sys; sys.stdout.buffer.write('{"value":[{"PartitionKey":"speakers","RowKey":"s1","Name":"José 😀"}]}'.encode('utf-16'))"#
            )
            try writeFile(directory + "/export", json)
            #expect(try Self.read(directory + "/export") == [[Property("Name", .string("José 😀"))]])
        }
    }

    @Test("Windows-1252 and Latin-1 CSV with --encoding; without, the error says what the file looks like")
    func singleByte() throws {
        try withTemporaryDirectorySync { directory in
            try Self.write(directory + "/excel.csv", codec: "cp1252", commas: true)
            let error = Self.error(directory + "/excel.csv")
            #expect(error?.line == 2 && error?.column == 16, "\(String(describing: error))")
            // The library's words, then the tools' advice, which only the tools print.
            #expect(
                error?.reason
                    == "invalid UTF-8 (byte 0xE9); the file looks like Windows-1252 (Excel's CSV on Windows), where 0xE9 is 'é'"
            )
            #expect(error?.toolAdvice == ": read it with --encoding windows-1252")
            #expect(
                try Self.read(directory + "/excel.csv", EntityFiles.ReadOptions(encoding: .windows1252))
                    == Self.expected
            )

            // Latin-1 has none of 0x80–0x9F's characters: only its own.
            let latin = #"'PartitionKey,RowKey,Name\r\nspeakers,s1,José Müller ¿½\r\n'"#
            try writeFile(
                directory + "/latin.csv",
                try TextDecoderTests.python("import sys; sys.stdout.buffer.write((\(latin)).encode('latin-1'))")
            )
            #expect(
                try Self.read(directory + "/latin.csv", EntityFiles.ReadOptions(encoding: .latin1)) == [
                    [Property("Name", .string("José Müller ¿½"))]
                ]
            )
        }
    }

    @Test("Atom names its own encoding: --encoding does not apply to it")
    func atom() throws {
        try withTemporaryDirectorySync { directory in
            try writeFile(directory + "/feed.atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>")
            let error = Self.error(directory + "/feed.atom", EntityFiles.ReadOptions(encoding: .windows1252))
            #expect(
                error?.reason
                    == "--encoding windows-1252 does not apply to Atom, which names its own encoding as XML does"
            )
        }
    }
}
