import ArgumentParser
import SpeakEasyCore
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

    /// Throws a usage error naming both when `output` (given as `option`; nil or `-` is stdout) is one
    /// of `uses`. Only a regular file can clash: an output not there yet, a device or a pipe cannot.
    /// Stdout counts when the shell redirects it to a file (`>> acct.sqlite` would append to the store).
    package static func refuse(output: String?, option: String, uses: [Use]) throws {
        let toStdout = output == nil || output == "-"
        guard let target = toStdout ? FileIdentity(descriptor: STDOUT_FILENO) : FileIdentity(path: output!),
            target.isRegularFile
        else { return }
        for use in uses where identity(of: use.path) == target {
            let what = use.path == "-" ? "\(use.role) (stdin)" : "\(use.role) \(use.path)"
            let named = toStdout ? "stdout" : "\(option) \(output!)"
            throw ValidationError("\(named) is the same file as \(what); write to another file")
        }
    }

    /// The file a path names (`-` names stdin's); nil when there is none.
    private static func identity(of path: String) -> FileIdentity? {
        path == "-" ? FileIdentity(descriptor: STDIN_FILENO) : FileIdentity(path: path)
    }
}
