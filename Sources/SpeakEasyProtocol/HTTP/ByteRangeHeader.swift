package import SpeakEasyStorage

/// The byte range a blob read asks for, from `x-ms-range` or `Range`.
///
/// Azure accepts two forms (its "Specifying the range header" page): `bytes=first-last` and, since
/// 2011-08-18, `bytes=first-`. A suffix range (`bytes=-500`) is not among them; Azurite's parser
/// reads its missing start as NaN and serves the whole blob, so we treat it, like every other
/// malformed value (a second range, a signed number, a last byte before the first, a number past
/// `Int`), as no range at all: the whole blob with 200, which is what Azure does with a range it
/// cannot read.
package enum ByteRangeHeader {
    /// The range of a request: `x-ms-range` wins over `Range` when both are sent, even when it is
    /// malformed (then the read is whole). Nil: read the whole blob.
    package static func byteRange(in head: RequestHead) -> ByteRange? {
        parse(head.header("x-ms-range") ?? head.header("Range"))
    }

    /// Parses one header value; nil when there is none or it is not one of the two forms Azure accepts.
    package static func parse(_ header: String?) -> ByteRange? {
        guard let header else { return nil }
        let text = Substring(header).drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("bytes=") else { return nil }
        var spec = text.dropFirst("bytes=".count)
        while let last = spec.last, last == " " || last == "\t" { spec.removeLast() }
        guard let dash = spec.firstIndex(of: "-"), let first = number(spec[..<dash]) else { return nil }
        let lastText = spec[spec.index(after: dash)...]
        if lastText.isEmpty { return ByteRange(first: first) }
        guard let last = number(lastText), last >= first else { return nil }
        return ByteRange(first: first, last: last)
    }

    /// Plain decimal digits only (no sign, no spaces, no overflow).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 19,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }
}
