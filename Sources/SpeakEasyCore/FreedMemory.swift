#if canImport(Glibc)
internal import CLinux
#endif

/// How a tool's allocator treats the memory it frees: kept for the next allocation, not handed back.
///
/// glibc serves a block of 128 KiB or more with its own `mmap` and unmaps it when freed, then (as
/// blocks are freed) raises that bound, and trims any heap whose free top passes twice it. A page
/// of entities (1.4 MB of JSON, a body collected, a reply assembled) is allocated a thousand times
/// in a read of 1,000,000, and each time it came back from the kernel zeroed, a page fault every
/// 4 KiB. Fixed bounds above a page's size keep that memory in the heap: `export --store …
/// --parallel 16` against `serve` then took 15 times fewer page faults and, with each body copied
/// once (`StorageHTTPClient`), a fifth less CPU, for a few MB more of peak RSS (issue 31).
package enum FreedMemory {
    /// Blocks up to this size come from the heap (glibc's bound starts at 128 KiB).
    package static let heapBlockLimit = 4 << 20
    /// A heap keeps this much free memory at its top before giving any back.
    package static let keptAtTop = 16 << 20

    /// Sets the bounds for the whole process (a tool's choice, not a library's). Elsewhere than glibc,
    /// nothing changes.
    package static func keepForReuse() {
        #if canImport(Glibc)
        // Setting either bound turns off glibc's own adjustment of both, so both are set.
        _ = mallopt(M_MMAP_THRESHOLD, Int32(heapBlockLimit))
        _ = mallopt(M_TRIM_THRESHOLD, Int32(keptAtTop))
        #endif
    }
}
