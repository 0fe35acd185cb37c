/// Copies that rewrite a few bytes on the way (escapes, doubled quotes), a word at a time.
extension SWAR {
    /// Copies `source[index..<end]` to `target + written` up to the first byte that `marks` marks (or
    /// `end`), moving `index` and `written` past what it copied: `index` is then at the marked byte.
    ///
    /// Each word is stored whole before it is tested, and only its bytes before the match are kept.
    /// Text that needs a byte rewritten every 15–20 bytes (quotes, line breaks and tabs in prose)
    /// then costs no call to memmove for each short run, nor a second pass over it: a run is copied
    /// as it is searched. So `target + written` must have 8 bytes of room for as long as
    /// `index + 8 <= end`; callers allocate the bytes still to copy plus 8.
    @inlinable @inline(__always)
    package static func copyUnmarked(
        from source: UnsafeRawPointer,
        index: inout Int,
        end: Int,
        to target: UnsafeMutableRawPointer,
        written: inout Int,
        _ marks: (UInt64) -> UInt64
    ) {
        while index + 8 <= end {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            target.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
            let found = marks(word)
            if found != 0 {
                let kept = found.trailingZeroBitCount >> 3
                index += kept
                written += kept
                return
            }
            index += 8
            written += 8
        }
        while index < end {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            if marks(UInt64(byte)) & 0x80 != 0 { return }
            target.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
            index += 1
            written += 1
        }
    }

    /// Appends `bytes` to `out`, rewritten by `table` from the first byte that `marks` marks on (a
    /// byte `table` changes): the run before it, which needs nothing, is found by a word scan and
    /// copied once. Most strings have nothing to escape, and most quoted CSV fields hold a comma,
    /// not a quote: rewriting those from their start took a fifth more CPU.
    @inlinable @inline(__always)
    package static func appendRewriting(
        _ bytes: UnsafeBufferPointer<UInt8>,
        to out: inout [UInt8],
        _ table: ByteRewriteTable,
        from marks: (UInt64) -> UInt64
    ) {
        let first = firstMarkedByte(in: UnsafeRawBufferPointer(bytes), from: 0, marks)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        appendRewriting(bytes, from: first, to: &out, table)
    }

    /// Appends `bytes[from...]` to `out`, each byte replaced by its entry in `table`.
    ///
    /// Every byte is looked up, and its entry stored whole, with no branch: in prose that needs an
    /// escape every 15–20 bytes, stopping at each (the word scan's branch, mispredicted) ran at
    /// 0.45 GB/s; this runs at 1.5 GB/s. So callers first copy the run that needs nothing, which a
    /// word scan finds faster. The text is made in a buffer of its largest size and appended with
    /// one copy: appended to the array run by run, the appends took 18% of CSV→JSON on prose.
    @usableFromInline package static func appendRewriting(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from: Int,
        to out: inout [UInt8],
        _ table: ByteRewriteTable
    ) {
        guard from < bytes.count, let base = bytes.baseAddress else { return }
        let end = bytes.count
        let capacity = (end - from) * table.longest + 8
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let source = UnsafeRawPointer(base)
            let target = UnsafeMutableRawPointer(buffer.baseAddress!)
            var written = 0
            var index = from
            table.entries.withUnsafeBufferPointer { entries in
                func rewrite(_ byte: UInt64, _ written: inout Int) {
                    let entry = entries[Int(byte & 0xFF)]
                    target.storeBytes(of: entry, toByteOffset: written, as: UInt64.self)
                    written &+= Int(entry &>> 56)
                }
                while index + 8 <= end {
                    var word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    for _ in 0..<8 {
                        rewrite(word, &written)
                        word >>= 8
                    }
                    index += 8
                }
                while index < end {
                    rewrite(UInt64(bytes[index]), &written)
                    index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: written))
        }
    }
}

/// What ``SWAR/appendRewriting(_:from:to:_:)`` writes for each byte: up to seven bytes, in the low
/// bytes of an entry (first byte lowest), with their count in the top byte.
@usableFromInline package struct ByteRewriteTable: Sendable {
    let entries: [UInt64]
    /// The most bytes one byte becomes.
    let longest: Int

    /// `rewrite` gives what a byte becomes (at most seven bytes), or nil to keep it.
    package init(_ rewrite: (UInt8) -> [UInt8]?) {
        var longest = 1
        entries = (0...255).map { (byte: Int) -> UInt64 in
            let bytes = rewrite(UInt8(byte)) ?? [UInt8(byte)]
            precondition(bytes.count < 8, "a rewrite is at most seven bytes")
            longest = max(longest, bytes.count)
            var entry = UInt64(bytes.count) << 56
            for (offset, byte) in bytes.enumerated() { entry |= UInt64(byte) << (8 * offset) }
            return entry
        }
        self.longest = longest
    }
}
