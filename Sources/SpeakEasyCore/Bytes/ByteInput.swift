#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or stdin read in large chunks, for the streaming readers.
///
/// Readers keep their own buffer and ask for more bytes when they run out, so no reader ever holds a
/// whole input. `name` is what errors say: the path, or `stdin` for `-`. Text in another encoding
/// than UTF-8 is read through ``init(decoding:from:)``, which hands out its UTF-8.
package final class ByteInput {
    package let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Bytes of the input handed out so far, for progress. Of a decoded input, the bytes of the file
    /// behind what was handed out (in proportion within a chunk), so that it ends at the file's size.
    package private(set) var bytesRead: Int64 = 0

    /// Opens `path` (`-` is stdin). A file that is missing, a directory or cannot be opened (no
    /// permission) is 66, as sysexits' EX_NOINPUT says; 74 is for a read that fails part-way.
    package init(path: String) throws(FileError) {
        if path == "-" {
            name = "stdin"
            fd = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        name = path
        guard FileSystem.kind(of: path) != .directory else {
            throw FileError(path: path, reason: "is a directory, not a data file", kind: .inputMissing)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FileError(path: path, reason: String(cString: strerror(errno)), kind: .inputMissing)
        }
        fd = descriptor
        ownsDescriptor = true
        #if canImport(Glibc)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    /// In-memory input, for tests and for bytes already read (a sniffed prefix).
    package convenience init(name: String, bytes: [UInt8]) {
        self.init(name: name, pending: bytes)
    }

    /// `bytes`, then whatever `rest` still holds: a piece of a file cut out ahead of the rest of it.
    package convenience init(name: String, bytes: [UInt8], then rest: ByteInput) {
        self.init(name: name, pending: bytes)
        continuation = rest
    }

    /// The UTF-8 of `source`, text in `encoding`, decoded a chunk at a time as it is read.
    package init(decoding source: ByteInput, from encoding: TextEncoding) {
        name = source.name
        fd = -1
        ownsDescriptor = false
        decoding = (source, TextDecoder(encoding))
    }

    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// The bytes of the input that `pending[pendingOffset...]` stands for: as many, but for a decoded
    /// chunk (``bytesRead``).
    private var pendingCredit: Int64 = 0
    /// Read once `pending` is used up (an in-memory input only).
    private var continuation: ByteInput?
    /// The input this one decodes, and its decoder; nil once the source has ended.
    private var decoding: (source: ByteInput, decoder: TextDecoder)?

    private init(name: String, pending: [UInt8]) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        self.pending = pending
        pendingCredit = Int64(pending.count)
    }

    deinit {
        if ownsDescriptor { close(fd) }
        scratch.deallocate()
    }

    /// Reads up to `destination.count` bytes into it; returns how many (0 at the end of the input).
    package func read(into destination: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        if fd < 0 || pendingOffset < pending.count {
            if pendingOffset == pending.count, let continuation {
                let before = continuation.bytesRead
                let count = try continuation.read(into: destination)
                bytesRead += continuation.bytesRead - before
                return count
            }
            if pendingOffset == pending.count, decoding != nil { try decodeMore(size: destination.count) }
            let remaining = pending.count - pendingOffset
            let count = min(destination.count, remaining)
            destination.copyBytes(from: pending[pendingOffset..<(pendingOffset + count)])
            pendingOffset += count
            let credit = count == remaining ? pendingCredit : pendingCredit * Int64(count) / Int64(remaining)
            bytesRead += credit
            pendingCredit -= credit
            return count
        }
        while true {
            let result = posixRead(fd, destination.baseAddress, destination.count)
            if result >= 0 {
                bytesRead += Int64(result)
                return result
            }
            let code = errno
            if code == EINTR { continue }
            throw FileError(path: name, reason: "read failed: " + String(cString: strerror(code)), kind: .ioError)
        }
    }

    /// The first `count` bytes (fewer if the input is shorter), without consuming them: later reads
    /// return them again. For sniffing the format of stdin, which cannot be reopened.
    package func peek(count: Int) throws(FileError) -> [UInt8] {
        let before = bytesRead
        var prefix: [UInt8] = []
        while prefix.count < count, try read(appendingTo: &prefix, maximum: count - prefix.count) > 0 {}
        // Put the bytes back in front of whatever was still pending; they count as read when re-read.
        pending = prefix + pending[pendingOffset...]
        pendingOffset = 0
        pendingCredit += bytesRead - before
        bytesRead = before
        return prefix
    }

    /// Decodes the next chunk of the source into `pending`; leaves it empty at the end of the source.
    private func decodeMore(size: Int) throws(FileError) {
        pending.removeAll(keepingCapacity: true)
        (pendingOffset, pendingCredit) = (0, 0)
        // A chunk may decode to nothing (a UTF-16 unit cut in two waits for the next one).
        while pending.isEmpty, var state = decoding {
            chunk.removeAll(keepingCapacity: true)
            let raw = try state.source.read(appendingTo: &chunk, maximum: max(size, 4096))
            let failure = chunk.withUnsafeBytes { bytes -> TextDecoder.Failure? in
                do throws(TextDecoder.Failure) {
                    if raw == 0 {
                        try state.decoder.finish()
                    } else {
                        try state.decoder.decode(bytes, into: &pending)
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw FileError(path: name, reason: failure.message, kind: .malformedInput) }
            if raw == 0 {
                decoding = nil
                return
            }
            decoding = state
            pendingCredit += Int64(raw)
        }
    }

    /// A chunk of the source read for decoding.
    private var chunk: [UInt8] = []

    /// Appends up to `maximum` bytes to `buffer`; returns how many (0 at the end of the input).
    package func read(appendingTo buffer: inout [UInt8], maximum: Int = 1 << 20) throws(FileError) -> Int {
        // Read into scratch memory and copy: an array cannot grow without first being filled, and
        // filling it element by element is slow (very, in a debug build).
        if scratch.count < maximum {
            scratch.deallocate()
            scratch = .allocate(byteCount: maximum, alignment: 16)
        }
        let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<maximum]))
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
        return count
    }

    /// All that is left of an input held wholly in memory, taken without a copy; nil for a file, stdin
    /// or an input that continues into one.
    package func takeBytesInMemory() -> [UInt8]? {
        guard fd < 0, continuation == nil, decoding == nil else { return nil }
        var rest = pending
        pending = []
        if pendingOffset > 0 { rest.removeFirst(pendingOffset) }
        pendingOffset = 0
        bytesRead += pendingCredit
        pendingCredit = 0
        return rest
    }

    /// Memory for ``read(appendingTo:maximum:)``.
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
}

/// `read(2)`, named apart from ``ByteInput/read(into:)``.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
