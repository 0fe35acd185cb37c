/// A buffer aligned to a disk block, where an output's bytes gather into whole blocks for a write
/// that bypasses the page cache (`O_DIRECT`), which takes only whole, aligned blocks
/// (``OutputFile``). Unchecked: one thread at a time has it, handed from one to the other through
/// ``DirectWriter``'s queues.
package final class AlignedStage: @unchecked Sendable {
    /// The block size a direct write must keep to: 4 KiB, which also satisfies 512-byte devices.
    package static let alignment = 4096

    package let capacity: Int
    package let base: UnsafeMutableRawPointer
    package private(set) var count = 0

    /// `capacity` is rounded up to whole blocks.
    package init(capacity: Int) {
        self.capacity = (capacity + Self.alignment - 1) / Self.alignment * Self.alignment
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: Self.alignment)
    }

    deinit { base.deallocate() }

    package var isFull: Bool { count == capacity }
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Copies as much of `bytes` as there is room for; how much that was.
    package func fill(from bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(bytes.count, capacity - count)
        if taken > 0 { (base + count).copyMemory(from: bytes.baseAddress!, byteCount: taken) }
        count += taken
        return taken
    }

    package func empty() { count = 0 }
}
