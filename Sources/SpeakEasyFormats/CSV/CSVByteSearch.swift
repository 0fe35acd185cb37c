import SpeakEasyCore

/// Word-at-a-time searches for the few bytes that matter to CSV.
///
/// CSV fields are mostly long runs of ordinary text (a 1,000-character description, a bio), so both
/// the reader and the formatter spend their time looking for the next delimiter, quote or line end.
/// Checking eight bytes per step (``SWAR``) makes that several times faster than a byte loop, without
/// platform intrinsics.
enum CSVByteSearch {
    /// The index of the first delimiter, `"`, CR or LF in `bytes[from..<to]`, or `to`: where an
    /// unquoted field ends.
    ///
    /// Every byte passed over (and a few after the match) is or-ed into `seen`: when its high bits
    /// stay clear (``isASCII(_:)``) the field is ASCII and needs no UTF-8 validation, for the cost of
    /// one instruction per word.
    @inline(__always)
    static func firstSpecial(
        _ bytes: UnsafePointer<UInt8>,
        from: Int,
        to end: Int,
        delimiter: UInt8,
        seen: inout UInt64
    ) -> Int {
        let delimiters = SWAR.broadcast(delimiter)
        let quotes = SWAR.broadcast(0x22)
        var index = from
        while index + 8 <= end {
            index = SWAR.firstMarked(in: bytes, from: index, to: end) { word in
                seen |= word
                return SWAR.bytes(word, equalTo: delimiters) | SWAR.bytes(word, equalTo: quotes)
                    | SWAR.bytes(word, below: 0x0E)
            }
            // Fewer than eight bytes left: the byte loop below. Else a candidate: tabs and other
            // control bytes below CR are candidates too, so check the byte itself.
            guard index + 8 <= end else { break }
            if isSpecial(bytes[index], delimiter: delimiter) { return index }
            index += 1
        }
        while index < end, !isSpecial(bytes[index], delimiter: delimiter) {
            seen |= UInt64(bytes[index])
            index += 1
        }
        return index
    }

    /// Whether bytes or-ed together (see ``firstSpecial(_:from:to:delimiter:seen:)``) were all ASCII.
    @inline(__always)
    static func isASCII(_ seen: UInt64) -> Bool { seen & SWAR.highs == 0 }

    @inline(__always)
    static func isSpecial(_ byte: UInt8, delimiter: UInt8) -> Bool {
        byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D
    }

    /// The index of the first `"` in `bytes[from..<to]`, or `to`: inside a quoted field only the quote
    /// matters. The line feeds before it are counted into `lineFeeds`, and `lastLineFeed` is set to
    /// the index of the last of them (left as it is when there is none). Counted a word at a time, not
    /// stopped at: prose with a line break every 70 bytes spent a fifth of the scan's stops on them.
    /// `seen` as for ``firstSpecial(_:from:to:delimiter:seen:)``.
    @inline(__always)
    static func firstQuote(
        _ bytes: UnsafePointer<UInt8>,
        from: Int,
        to end: Int,
        seen: inout UInt64,
        lineFeeds: inout Int,
        lastLineFeed: inout Int
    ) -> Int {
        let quotes = SWAR.broadcast(0x22)
        let newlines = SWAR.broadcast(0x0A)
        var index = from
        while index + 8 <= end {
            let word = UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            seen |= word
            let quote = SWAR.bytes(word, equalTo: quotes)
            // Most words hold no line feed: the exact count only for those that may.
            if SWAR.bytes(word, equalTo: newlines) != 0 {
                // The line feeds below the first quote: the bits under its lowest bit (all, if none).
                let feeds = SWAR.exactBytes(word, equalTo: newlines) & ((quote & (0 &- quote)) &- 1)
                lineFeeds += SWAR.countMarked(feeds)
                if feeds != 0 { lastLineFeed = index + (63 - feeds.leadingZeroBitCount) >> 3 }
            }
            if quote != 0 { return index + quote.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == 0x22 { return index }
            seen |= UInt64(byte)
            if byte == 0x0A {
                lineFeeds += 1
                lastLineFeed = index
            }
            index += 1
        }
        return index
    }

    /// The offset of the first byte that starts an invalid UTF-8 sequence (a stray continuation byte,
    /// an overlong form, a surrogate, a value past U+10FFFF, or a sequence cut short), or nil.
    /// Runs of ASCII, the common case, are skipped eight bytes at a time.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        while index < bytes.count {
            index = SWAR.firstMarked(in: base, from: index, to: bytes.count) { word in word & SWAR.highs }
            guard index < bytes.count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var length = 0
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, secondLow) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, secondHigh) = (3, 0x9F)
            case 0xF0: (length, secondLow) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, secondHigh) = (4, 0x8F)
            default: return index
            }
            guard index + length <= bytes.count, (secondLow...secondHigh).contains(bytes[index + 1]) else {
                return index
            }
            for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}
