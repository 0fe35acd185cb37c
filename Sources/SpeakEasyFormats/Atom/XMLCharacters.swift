internal import CLibXML2
internal import SpeakEasyCore

/// What XML 1.0 can carry, checked before anything is written.
///
/// xmlTextWriter escapes `< > & "` and CR, but writes other control characters as they are, which
/// makes a document no parser accepts; the Azure service cannot carry them in Atom either. So the
/// formatter refuses them up front, naming the entity and property.
enum XMLCharacters {
    /// The first character of `text` that XML 1.0 cannot represent, if any: C0 controls other than
    /// tab, LF and CR, and U+FFFE/U+FFFF (surrogates cannot occur in a Swift `String`).
    static func firstForbidden(in text: String) -> Unicode.Scalar? {
        // Fast pass on bytes: only bytes < 0x20 or a 0xEF lead byte can start a forbidden character.
        let suspicious =
            text.utf8.withContiguousStorageIfAvailable(mayHoldForbidden)
            ?? text.utf8.contains { $0 == 0xEF || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) }
        guard suspicious else { return nil }
        return text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case ..<0x20, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }

    /// Whether `bytes` hold a control character other than tab, LF and CR, or a 0xEF lead byte (of
    /// U+F000...U+FFFF, where U+FFFE and U+FFFF are): eight bytes at a time, since the text written is
    /// mostly long descriptions and bios with neither (a byte at a time, this was an eighth of
    /// `export --format atom`'s time).
    private static func mayHoldForbidden(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let leads = SWAR.broadcast(0xEF)
        var index = 0
        while true {
            index = SWAR.firstMarkedByte(in: UnsafeRawBufferPointer(bytes), from: index) { word in
                SWAR.bytes(word, below: 0x20) | SWAR.bytes(word, equalTo: leads)
            }
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            if byte == 0xEF || (byte != 0x09 && byte != 0x0A && byte != 0x0D) { return true }
            index += 1  // tab, LF or CR
        }
    }

    /// Whether `name` can be a property element's local name: an XML NCName (no colon), by libxml2's
    /// own rules, which are the ones its parser applies when the document is read back.
    static func isElementName(_ name: String) -> Bool {
        // libxml2 reads the name as a C string: one with a NUL would be checked, and written, only up
        // to it (found by Fuzz/run json: a property 'I\u0000mageUrl' came back from Atom as 'I').
        !name.isEmpty && !name.utf8.contains(0) && withXMLString(name) { xmlValidateNCName($0, 0) == 0 }
    }
}
