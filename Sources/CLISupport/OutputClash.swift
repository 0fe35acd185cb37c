import ArgumentParser
package import SpeakEasyData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses an output that is a file the same run reads or writes: `export --store a.sqlite --to
/// a.sqlite` would replace the account with its own export, `validate x.json --output x.json` the
/// data with its report. Files are compared by device and inode, so a symlink, `./x` or a hard link
/// to the same file is caught as well as the same name. Called from a tool's `validate()`, so the
/// refusal (64) comes before anything is read or written.
package enum OutputClash {
    /// A file the run also uses, and what messages call it (`the store`, `the input`).
    package struct Use {
        let role: String
        let path: String

        /// An input file; `-` is stdin, which may be redirected from the output.
        package static func input(_ path: String) -> Use { Use(role: "the input", path: path) }

        /// What `export` and `validate` read: the files, or with none the store, when it is a local
        /// file (an account elsewhere is no file here).
        package static func sources(files: [String], store: StorageLocation) -> [Use] {
            if !files.isEmpty { return files.map(input) }
            guard case .local(let path) = store else { return [] }
            return [Use(role: "the store", path: path)]
        }
    }

    /// Throws a usage error naming both when `output` (given as `option`) is one of `uses`. An output
    /// that is not there yet, stdout, or a device or pipe (written in place, never replaced) is no clash.
    package static func refuse(output: String?, option: String, uses: [Use]) throws {
        guard let output, output != "-", let target = identity(of: output), target.isRegularFile else { return }
        for use in uses where identity(of: use.path) == target {
            let what = use.path == "-" ? "\(use.role) (stdin)" : "\(use.role) \(use.path)"
            throw ValidationError("\(option) \(output) is the same file as \(what); write to another file")
        }
    }

    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
        let isRegularFile: Bool
    }

    /// The file a path names after symlinks (`-` names stdin's); nil when there is none.
    private static func identity(of path: String) -> Identity? {
        var info = stat()
        let found = path == "-" ? fstat(STDIN_FILENO, &info) == 0 : stat(path, &info) == 0
        guard found else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), isRegularFile: info.st_mode & S_IFMT == S_IFREG)
    }
}
