#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files ``OutputFile`` writes beside its target, `.name.partial-XXXXXX`, each holding
/// an exclusive `flock` for as long as its writer lives. A writer killed by SIGKILL (which no handler
/// sees) leaves its file behind, unlocked; the next output to the same target removes such files,
/// and only those: a file another run is still writing stays locked and is left alone, and other
/// targets' files are never looked at.
enum PartialFiles {
    /// What every temporary file of `base` (a file name without its directory) starts with.
    static func prefix(of base: String) -> String { "." + base + ".partial-" }

    /// mkstemp's random part.
    static let randomLength = 6

    /// Claims a new temporary file for its writer: locks it, and checks that a cleaner did not remove
    /// it between its creation and the lock (then the caller makes another).
    static func claim(_ descriptor: Int32) -> Bool {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink > 0
    }

    /// Removes the temporary files of `base` in `directory` whose writer is gone.
    static func removeStale(directory: String, base: String) {
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        let prefix = prefix(of: base)
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), name.utf8.count == prefix.utf8.count + randomLength else { continue }
            removeIfAbandoned(directory + "/" + name)
        }
    }

    private static func removeIfAbandoned(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Its writer holds the lock while it lives.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
        // Still the same regular file at that name (not replaced since it was opened).
        var opened = stat()
        var current = stat()
        guard fstat(descriptor, &opened) == 0, lstat(path, &current) == 0, opened.st_mode & S_IFMT == S_IFREG,
            opened.st_dev == current.st_dev, opened.st_ino == current.st_ino
        else { return }
        unlink(path)
    }
}
