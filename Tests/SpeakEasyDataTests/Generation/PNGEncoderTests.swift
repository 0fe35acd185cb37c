import SpeakEasyData
import Testing

/// PNG structure checked independently of the encoder: chunk layout, CRC-32, zlib stored blocks, Adler-32.
@Suite("PNGEncoder and PlaceholderPhoto")
struct PNGEncoderTests {
    struct Chunk {
        var type: String
        var data: [UInt8]
        var crc: UInt32
    }

    /// Table-driven CRC-32 (ISO-HDLC, as PNG uses), written here so the test does not trust the encoder's.
    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        try #require(png.count >= 8 && png[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        var chunks: [Chunk] = []
        var offset = 8
        while offset < png.count {
            try #require(offset + 12 <= png.count)
            let length = Int(bigEndian(png[offset..<offset + 4]))
            try #require(offset + 12 + length <= png.count)
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(png[offset + 8..<offset + 8 + length])
            let crc = bigEndian(png[offset + 8 + length..<offset + 12 + length])
            chunks.append(Chunk(type: type, data: data, crc: crc))
            offset += 12 + length
        }
        return chunks
    }

    /// Inflates a zlib stream made only of stored blocks, checking header and Adler-32.
    static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
        try #require(stream.count >= 6)
        #expect(stream[0] & 0x0F == 8, "deflate")
        #expect((UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0, "zlib header check")
        var out: [UInt8] = []
        var offset = 2
        var final = false
        while !final {
            try #require(offset + 5 <= stream.count)
            final = stream[offset] & 1 == 1
            try #require(stream[offset] >> 1 & 3 == 0, "stored block")
            let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
            let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
            try #require(length ^ complement == 0xFFFF)
            offset += 5
            try #require(offset + length <= stream.count)
            out += stream[offset..<offset + length]
            offset += length
        }
        try #require(offset + 4 == stream.count)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in out {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        #expect(bigEndian(stream[offset...]) == b << 16 | a, "Adler-32")
        return out
    }

    @Test("the test's own CRC-32 matches the standard check value")
    func crcCheckValue() {
        #expect(Self.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Self.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test("a small image has IHDR, PLTE, IDAT, IEND with valid CRCs and the right pixels")
    func smallImage() throws {
        // 10×2: row 0 alternates, row 1 only the last pixel set (tests the padding of a 10-pixel row).
        let pixels = (0..<10).map { $0 % 2 == 0 } + (0..<10).map { $0 == 9 }
        let png = PNGEncoder.encode(
            width: 10,
            height: 2,
            pixels: pixels,
            background: (1, 2, 3),
            foreground: (250, 251, 252)
        )
        #expect(ImageFormat(sniffing: png) == .png)
        let chunks = try Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        for chunk in chunks {
            #expect(chunk.crc == Self.crc32(Array(chunk.type.utf8) + chunk.data), "CRC of \(chunk.type)")
        }
        let header = chunks[0].data
        #expect(header.count == 13)
        #expect(Self.bigEndian(header[0..<4]) == 10)
        #expect(Self.bigEndian(header[4..<8]) == 2)
        #expect(Array(header[8...]) == [1, 3, 0, 0, 0])
        #expect(chunks[1].data == [1, 2, 3, 250, 251, 252])
        #expect(chunks[3].data.isEmpty)
        let raw = try Self.inflateStored(chunks[2].data)
        #expect(raw == [0, 0b1010_1010, 0b1000_0000, 0, 0b0000_0000, 0b0100_0000])
    }

    @Test("an image larger than one stored block spans several blocks")
    func multipleBlocks() throws {
        var random = SplitMix64(seed: 5)
        let width = 2_048
        let height = 300
        let pixels = (0..<width * height).map { _ in random.next() & 1 == 1 }
        let png = PNGEncoder.encode(
            width: width,
            height: height,
            pixels: pixels,
            background: (0, 0, 0),
            foreground: (255, 255, 255)
        )
        let chunks = try Self.chunks(png)
        #expect(chunks.allSatisfy { $0.crc == Self.crc32(Array($0.type.utf8) + $0.data) })
        let raw = try Self.inflateStored(chunks[2].data)
        #expect(raw.count == (width / 8 + 1) * height)
        #expect(raw[0] == 0 && raw[width / 8 + 1] == 0)
        let firstByte = (0..<8).reduce(UInt8(0)) { $0 | (pixels[$1] ? 0x80 >> UInt8($1) : 0) }
        #expect(raw[1] == firstByte)
    }

    @Test(
        "placeholder photos are valid 96×96 PNGs with initials drawn",
        arguments: ["Ada Lovelace", "Grace Hopper", "Zoe Müller", "x", "", "Jean-Luc Picard Jr"]
    )
    func placeholder(name: String) throws {
        let png = PlaceholderPhoto.png(forName: name)
        #expect(ImageFormat(sniffing: png) == .png)
        let chunks = try Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        let header = try #require(chunks.first)
        #expect(header.crc == Self.crc32(Array("IHDR".utf8) + header.data), "IHDR CRC")
        #expect(chunks.allSatisfy { $0.crc == Self.crc32(Array($0.type.utf8) + $0.data) })
        #expect(Self.bigEndian(header.data[0..<4]) == 96 && Self.bigEndian(header.data[4..<8]) == 96)
        let raw = try Self.inflateStored(chunks[2].data)
        #expect(raw.count == (96 / 8 + 1) * 96)
        let foreground = raw.enumerated().filter { $0.offset % 13 != 0 }.map { $0.element.nonzeroBitCount }.reduce(0, +)
        #expect(name.isEmpty ? foreground == 0 : foreground > 0)
        #expect(Array(chunks[1].data[3..<6]) == [255, 255, 255])
    }

    @Test("a speaker keeps the same photo whatever else happens; different names differ")
    func deterministic() {
        #expect(PlaceholderPhoto.png(forName: "Ada Lovelace") == PlaceholderPhoto.png(forName: "Ada Lovelace"))
        #expect(PlaceholderPhoto.png(forName: "Ada Lovelace") != PlaceholderPhoto.png(forName: "Alan Turing"))
    }

    /// Sample catalogs are user data: a name whose first letter upper-cases to two letters
    /// ("ß" → "SS", "ﬁ" → "FI") must not trap in `Character(_:)`.
    @Test("a name whose initial upper-cases to two letters does not crash")
    func multiLetterUppercase() async {
        await #expect(processExitsWith: .success) {
            _ = PlaceholderPhoto.png(forName: "ßtefan Müller")
        }
        await #expect(processExitsWith: .success) {
            _ = PlaceholderPhoto.png(forName: "ﬁona Lee")
        }
    }
}
