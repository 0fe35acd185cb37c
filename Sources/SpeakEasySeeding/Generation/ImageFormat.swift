/// The photo formats an iPhone app displays, recognised by their bytes, not their file name.
package enum ImageFormat: String, Sendable {
    case jpeg, png

    package var contentType: String { "image/\(rawValue)" }
    package var fileExtension: String { self == .jpeg ? "jpg" : "png" }

    /// Recognises a complete JPEG (SOI … EOI) or PNG (signature, IHDR first, IEND last); nil otherwise.
    package init?(sniffing bytes: [UInt8]) {
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF,
            bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
        {
            self = .jpeg
        } else if bytes.count >= 57, bytes[0..<8].elementsEqual(PNGEncoder.signature),
            bytes[12..<16].elementsEqual("IHDR".utf8),
            bytes[(bytes.count - 8)..<(bytes.count - 4)].elementsEqual("IEND".utf8)
        {
            self = .png
        } else {
            return nil
        }
    }
}
