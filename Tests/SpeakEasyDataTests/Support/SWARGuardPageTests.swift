import SpeakEasyData
import Testing

@testable import SpeakEasyFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The word-at-a-time scanners never read past the end of their buffer.
///
/// A load of eight (or sixteen) bytes that starts in the last few bytes of a buffer reads memory
/// that is not the buffer's. Usually that memory is mapped and the bug goes unseen; when the buffer
/// ends at the end of a mapping, it is a segfault now and then. Here every input ends exactly at a
/// page that cannot be read (`PROT_NONE`), so such a load faults every time, whatever the length of
/// the tail.
@Suite("SWAR scanners stop at the end of their buffer")
struct SWARGuardPageTests {
    /// Two pages or more, the last one unreadable, with `bytes` copied to end exactly where it starts.
    final class GuardedBytes {
        let mapping: UnsafeMutableRawPointer
        let mappingSize: Int
        let start: UnsafeMutablePointer<UInt8>
        let count: Int

        init(_ bytes: [UInt8]) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let dataPages = max(1, (bytes.count + page - 1) / page)
            mappingSize = (dataPages + 1) * page
            guard let raw = mmap(nil, mappingSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                raw != MAP_FAILED
            else {
                fatalError("mmap failed")
            }
            mapping = raw
            let guardPage = raw + dataPages * page
            precondition(mprotect(guardPage, page, PROT_NONE) == 0, "mprotect failed")
            start = (guardPage - bytes.count).assumingMemoryBound(to: UInt8.self)
            count = bytes.count
            bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
        }

        var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
        var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer) }

        deinit { munmap(mapping, mappingSize) }
    }

    /// Every tail length around a word and a vector, with no match (the scan runs to the end) and with
    /// the match in the last byte.
    static let inputs: [[UInt8]] =
        (0...40).flatMap { length -> [[UInt8]] in
            let plain = [UInt8](repeating: UInt8(ascii: "z"), count: length)
            guard length > 0 else { return [plain] }
            return [
                plain, plain.dropLast() + [UInt8(ascii: ",")], plain.dropLast() + [0xC3],
                plain.dropLast() + [UInt8(ascii: "\"")],
            ]
        } + [[UInt8](repeating: UInt8(ascii: "z"), count: 4096 - 3), [UInt8](repeating: 0x0A, count: 4097)]
        // Quotes, line feeds and commas among text, at every offset of a word.
        + (1...64).map { length in
            var random = SystemRandomNumberGenerator()
            return (0..<length).map { _ in
                [0x22, 0x0A, 0x0A, 0x2C, 0x7A, 0x7A, 0xC3, 0x0B][Int.random(in: 0..<8, using: &random)]
            }
        }

    @Test("CSV: the field, quoted-field and UTF-8 scans")
    func csv() {
        for bytes in Self.inputs {
            let guarded = GuardedBytes(bytes)
            let base = UnsafePointer(guarded.start)
            for from in Set([0, max(0, bytes.count - 9), max(0, bytes.count - 1), bytes.count]) {
                var seen: UInt64 = 0
                let special = CSVByteSearch.firstSpecial(
                    base,
                    from: from,
                    to: bytes.count,
                    delimiter: UInt8(ascii: ","),
                    seen: &seen
                )
                #expect(
                    special
                        == (bytes[from...].firstIndex { CSVByteSearch.isSpecial($0, delimiter: UInt8(ascii: ",")) }
                            ?? bytes.count)
                )
                var (lineFeeds, lastLineFeed) = (0, -1)
                let quote = CSVByteSearch.firstQuote(
                    base,
                    from: from,
                    to: bytes.count,
                    seen: &seen,
                    lineFeeds: &lineFeeds,
                    lastLineFeed: &lastLineFeed
                )
                let expected = bytes[from...].firstIndex(of: 0x22) ?? bytes.count
                #expect(quote == expected)
                #expect(lineFeeds == bytes[from..<expected].count { $0 == 0x0A })
                #expect(lastLineFeed == bytes[from..<expected].lastIndex(of: 0x0A) ?? -1)
            }
            #expect(
                (CSVByteSearch.firstInvalidUTF8(guarded.buffer) != nil)
                    == (String(validating: bytes, as: UTF8.self) == nil)
            )
            #expect(UTF8Text.isValid(guarded.raw) == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }

    static let commaDoubling = ByteRewriteTable { $0 == UInt8(ascii: ",") ? [$0, $0] : nil }

    @Test("JSON: the string scans, and the reply copy of every cut of an object")
    func json() {
        for bytes in Self.inputs {
            let guarded = GuardedBytes(bytes)
            let expected = bytes.withUnsafeBytes { JSONStringBytes.writerSpelledEnd($0, from: 0) }
            let found = JSONStringBytes.writerSpelledEnd(guarded.raw, from: 0)
            #expect(found?.0 == expected?.0 && found?.escaped == expected?.escaped && found?.ascii == expected?.ascii)
        }
        let object = Array(
            (#"{"odata.etag":"W/\"datetime'2026-03-01T18%3A30%3A05.1Z'\"","PartitionKey":"Events","RowKey":"0f6c","#
                + #""Timestamp":"2026-03-01T18:30:05.1Z","EventDate@odata.type":"Edm.DateTime","#
                + #""EventDate":"2026-03-01T18:30:00Z","EventName":"Swift \"Night\" in Zürich"}"#).utf8
        )
        for cut in 0...object.count {
            let guarded = GuardedBytes(Array(object[..<cut]))
            var names: [Range<Int>] = []
            var out: [UInt8] = []
            let copied = JSONReplyCopy.append(guarded.raw, at: 0, names: &names, to: &out)
            #expect((copied != nil) == (cut == object.count), "cut at \(cut)")
        }
    }

    @Test("SWAR.firstMarked, copyUnmarked, appendRewriting, SWAR.count and ByteHash.hash")
    func primitives() {
        for bytes in Self.inputs {
            let guarded = GuardedBytes(bytes)
            let commas = SWAR.broadcast(UInt8(ascii: ","))
            let expected = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let found = SWAR.firstMarked(in: guarded.raw, from: 0) { SWAR.bytes($0, equalTo: commas) }
            // A match in the last bytes is left to the caller's byte loop.
            #expect(found == expected || (found == bytes.count & ~7 && expected >= found))
            let byVectors = SWAR.firstMarkedByte(
                in: guarded.raw,
                from: 0,
                vectors: { $0 .== SIMD16(repeating: UInt8(ascii: ",")) },
                words: { SWAR.bytes($0, equalTo: commas) }
            )
            #expect(byVectors == expected)
            #expect(SWAR.count(of: 0x0A, in: guarded.buffer) == bytes.count { $0 == 0x0A })
            #expect(ByteHash.hash(guarded.raw) == bytes.withUnsafeBytes { ByteHash.hash($0) })
            // Copied into room for the bytes and 8 more, as its callers give it.
            var copy = [UInt8](repeating: 0, count: bytes.count + 8)
            var (index, written) = (0, 0)
            copy.withUnsafeMutableBytes { target in
                SWAR.copyUnmarked(
                    from: guarded.raw.baseAddress ?? UnsafeRawPointer(target.baseAddress!),
                    index: &index,
                    end: bytes.count,
                    to: target.baseAddress!,
                    written: &written
                ) { SWAR.bytes($0, equalTo: commas) }
            }
            #expect(index == expected && written == expected && copy[..<written] == bytes[..<expected])
            var rewritten: [UInt8] = []
            SWAR.appendRewriting(guarded.buffer, from: 0, to: &rewritten, Self.commaDoubling)
            #expect(rewritten == bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, $0] : [$0] })
        }
    }
}
