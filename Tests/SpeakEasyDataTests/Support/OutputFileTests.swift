import Foundation
import SpeakEasyData
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("OutputFile: atomic files, and devices and pipes written in place")
struct OutputFileTests {
    @Test("a file appears only when committed, and an abandoned one leaves nothing")
    func atomicFile() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/out.txt"
            let output = try OutputFile(path: path)
            var bytes = Array("hello".utf8)
            try output.drain(&bytes)
            #expect(!FileManager.default.fileExists(atPath: path))
            try output.commit()
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
            let abandoned = try OutputFile(path: directory + "/gone.txt")
            abandoned.abandon()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.txt"])
        }
    }

    /// Past ``OutputFile/writeBehind`` the disk is told to start writing as the file grows: what is
    /// committed is still every byte, in order, including writes that straddle the mark.
    @Test("a file larger than the write-behind step is committed whole")
    func writtenBehind() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/big.bin"
            let output = try OutputFile(path: path)
            // Random bytes of a length no write size divides, so a misplaced write shows.
            let pattern = (0..<(1 << 20) + 7).map { _ in UInt8.random(in: 0...255) }
            var expected: [UInt8] = []
            // Uneven writes, so some straddle each multiple of the step; three steps and a bit.
            while expected.count < 3 * Int(OutputFile.writeBehind) + 12_345 {
                let start = expected.count % pattern.count
                var chunk = Array(pattern[start..<min(pattern.count, start + Int.random(in: 1...(1 << 20)))])
                expected += chunk
                try output.drain(&chunk)
            }
            #expect(output.bytesWritten == Int64(expected.count))
            try output.commit()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
        }
    }

    /// Past ``OutputFile/directAfter`` the file is written past the page cache, a block-aligned MiB
    /// at a time, the bytes after the last whole block at the end; read back before the commit (as a
    /// CSV whose header grew is), it holds every byte so far, and what follows is still written.
    /// Where the directory's file system refuses `O_DIRECT` (tmpfs, on older kernels), the file
    /// goes on through the cache.
    @Test(
        "a file written past the page cache is whole when read back early and when committed",
        arguments: ["", "/dev/shm"]
    )
    func writtenDirect(base: String) throws {
        if !base.isEmpty, !FileManager.default.fileExists(atPath: base) { return }
        try withTemporaryDirectorySync { directory in
            let directory = base.isEmpty ? directory : base
            let path = directory + "/direct-\(UInt64.random(in: 0...UInt64.max)).bin"
            defer { unlink(path) }
            let output = try OutputFile(path: path)
            let pattern = (0..<(1 << 20) + 7).map { _ in UInt8.random(in: 0...255) }
            var expected: [UInt8] = []
            func write(upTo size: Int) throws {
                while expected.count < size {
                    let start = expected.count % pattern.count
                    var chunk = Array(pattern[start..<min(pattern.count, start + Int.random(in: 1...(1 << 19)))])
                    expected += chunk
                    try output.drain(&chunk)
                }
            }
            try write(upTo: Int(OutputFile.directAfter) + 3 * (1 << 20) + 4_321)
            let early = try #require(try output.flushedTemporaryPath())
            #expect(try Data(contentsOf: URL(fileURLWithPath: early)) == Data(expected))
            try write(upTo: expected.count + 2 * (1 << 20) + 99)
            #expect(output.bytesWritten == Int64(expected.count))
            try output.commit()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
        }
    }

    /// The writes past the page cache happen on a thread of their own (``DirectWriter``): one that
    /// fails there fails the next stage handed on, and the finish.
    @Test("a write that fails on the direct writer's thread fails the next write and the finish")
    func directWriterFailure() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/read-only.bin"
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let fd = open(path, O_RDONLY)
            defer { close(fd) }
            let writer = DirectWriter(fd: fd, name: path, stages: 1, capacity: AlignedStage.alignment)
            let stage = writer.emptyStage()
            let block = [UInt8](repeating: 7, count: AlignedStage.alignment)
            #expect(block.withUnsafeBytes { stage.fill(from: $0) } == block.count && stage.isFull)
            try writer.write(stage)  // handed on: its failure comes later
            let again = writer.emptyStage()  // the one stage, back once the thread has failed on it
            #expect(again === stage && again.count == 0)
            let failure = FileError(path: path, reason: "write failed: Bad file descriptor", kind: .ioError)
            #expect(throws: failure) { try writer.write(again) }
            #expect(throws: failure) { try writer.finish() }
        }
    }

    @Test("a large file written past the page cache is whole when committed")
    func committedDirect() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/direct.bin"
            let output = try OutputFile(path: path)
            // Whole blocks, then a tail that is not one: the tail goes through the cache at the commit.
            var expected: [UInt8] = []
            for index in 0..<40 {
                var chunk = [UInt8](repeating: UInt8(index), count: 512 << 10)
                if index == 39 { chunk += [1, 2, 3] }
                expected += chunk
                try output.drain(&chunk)
            }
            try output.commit()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
        }
    }

    /// Renaming a temporary file over `/dev/null` would replace the device with a regular file, and
    /// every later `> /dev/null` on the machine would fill the disk.
    @Test("a device such as /dev/null is written in place and stays a device")
    func device() throws {
        let output = try OutputFile(path: "/dev/null")
        #expect(output.isStream)
        var bytes = Array(repeating: UInt8(ascii: "x"), count: 1 << 16)
        try output.drain(&bytes)
        try output.commit()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("a named pipe is written in place")
    func pipe() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
            // The reading end first, non-blocking, so opening the writing end does not wait.
            let reader = open(path, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let output = try OutputFile(path: path)
            var bytes = Array("through the pipe".utf8)
            try output.drain(&bytes)
            try output.commit()
            var received = [UInt8](repeating: 0, count: 64)
            let count = read(reader, &received, received.count)
            #expect(String(decoding: received.prefix(max(count, 0)), as: UTF8.self) == "through the pipe")
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        }
    }

    final class SlotRace: Sendable {
        let ready = Atomic<Int>(0)
        let slots: Locked<[Int?]>
        init(threads: Int) { slots = Locked([Int?](repeating: nil, count: threads)) }
    }

    /// Tests and tools open output files on many threads at once. Two registrations that claimed one
    /// free slot would later free one path twice, which corrupts the heap.
    @Test("interrupt slots registered on many threads at once are never handed out twice")
    func slotsAcrossThreads() {
        let threads = 8
        for round in 0..<200 {
            let race = SlotRace(threads: threads)
            let done = DispatchGroup()
            for index in 0..<threads {
                done.enter()
                Thread {
                    race.ready.add(1, ordering: .sequentiallyConsistent)
                    while race.ready.load(ordering: .sequentiallyConsistent) < threads { sched_yield() }
                    let slot = TemporaryFiles.register("/nonexistent/round-\(round)-\(index)")
                    race.slots.withLock { $0[index] = slot }
                    done.leave()
                }.start()
            }
            done.wait()
            let claimed = race.slots.withLock { $0 }.compactMap { $0 }
            #expect(Set(claimed).count == claimed.count, "round \(round): \(claimed)")
            for slot in claimed { TemporaryFiles.forget(slot) }
        }
    }
}
