#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the library needs, on POSIX directly so errors carry errno.
package enum FileSystem {
    package enum Kind { case missing, file, directory, other }

    package static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The size of a regular file in bytes; nil when it is not one.
    package static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Reads a whole regular file; `maximumSize` guards against a huge file where a small one is expected.
    package static func readFile(_ path: String, maximumSize: Int = 64 << 20) throws(FileError) -> [UInt8] {
        guard kind(of: path) != .directory else {
            throw FileError(path: path, reason: "is a directory", kind: .malformedInput)
        }
        let fd = open(path, O_RDONLY)
        // Missing or not readable (no permission) is 66, as sysexits' EX_NOINPUT says; 74 is for a
        // read that fails part-way.
        guard fd >= 0 else {
            throw FileError(path: path, reason: String(cString: strerror(errno)), kind: .inputMissing)
        }
        defer { close(fd) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, reason: String(cString: strerror(errno)), kind: .ioError)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumSize else {
                throw FileError(path: path, reason: "is larger than \(maximumSize >> 20) MiB", kind: .malformedInput)
            }
        }
    }

    /// The names of the regular files in a directory (not in its subdirectories, and not hidden ones
    /// such as `.DS_Store`), sorted.
    package static func fileNames(in directory: String) throws(FileError) -> [String] {
        guard let listing = opendir(directory) else {
            let code = errno
            let reason = code == ENOTDIR ? "is not a directory" : String(cString: strerror(code))
            throw FileError(
                path: directory,
                reason: reason,
                // A file where a directory should be is as missing as no file at all (66), as a
                // --samples that names a file is.
                kind: code == ENOENT || code == ENOTDIR ? .inputMissing : .ioError
            )
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix("."), kind(of: directory + "/" + name) == .file { names.append(name) }
        }
        return names.sorted()
    }

    /// The first `count` bytes of a file (fewer if it is shorter); nil when it cannot be read.
    package static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        return got < 0 ? nil : Array(bytes.prefix(got))
    }

    /// Where temporary files go: `$TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        let path = String(cString: value)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Whether two paths name one regular file (after symbolic links): writing one would replace
    /// what is read from the other.
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let first = FileIdentity(path: a), first.isRegularFile else { return false }
        return first == FileIdentity(path: b)
    }

    /// Whether the current user may read the path.
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Whether the current user may write to the path (or create it in its directory).
    package static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Why a new file cannot be created at `path`, in the one wording every tool uses for it (an
    /// output file, a new store); nil when its directory exists and is writable.
    package static func creationProblem(at path: String) -> String? {
        let parent = directory(of: path)
        switch kind(of: parent) {
        case .missing: return "cannot create it: directory \(parent) does not exist"
        case .file, .other: return "cannot create it: \(parent) is not a directory"
        case .directory: return isWritable(parent) ? nil : "cannot create it: directory \(parent) is not writable"
        }
    }

    /// The directory part of a path (`.` when there is none).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// An absolute form of the path, resolved against the working directory.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let pointer = getcwd(nil, 0) else { return path }
        defer { free(pointer) }
        let cwd = String(cString: pointer)
        return path == "." ? cwd : cwd + "/" + path
    }
}

/// A file that could not be read.
package struct FileError: ClassifiedError, Equatable {
    package let path: String
    package let reason: String
    package let kind: FailureKind

    package init(path: String, reason: String, kind: FailureKind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    package var description: String { "\(path): \(reason)" }

    /// The reason of a write to a pipe whose reader went away (`export … | head`): not a fault to
    /// report, as the reader chose to stop.
    package static let closedPipe = "the reader closed the pipe"
    package var isClosedPipe: Bool { reason == Self.closedPipe }
}
