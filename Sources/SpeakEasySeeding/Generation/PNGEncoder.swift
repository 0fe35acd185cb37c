/// A minimal PNG writer for two-colour images: palette, 1 bit per pixel, zlib "stored" blocks.
///
/// Placeholder photos are tiny, so skipping compression keeps this free of a zlib dependency while
/// producing files every PNG decoder (and UIImage) reads.
package enum PNGEncoder {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `pixels` (row-major, `true` = foreground) with the two palette colours.
    package static func encode(
        width: Int,
        height: Int,
        pixels: [Bool],
        background: (UInt8, UInt8, UInt8),
        foreground: (UInt8, UInt8, UInt8)
    ) -> [UInt8] {
        precondition(pixels.count == width * height)
        var header = [UInt8]()
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [1, 3, 0, 0, 0]  // bit depth 1, palette, deflate, adaptive filtering, no interlace
        let palette = [background.0, background.1, background.2, foreground.0, foreground.1, foreground.2]

        let rowBytes = (width + 7) / 8
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter type None
            for byteIndex in 0..<rowBytes {
                var byte: UInt8 = 0
                for bit in 0..<8 {
                    let x = byteIndex * 8 + bit
                    if x < width, pixels[y * width + x] { byte |= 0x80 >> UInt8(bit) }
                }
                raw.append(byte)
            }
        }

        var png = signature
        appendChunk("IHDR", header, to: &png)
        appendChunk("PLTE", palette, to: &png)
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// A zlib stream of uncompressed deflate blocks (RFC 1950/1951).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isFinal = offset + length == data.count
            out.append(isFinal ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        appendBigEndian(b << 16 | a, to: &out)
        return out
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typed = Array(type.utf8) + data
        png += typed
        appendBigEndian(crc32(typed), to: &png)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
