/// JSON's white space, skipped with its line breaks counted: one loop for the object scanner and the
/// stream reader, so that both count lines alike.
enum JSONWhitespace {
    /// The index of the first byte at or after `position` that is not white space (the end if none);
    /// `line` counts the line breaks passed, and `lineStart` is where the last one ended.
    @inline(__always)
    static func skip(_ bytes: UnsafeRawBufferPointer, from position: Int, line: inout Int, lineStart: inout Int) -> Int
    {
        var position = position
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            default: return position
            }
        }
        return position
    }
}
