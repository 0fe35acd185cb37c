import SpeakEasyCore

/// A growable buffer of input bytes, read into without zeroing first, for the splitters
/// (``InputSplitter``) that look ahead in an input before cutting a piece off its front.
///
/// It owns its memory, and frees it when it goes.
final class ReadWindow {
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private(set) var count = 0

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Reads up to `maximum` bytes from `input` onto the end; how many (0 at the end of the input).
    func read(from input: ByteInput, maximum: Int) throws(FileError) -> Int {
        if storage.count - count < maximum {
            let larger = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(storage.count * 2, count + maximum),
                alignment: 16
            )
            if count > 0 { larger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: count) }
            storage.deallocate()
            storage = larger
        }
        let length = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + maximum)]))
        count += length
        return length
    }

    /// Drops the first `length` bytes.
    func drop(_ length: Int) {
        if length < count {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + length, byteCount: count - length)
        }
        count -= length
    }

    deinit { storage.deallocate() }
}
