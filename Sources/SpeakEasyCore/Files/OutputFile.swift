#if canImport(Glibc)
import Glibc
internal import CLinux
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a tool writes its output: a file, written under a temporary name in the same directory and
/// renamed over the target only by ``commit()`` — a failed run never leaves a truncated file — or a
/// stream written as it goes: stdout (`-`), or a device or pipe such as `/dev/null` (renaming over
/// one would replace the device with a file).
package final class OutputFile {
    /// The target path, or `stdout`.
    package let name: String
    private let target: String?
    private let temporary: String?
    private var fd: Int32
    private let closesDescriptor: Bool
    /// The temporary file's slot in ``TemporaryFiles``, removed on an interrupt.
    private var interruptSlot: Int?
    private var finished = false
    package private(set) var bytesWritten: Int64 = 0
    /// The bytes whose writing to disk has been started (``startWritingBack()``).
    private var writtenBack: Int64 = 0
    /// How much is written before the disk is told to start on it.
    package static let writeBehind: Int64 = 8 << 20
    /// Past this many bytes a temporary file is written past the page cache (``AlignedStage``), where
    /// its file system allows.
    package static let directAfter: Int64 = 8 << 20
    /// How much a direct write takes at a time.
    static let directWriteSize = 1 << 20
    /// The bytes gathering for the next direct write, while the file is written so.
    private var stage: AlignedStage?
    /// What writes the full stages, while the next fills.
    private var directWriter: DirectWriter?
    /// Set once the file is past direct writes: not allowed, or ended (``flushedTemporaryPath()``).
    private var directEnded = false
    /// Written as it goes, with no temporary file to rewrite: stdout, a device or a pipe.
    package var isStream: Bool { temporary == nil }

    /// Creates the temporary file next to `path` (`-` is stdout). 73 when it cannot be created.
    package init(path: String) throws(FileError) {
        if path == "-" {
            name = "stdout"
            target = nil
            temporary = nil
            fd = STDOUT_FILENO
            closesDescriptor = false
            return
        }
        name = path
        switch FileSystem.kind(of: path) {
        case .directory: throw FileError(path: path, reason: "is a directory", kind: .cannotCreateOutput)
        case .other:
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw FileError(
                    path: path,
                    reason: "cannot open it: " + String(cString: strerror(errno)),
                    kind: .cannotCreateOutput
                )
            }
            (target, temporary, fd, closesDescriptor) = (nil, nil, descriptor, true)
            return
        case .missing, .file: break
        }
        if let problem = FileSystem.creationProblem(at: path) {
            throw FileError(path: path, reason: problem, kind: .cannotCreateOutput)
        }
        let directory = FileSystem.directory(of: path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let prefix: String = directory == "." && !path.hasPrefix("./") ? "" : directory + "/"
        PartialFiles.removeStale(directory: directory, base: base)
        var template: [CChar] = []
        var descriptor: Int32 = -1
        // A new file can be taken by a cleaner before it is locked: then it is gone, and we make another.
        for _ in 0..<8 where descriptor < 0 {
            template = Array(
                (prefix + PartialFiles.prefix(of: base) + String(repeating: "X", count: PartialFiles.randomLength))
                    .utf8CString
            )
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { break }
            if !PartialFiles.claim(descriptor) {
                close(descriptor)
                descriptor = -1
            }
        }
        guard descriptor >= 0 else {
            throw FileError(
                path: path,
                reason: "cannot create it: " + String(cString: strerror(errno)),
                kind: .cannotCreateOutput
            )
        }
        fd = descriptor
        closesDescriptor = true
        target = path
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        interruptSlot = TemporaryFiles.register(temporary!)
        // mkstemp makes 0600; an export is an ordinary file.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Writes all of `bytes`; 74 on failure (a full disk, a closed pipe: EPIPE, as the tools ignore SIGPIPE).
    ///
    /// Past ``directAfter`` bytes, a temporary file is written with `O_DIRECT`, a block-aligned MiB at
    /// a time, by a thread of its own while the next MiB gathers (``DirectWriter``): the kernel then
    /// copies nothing into its page cache and has nothing to write back.
    /// Through the page cache, `export --parallel 16` of 1,000,000 events spent a fifth of its CPU
    /// copying 1.6 GB into it (perf), and the fsync before the rename waited on the writeback (`dd`
    /// here: 2.4 GB/s with `O_DIRECT`, 390–790 MB/s through the cache with `fdatasync`). The bytes
    /// past the last whole block are written through the cache by ``commit()``.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        var rest = bytes
        if stage == nil, !directEnded, temporary != nil, bytesWritten >= Self.directAfter {
            // Through the cache up to a block boundary; from there on, direct if the file system allows.
            let alignment = Int64(AlignedStage.alignment)
            let head = min(Int((alignment - bytesWritten % alignment) % alignment), rest.count)
            try writeAll(UnsafeRawBufferPointer(rebasing: rest.prefix(head)))
            bytesWritten += Int64(head)
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(head))
            if bytesWritten % alignment == 0 { beginDirectWrites() }
        }
        while let stage, !rest.isEmpty {
            let taken = stage.fill(from: rest)
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            bytesWritten += Int64(taken)
            if stage.isFull {
                try directWriter!.write(stage)
                self.stage = directWriter!.emptyStage()
            }
        }
        guard !rest.isEmpty else { return }
        try writeAll(rest)
        bytesWritten += Int64(rest.count)
        if temporary != nil, bytesWritten - writtenBack >= Self.writeBehind { startWritingBack() }
    }

    /// `write(2)` until all of `bytes` is written.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        try Self.writeAll(bytes, to: fd, name: name)
    }

    /// `write(2)` to `fd` until all of `bytes` is written; `name` names the file in errors.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, name: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let result = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { throw FileError(path: name, reason: FileError.closedPipe, kind: .ioError) }
                throw FileError(path: name, reason: "write failed: " + String(cString: strerror(code)), kind: .ioError)
            }
            offset += result
        }
    }

    /// Turns on `O_DIRECT` for the file, at a block boundary, with a thread to write the full stages
    /// (``DirectWriter``); where the file system refuses, the file goes on through the page cache.
    private func beginDirectWrites() {
        #if canImport(Glibc)
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0, fcntl(fd, F_SETFL, flags | SPEAKEASY_O_DIRECT) == 0 {
            let writer = DirectWriter(fd: fd, name: name, capacity: Self.directWriteSize)
            directWriter = writer
            stage = writer.emptyStage()
            return
        }
        #endif
        directEnded = true
    }

    /// Turns `O_DIRECT` off again on `fd`, for good.
    static func endDirectWrites(_ fd: Int32) {
        #if canImport(Glibc)
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~SPEAKEASY_O_DIRECT) }
        #endif
    }

    /// Waits for the full stages to be written, then writes what the filling one holds through the
    /// page cache, and the rest of the file too.
    private func finishDirectWrites() throws(FileError) {
        guard let stage, let directWriter else { return }
        self.stage = nil
        self.directWriter = nil
        directEnded = true
        try directWriter.finish()
        Self.endDirectWrites(fd)
        try writeAll(stage.bytes)
    }

    /// Where the bytes are until ``commit()`` (nil for stdout), every byte written so far in it, so
    /// that the output can be read back before it is committed. The file is written through the page
    /// cache from then on.
    package func flushedTemporaryPath() throws(FileError) -> String? {
        try finishDirectWrites()
        directEnded = true
        return temporary
    }

    /// Tells the disk to start writing what was written so far, without waiting for it. ``commit()``
    /// fsyncs the file, and the kernel would otherwise leave most of it in memory until then: an
    /// export of 1.6 GB then spent its last second waiting on the disk, a sixth of a run of
    /// `bench/azure-export` at `--parallel 16`. Started as it goes, the disk keeps up alongside the
    /// work. Only for a file that will be fsynced (a temporary one); a failure here shows in the fsync.
    private func startWritingBack() {
        #if canImport(Glibc)
        _ = sync_file_range(fd, writtenBack, bytesWritten - writtenBack, UInt32(SYNC_FILE_RANGE_WRITE))
        #endif
        writtenBack = bytesWritten
    }

    /// Writes all of an array's bytes, as ``write(_:)`` does.
    package func write(contentsOf bytes: [UInt8]) throws(FileError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(FileError) in try write(raw) } }.get()
    }

    /// Writes the buffer's bytes and empties it, keeping its capacity.
    package func drain(_ buffer: inout [UInt8]) throws(FileError) {
        guard !buffer.isEmpty else { return }
        let result = buffer.withUnsafeBytes { bytes in Result { () throws(FileError) in try write(bytes) } }
        buffer.removeAll(keepingCapacity: true)
        try result.get()
    }

    /// Makes the output final: fsyncs and renames the temporary file over the target.
    package func commit() throws(FileError) {
        finished = true
        guard let target, let temporary else {
            if closesDescriptor { close(fd) }
            return
        }
        defer {
            close(fd)
            TemporaryFiles.forget(interruptSlot)
        }
        do {
            try finishDirectWrites()
        } catch {
            unlink(temporary)
            throw error
        }
        guard fsync(fd) == 0, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FileError(path: target, reason: "cannot finish writing it: " + reason, kind: .ioError)
        }
    }

    /// Discards the output: the temporary file is removed and the target left as it was.
    package func abandon() {
        finished = true
        try? directWriter?.finish()
        directWriter = nil
        if closesDescriptor { close(fd) }
        guard let temporary else { return }
        unlink(temporary)
        TemporaryFiles.forget(interruptSlot)
    }
}

/// `write(2)`, named apart from ``OutputFile/write(_:)``.
func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
