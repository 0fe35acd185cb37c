package import Foundation
import SpeakEasyData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, with pipes for its standard streams.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` (to close every descriptor
/// in the child) and copies 256 bytes of each entry's name. When the listing fills its 32 KiB buffer,
/// at some 1,360 open descriptors, the copy of the last name runs past the buffer, and faults when
/// the buffer ends a mapping. Parallel tests get there (each store holds several connections), and
/// AddressSanitizer names the read; it crashed a CI run. Here the child closes every descriptor
/// above its three streams as it starts (`posix_spawn_file_actions_addclosefrom_np`), and the pipes
/// are close-on-exec.
package final class ChildProcess: Sendable {
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    private static let spawning = NSLock()
    package let processIdentifier: Int32
    /// The read ends of the child's stdout and stderr.
    package let stdout: FileHandle
    package let stderr: FileHandle
    /// The write end of the child's stdin, when asked for; otherwise it reads /dev/null.
    package let stdin: FileHandle?
    private let exit = Locked<Int32?>(nil)

    /// Starts `executable` with `arguments` in `directory` (through `env -C`, as `posix_spawn` has no
    /// portable way to change directory).
    package init(
        _ executable: String,
        _ arguments: [String],
        directory: String? = nil,
        environment: [String: String],
        withInput: Bool = false
    ) throws {
        // Pipes are made and marked close-on-exec, and children spawned, under one lock: a child
        // spawned in between would inherit another's pipe and hold its end of file back.
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        func pipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            #if canImport(Glibc)
            let made = Glibc.pipe(&ends)
            #else
            let made = Darwin.pipe(&ends)
            #endif
            guard made == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        let out = try pipe()
        let err = try pipe()
        let input = withInput ? try pipe() : nil
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(out.write)
            close(err.write)
            if let input { close(input.read) }
            close(null)
        }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies, which are all the child keeps.
        posix_spawn_file_actions_adddup2(&actions, input?.read ?? null, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Descriptors made without close-on-exec elsewhere (a file FileManager is copying, a
        // temporary file from mkstemp) must not live on in the child: a copied executable that a
        // child holds open for writing cannot be run (ETXTBSY).
        try Self.closeFrom3(&actions)

        let argv = (directory.map { ["/usr/bin/env", "-C", $0] } ?? []) + [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = envp.map { strdup($0) } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: Int32 = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            close(out.read)
            close(err.read)
            if let input { close(input.write) }
            throw SpawnError(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        stdout = FileHandle(fileDescriptor: out.read, closeOnDealloc: true)
        stderr = FileHandle(fileDescriptor: err.read, closeOnDealloc: true)
        stdin = input.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) }
    }

    #if canImport(Glibc)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does
    /// not import: looked up by name.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) throws {
        guard let addCloseFrom else {
            throw SpawnError(
                description: "this glibc lacks posix_spawn_file_actions_addclosefrom_np (2.34 or later needed)"
            )
        }
        guard addCloseFrom(&actions, 3) == 0 else {
            throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np failed")
        }
    }
    #else
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t?) throws {}
    #endif

    /// Whether the child has not exited yet (it stays waitable: `WNOWAIT`).
    package var isRunning: Bool {
        if exit.withLock({ $0 }) != nil { return false }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        #if canImport(Glibc)
        return info._sifields._sigchld.si_pid == 0
        #else
        return info.si_pid == 0
        #endif
    }

    /// Blocks until the child exits; returns its exit status, or the signal that ended it.
    package func waitForExit() -> (status: Int32, killedBySignal: Bool) {
        var raw: Int32 = 0
        if let known = exit.withLock({ $0 }) {
            raw = known
        } else if waitpid(processIdentifier, &raw, 0) == processIdentifier {
            exit.withLock { $0 = raw }
        } else if errno == EINTR {
            return waitForExit()
        } else if let known = exit.withLock({ $0 }) {
            raw = known  // another thread reaped it
        }
        // WIFSIGNALED and WEXITSTATUS are macros Swift does not import.
        let signal = raw & 0x7F
        return signal != 0 && signal != 0x7F ? (signal, true) : ((raw >> 8) & 0xFF, false)
    }

    /// Runs a child to its end; returns all it printed and how it ended. Blocks: call it off the
    /// cooperative pool. stderr is read on a thread of its own, so neither pipe can fill and stall it.
    package static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]
    ) throws
        -> (stdout: Data, stderr: Data, status: Int32, killedBySignal: Bool)
    {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let errors = Locked(Data())
        let done = DispatchGroup()
        done.enter()
        Thread {
            let data = child.stderr.readDataToEndOfFile()
            errors.withLock { $0 = data }
            done.leave()
        }.start()
        let output = child.stdout.readDataToEndOfFile()
        done.wait()
        let (status, signalled) = child.waitForExit()
        return (output, errors.withLock { $0 }, status, signalled)
    }
}
