import Foundation
import SpeakEasyData
import Testing

@Suite("ImageFormat sniffing")
struct ImageFormatTests {
    static let png = PNGEncoder.encode(
        width: 1,
        height: 1,
        pixels: [true],
        background: (0, 0, 0),
        foreground: (1, 1, 1)
    )

    @Test(
        "the sample photos are JPEGs",
        arguments: ["BJohnson", "BTubalinal", "CJones", "DOrlova", "EGardner", "MMorse", "MOmar", "TNielsen"]
    )
    func samplePhotos(name: String) throws {
        let bytes = try readFile(TestPaths.samples + "/photos/\(name).jpg")
        #expect(ImageFormat(sniffing: bytes) == .jpeg)
    }

    @Test("an encoded PNG is a PNG")
    func encodedPNG() {
        #expect(ImageFormat(sniffing: Self.png) == .png)
    }

    @Test("content types and file extensions")
    func names() {
        #expect(ImageFormat.jpeg.contentType == "image/jpeg")
        #expect(ImageFormat.png.contentType == "image/png")
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
        #expect(ImageFormat.png.fileExtension == "png")
    }

    static let nonImages: [(String, [UInt8])] = [
        ("empty", []),
        ("text", Array("hello, world".utf8)),
        ("HTML", Array("<!DOCTYPE html><html></html>".utf8)),
        ("GIF", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 60)),
        ("PDF", Array("%PDF-1.7\n%%EOF".utf8)),
        ("PNG signature only", Array(png[0..<8])),
        ("PNG without IEND", Array(png.dropLast(12))),
        ("PNG with a corrupt signature", [0x88] + Array(png.dropFirst())),
        ("JPEG start only", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]),
        ("JPEG without its end marker", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]),
        ("JPEG markers alone", [0xFF, 0xD8]),
    ]

    @Test("non-images and truncated images are rejected", arguments: nonImages)
    func rejects(name: String, bytes: [UInt8]) {
        #expect(ImageFormat(sniffing: bytes) == nil, "\(name)")
    }

    @Test("a JPEG cut short is rejected")
    func truncatedJPEG() throws {
        let bytes = try readFile(TestPaths.samples + "/photos/MOmar.jpg")
        #expect(ImageFormat(sniffing: Array(bytes.dropLast(100))) == nil)
    }
}
