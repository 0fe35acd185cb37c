#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path or descriptor names, by device and inode: a symlink, `./x` or a hard link to a
/// file is the same file as its name. Two paths that name one file cannot be one run's input and
/// output: writing the output replaces what is read.
package struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    /// Only a regular file can be read and replaced: a device or a pipe is no clash.
    package let isRegularFile: Bool

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
    }

    /// The file a path names after symlinks; nil when there is none.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file an open descriptor is (stdout redirected to a file, say); nil when it is not open.
    package init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }
}
